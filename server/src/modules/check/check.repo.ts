import type { Db } from '../../db/index.ts';

const LAST_RUN_KEY = 'driveCheck.lastRun';

/** One row of the `file` table as the check reads it. */
export interface CheckedRow {
  id: string;
  path: string;
  name: string;
  isFolder: boolean;
  size: number;
  hash: string | null;
  trashId: string | null;
}

/** The queries of the consistency check (check.service.ts): read-only but for its repairs. */
export class CheckRepo {
  constructor(readonly db: Db) {}

  async users(
    only?: string[],
  ): Promise<Array<{ id: string; username: string; usedBytes: number }>> {
    let q = this.db.selectFrom('user').select(['id', 'username', 'usedBytes']).orderBy('username');
    if (only) q = q.where('id', 'in', only.length > 0 ? only : ['']);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, usedBytes: Number(r.usedBytes) }));
  }

  /** Every file row of one user, the trash included. */
  async rowsOf(userId: string, trx: Db = this.db): Promise<CheckedRow[]> {
    const rows = await trx
      .selectFrom('file')
      .select(['id', 'path', 'name', 'isFolder', 'size', 'hash', 'trashId'])
      .where('userId', '=', userId)
      .execute();
    return rows.map((r) => ({ ...r, isFolder: Boolean(r.isFolder), size: Number(r.size) }));
  }

  async versionsOf(
    userId: string,
    trx: Db = this.db,
  ): Promise<Array<{ id: string; fileId: string; storedSize: number }>> {
    const rows = await trx
      .selectFrom('fileVersion')
      .select(['id', 'fileId', 'storedSize'])
      .where('userId', '=', userId)
      .execute();
    return rows.map((r) => ({ ...r, storedSize: Number(r.storedSize) }));
  }

  /** The crash journal's entries (file_op): each is a change whose commit never happened. */
  unfinished() {
    return this.db
      .selectFrom('fileOp')
      .select(['id', 'userId', 'kind', 'fromPath', 'toPath', 'createdAt'])
      .orderBy('createdAt')
      .execute();
  }

  setFolderSize(id: string, size: number, trx: Db): Promise<unknown> {
    return trx.updateTable('file').set({ size }).where('id', '=', id).execute();
  }

  setUsed(userId: string, usedBytes: number, trx: Db): Promise<unknown> {
    return trx.updateTable('user').set({ usedBytes }).where('id', '=', userId).execute();
  }

  /** The last check run from the web app, as JSON text (one setting). */
  async lastRun(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('setting')
      .select('value')
      .where('key', '=', LAST_RUN_KEY)
      .executeTakeFirst();
    return row?.value;
  }

  async saveRun(value: string): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('setting')
      .values({ key: LAST_RUN_KEY, value, updatedAt: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: now }))
      .execute();
  }

  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }
}
