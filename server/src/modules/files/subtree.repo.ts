import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { startsWithPath } from '../../db/path-range.ts';
import type { FileRow } from './files.repo.ts';

/** The queries of everything below a folder: its rows, their totals, and their paths. */
export class SubtreeRepo {
  constructor(private readonly db: Db) {}

  /** Every live row below a folder whose own path+name is `prefix` (`/a/b/`). */
  descendants(userId: string, prefix: string, trx: Db = this.db): Promise<FileRow[]> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(startsWithPath(trx, prefix))
      .execute();
  }

  /**
   * The rows below a folder (`/a/b/`) and the bytes of its files: a folder row's own size is
   * the sum of what is below it, so it is never counted a second time.
   */
  async subtreeTotals(
    userId: string,
    prefix: string,
    trx: Db = this.db,
  ): Promise<{ count: number; bytes: number }> {
    const r = await trx
      .selectFrom('file')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(sql<number>`case when is_folder = 0 then size else 0 end`).as('bytes'),
      ])
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(startsWithPath(trx, prefix))
      .executeTakeFirstOrThrow();
    return { count: Number(r.n), bytes: Number(r.bytes ?? 0) };
  }

  /**
   * The longest path (in bytes, its name included) and the deepest one (in folders) among the
   * rows below a folder: the live ones under `prefix`, or those of one trash entry. One query,
   * whatever the tree holds; zeros when there is nothing below.
   */
  async deepestBelow(
    userId: string,
    below: { prefix: string } | { trashId: string },
    trx: Db = this.db,
  ): Promise<{ bytes: number; depth: number }> {
    let query = trx
      .selectFrom('file')
      .select([
        sql<number | null>`max(octet_length(path) + octet_length(name))`.as('bytes'),
        sql<number | null>`max(length(path) - length(replace(path, '/', '')))`.as('depth'),
      ])
      .where('userId', '=', userId);
    query =
      'prefix' in below
        ? query.where('trashId', 'is', null).where(startsWithPath(trx, below.prefix))
        : query.where('trashId', '=', below.trashId).whereRef('id', '!=', 'trashId');
    const r = await query.executeTakeFirstOrThrow();
    return { bytes: Number(r.bytes ?? 0), depth: Number(r.depth ?? 0) };
  }

  /** Rewrite the path prefix of every live row below a folder: one statement. */
  async rewritePrefix(
    userId: string,
    oldPrefix: string,
    newPrefix: string,
    trx: Db = this.db,
  ): Promise<void> {
    const cut = [...oldPrefix].length + 1;
    await trx
      .updateTable('file')
      .set({ path: sql<string>`${newPrefix} || substr(path, ${cut})` })
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(startsWithPath(trx, oldPrefix))
      .execute();
  }

  /** The user's live folders (id, path, name, size) and files (path, size): the folder-size pass. */
  async liveTree(userId: string) {
    const folders = await this.db
      .selectFrom('file')
      .select(['id', 'path', 'name', 'size'])
      .where('userId', '=', userId)
      .where('isFolder', '=', 1)
      .where('trashId', 'is', null)
      .execute();
    const files = await this.db
      .selectFrom('file')
      .select(['path', 'size'])
      .where('userId', '=', userId)
      .where('isFolder', '=', 0)
      .where('trashId', 'is', null)
      .execute();
    return { folders, files };
  }
}
