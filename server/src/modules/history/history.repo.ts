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

  /** A file's versions beyond its newest `keep` that were made before `before` (epoch ms). */
  async beyond(
    fileId: string,
    keep: number,
    before: number,
    trx: Db = this.db,
  ): Promise<VersionRow[]> {
    const extra = await trx
      .selectFrom('fileVersion')
      .selectAll()
      .where('fileId', '=', fileId)
      .orderBy('createdAt', 'desc')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(100_000)
      .execute();
    return extra.filter((v) => v.createdAt < before);
  }

  async remove(ids: string[], trx: Db = this.db): Promise<void> {
    for (let i = 0; i < ids.length; i += 500)
      await trx
        .deleteFrom('fileVersion')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
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
