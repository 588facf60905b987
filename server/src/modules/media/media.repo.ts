import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { TranscodeFailureTable } from '../../db/schema.ts';

export type TranscodeFailureRow = Selectable<TranscodeFailureTable>;

/** The queries of the media module: transcodes that failed or were cancelled. */
export class MediaRepo {
  constructor(private readonly db: Db) {}

  failureOf(fileId: string): Promise<TranscodeFailureRow | undefined> {
    return this.db
      .selectFrom('transcodeFailure')
      .selectAll()
      .where('fileId', '=', fileId)
      .executeTakeFirst();
  }

  /** Records a file's failure, replacing what was recorded of it before. */
  async recordFailure(row: Insertable<TranscodeFailureTable>): Promise<void> {
    await this.db
      .insertInto('transcodeFailure')
      .values(row)
      .onConflict((oc) =>
        oc.column('fileId').doUpdateSet({
          hash: row.hash,
          reason: row.reason,
          message: row.message ?? null,
          at: row.at,
        }),
      )
      .execute();
  }

  async clearFailure(fileId: string): Promise<void> {
    await this.db.deleteFrom('transcodeFailure').where('fileId', '=', fileId).execute();
  }

  async clearFailures(): Promise<void> {
    await this.db.deleteFrom('transcodeFailure').execute();
  }
}
