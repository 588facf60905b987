import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { FileTable } from '../../db/schema.ts';
import { escapeLike } from './names.ts';

export type FileRow = Selectable<FileTable>;
export type NewFileRow = Insertable<FileTable>;

export const ROOT_ID = '0';

export type SortProp = 'name' | 'size' | 'updateDate' | 'uploadDate';
export type SortOrder = 'ascending' | 'descending';

export interface ListQuery {
  userId: string;
  /** A folder id, or a drive-wide view. */
  parentId?: string;
  fileType?: string;
  favorite?: boolean;
  tagId?: string;
  trash?: boolean;
  foldersOnly?: boolean;
  filesOnly?: boolean;
  /** The folder's own count of live children, kept up to date: saves counting the files. */
  knownTotal?: number;
  sortProp: SortProp;
  order: SortOrder;
  offset: number;
  limit: number;
}

const sortColumns = {
  name: 'name',
  size: 'size',
  updateDate: 'updateDate',
  uploadDate: 'uploadDate',
} as const;

/** `substr(path, 1, n) = prefix`: every row below a folder, counted in characters. */
export const underPrefix = (prefix: string) =>
  sql<boolean>`substr(path, 1, ${[...prefix].length}) = ${prefix}`;

export class FilesRepo {
  constructor(private readonly db: Db) {}

  byId(userId: string, id: string, trx: Db = this.db): Promise<FileRow | undefined> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
  }

  live(userId: string, id: string, trx: Db = this.db): Promise<FileRow | undefined> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .executeTakeFirst();
  }

  liveMany(userId: string, ids: string[], trx: Db = this.db): Promise<FileRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return trx
      .selectFrom('file')
      .selectAll()
      .where('id', 'in', ids)
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .execute();
  }

  /** The live folder at `/a/b` given as its parent path `/a/` and name `b`. */
  folderAt(
    userId: string,
    parentPath: string,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow | undefined> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('path', '=', parentPath)
      .where('name', '=', name)
      .where('isFolder', '=', 1)
      .where('trashId', 'is', null)
      .executeTakeFirst();
  }

  childNamed(
    userId: string,
    parentId: string,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow | undefined> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .where('name', '=', name)
      .where('trashId', 'is', null)
      .executeTakeFirst();
  }

  async childNames(userId: string, parentId: string, trx: Db = this.db): Promise<Set<string>> {
    const rows = await trx
      .selectFrom('file')
      .select('name')
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .where('trashId', 'is', null)
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  async list(q: ListQuery): Promise<{ rows: FileRow[]; total: number }> {
    let base = this.db.selectFrom('file').where('userId', '=', q.userId);
    if (q.trash) base = base.where('trashId', 'is not', null).whereRef('trashId', '=', 'id');
    else base = base.where('trashId', 'is', null);
    if (q.parentId !== undefined) base = base.where('parentId', '=', q.parentId);
    if (q.fileType) base = base.where('fileType', '=', q.fileType);
    if (q.favorite) base = base.where('isFavorite', '=', 1);
    if (q.tagId)
      base = base.where('id', 'in', (eb) =>
        eb.selectFrom('fileTag').select('fileId').where('tagId', '=', q.tagId!),
      );
    if (q.foldersOnly) base = base.where('isFolder', '=', 1);
    const direction = q.order === 'descending' ? 'desc' : 'asc';
    const column = sortColumns[q.sortProp];
    const count = (query: typeof base) =>
      query
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const page = (query: typeof base, offset: number, limit: number) => {
      let ordered = query.selectAll().orderBy(column, direction);
      if (q.sortProp !== 'name') ordered = ordered.orderBy('name', 'asc');
      return ordered.offset(offset).limit(limit).execute();
    };
    // folders first: each half is read in index order, whatever the sort
    const folders = base.where('isFolder', '=', 1);
    const filesOnly = base.where('isFolder', '=', 0);
    const folderCount = q.filesOnly ? 0 : await count(folders);
    const total = q.foldersOnly
      ? folderCount
      : q.knownTotal !== undefined && !q.filesOnly && q.knownTotal >= folderCount
        ? q.knownTotal
        : folderCount + (await count(filesOnly));
    const rows: FileRow[] = [];
    if (q.offset < folderCount) rows.push(...(await page(folders, q.offset, q.limit)));
    const remaining = q.limit - rows.length;
    if (remaining > 0 && !q.foldersOnly)
      rows.push(...(await page(filesOnly, Math.max(0, q.offset - folderCount), remaining)));
    return { rows, total };
  }

  /** Every live row below a folder whose own path+name is `prefix` (`/a/b/`). */
  descendants(userId: string, prefix: string, trx: Db = this.db): Promise<FileRow[]> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(underPrefix(prefix))
      .execute();
  }

  async subtreeTotals(
    userId: string,
    prefix: string,
    trx: Db = this.db,
  ): Promise<{ count: number; bytes: number }> {
    const r = await trx
      .selectFrom('file')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(underPrefix(prefix))
      .executeTakeFirstOrThrow();
    return { count: Number(r.n), bytes: Number(r.bytes ?? 0) };
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
      .where(underPrefix(oldPrefix))
      .execute();
  }

  async adjustChildren(parentId: string, delta: number, trx: Db = this.db): Promise<void> {
    if (parentId === ROOT_ID || delta === 0) return;
    await trx
      .updateTable('file')
      .set({ childrenCount: sql<number>`children_count + ${delta}` })
      .where('id', '=', parentId)
      .execute();
  }

  async adjustUsed(userId: string, delta: number, trx: Db = this.db): Promise<void> {
    if (delta === 0) return;
    await trx
      .updateTable('user')
      .set({ usedBytes: sql<number>`used_bytes + ${delta}` })
      .where('id', '=', userId)
      .execute();
  }

  async insertMany(rows: NewFileRow[], trx: Db = this.db): Promise<void> {
    // stay under SQLite's bound-parameter limit
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('file')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  likeName(text: string) {
    return `%${escapeLike(text)}%`;
  }
}
