import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import { slices } from '../../lib/slices.ts';
import type { FileVersionTable } from '../../db/schema.ts';

export type VersionRow = Selectable<FileVersionTable>;

/** The queries of files' earlier versions. */
export class HistoryRepo {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<FileVersionTable>, trx: Db = this.db): Promise<void> {
    await trx.insertInto('fileVersion').values(row).execute();
  }

  byId(userId: string, id: string): Promise<VersionRow | undefined> {
    return this.db
      .selectFrom('fileVersion')
      .selectAll()
      .where('userId', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** A page of a file's versions, newest first, and how many it has. */
  async page(
    fileId: string,
    offset: number,
    limit: number,
  ): Promise<{ rows: VersionRow[]; total: number }> {
    const total = await this.db
      .selectFrom('fileVersion')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('fileId', '=', fileId)
      .executeTakeFirstOrThrow();
    const rows = await this.db
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return { rows, total: Number(total.n) };
  }

  /** Every version of a file, newest first. */
  versionsOf(fileId: string, trx: Db = this.db): Promise<VersionRow[]> {
    return trx
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .execute();
  }

  /**
   * The files (and their owners) that may hold versions retention removes: more than `keep`
   * versions, or one made before `madeBefore` (epoch ms) beside a newer one.
   */
  async filesToPrune(
    keep: number,
    madeBefore: number | null,
  ): Promise<Array<{ fileId: string; userId: string }>> {
    return this.db
      .selectFrom('fileVersion')
      .select(['fileId', 'userId'])
      .groupBy(['fileId', 'userId'])
      .having((eb) => {
        const many = eb(eb.fn.countAll(), '>', keep);
        if (madeBefore === null) return many;
        return eb.or([
          many,
          eb.and([eb(eb.fn.countAll(), '>', 1), eb(eb.fn.min('createdAt'), '<', madeBefore)]),
        ]);
      })
      .execute();
  }

  /** Removes these versions' rows; answers the stored bytes of the rows that were there. */
  async remove(ids: string[], trx: Db = this.db): Promise<number> {
    let bytes = 0;
    for (let i = 0; i < ids.length; i += 500) {
      const gone = await trx
        .deleteFrom('fileVersion')
        .where('id', 'in', ids.slice(i, i + 500))
        .returning('storedSize')
        .execute();
      for (const row of gone) bytes += Number(row.storedSize);
    }
    return bytes;
  }

  /**
   * The bytes kept for the versions of the items of one trash entry (about to be purged; their
   * rows go with the files' rows).
   */
  async storedInTrash(userId: string, trashIds: string[], trx: Db): Promise<number> {
    let bytes = 0;
    for (const slice of slices(trashIds)) {
      const row = await trx
        .selectFrom('fileVersion')
        .innerJoin('file', 'file.id', 'fileVersion.fileId')
        .select((eb) => eb.fn.sum<number>('fileVersion.storedSize').as('bytes'))
        .where('file.userId', '=', userId)
        .where('file.trashId', 'in', slice)
        .executeTakeFirst();
      bytes += Number(row?.bytes ?? 0);
    }
    return bytes;
  }

  /** Which of these files have versions. */
  async filesWithVersions(fileIds: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < fileIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('fileVersion')
        .select('fileId')
        .distinct()
        .where('fileId', 'in', fileIds.slice(i, i + 500))
        .execute();
      for (const r of rows) found.add(r.fileId);
    }
    return found;
  }
}
