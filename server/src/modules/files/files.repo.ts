import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import { startsWithPath } from '../../db/path-range.ts';
import type { FileTable } from '../../db/schema.ts';
import { escapeLike } from './names.ts';

export type FileRow = Selectable<FileTable>;
export type NewFileRow = Insertable<FileTable>;

export const ROOT_ID = '0';

/** `/a/b/` for the folder row `b` under `/a/`: the path of its children. */
export const prefixOf = (row: Pick<FileRow, 'path' | 'name'>) => `${row.path}${row.name}/`;

/** The folders whose children have the path `prefix`, and those above it: `/a/b/` gives a, b. */
export function foldersAlong(prefix: string): Array<{ path: string; name: string }> {
  const names = prefix.split('/').filter(Boolean);
  return names.map((name, i) => ({ path: `/${names.slice(0, i).join('/')}${i ? '/' : ''}`, name }));
}

export class FilesRepo {
  constructor(private readonly db: Db) {}

  /** The user's live rows (not in the trash): where most queries start. */
  private liveRows(userId: string, trx: Db = this.db) {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is', null);
  }

  byId(userId: string, id: string, trx: Db = this.db): Promise<FileRow | undefined> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
  }

  live(userId: string, id: string, trx: Db = this.db): Promise<FileRow | undefined> {
    return this.liveRows(userId, trx).where('id', '=', id).executeTakeFirst();
  }

  /**
   * The user's live rows among `ids`. Read by primary key alone, a slice at a time: with the
   * user in the query a database may walk the user's whole index instead, and a selection of a
   * whole folder can hold 100,000 ids (more than a statement may bind).
   */
  /**
   * The rows among `ids` that still exist, live or in the trash, whoever owns them: for the
   * cache sweep, which knows files only by the ids in its entries' keys.
   */
  async existing(ids: string[]): Promise<FileRow[]> {
    const out: FileRow[] = [];
    for (let i = 0; i < ids.length; i += 1000)
      out.push(
        ...(await this.db
          .selectFrom('file')
          .selectAll()
          .where('id', 'in', ids.slice(i, i + 1000))
          .execute()),
      );
    return out;
  }

  async liveMany(userId: string, ids: string[], trx: Db = this.db): Promise<FileRow[]> {
    const out: FileRow[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await trx
        .selectFrom('file')
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
      for (const row of rows) if (row.userId === userId && row.trashId === null) out.push(row);
    }
    return out;
  }

  /** A live file of the user with this content hash and size (an instant upload copies it). */
  liveWithContent(userId: string, hash: string, size: number): Promise<FileRow | undefined> {
    return this.liveRows(userId)
      .where('hash', '=', hash)
      .where('size', '=', size)
      .where('isFolder', '=', 0)
      .executeTakeFirst();
  }

  /** The live item at `/a/b` given as its parent path `/a/` and name `b`. */
  liveAt(userId: string, parentPath: string, name: string): Promise<FileRow | undefined> {
    return this.liveRows(userId)
      .where('path', '=', parentPath)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** The live rows directly in a folder. */
  liveChildren(userId: string, parentId: string): Promise<FileRow[]> {
    return this.liveRows(userId).where('parentId', '=', parentId).execute();
  }

  /** The live folder at `/a/b` given as its parent path `/a/` and name `b`. */
  folderAt(
    userId: string,
    parentPath: string,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow | undefined> {
    return this.liveRows(userId, trx)
      .where('path', '=', parentPath)
      .where('name', '=', name)
      .where('isFolder', '=', 1)
      .executeTakeFirst();
  }

  childNamed(
    userId: string,
    parentId: string,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow | undefined> {
    return this.liveRows(userId, trx)
      .where('parentId', '=', parentId)
      .where('name', '=', name)
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
    // a mounted share placed in the folder holds its name too
    const mounts = await trx
      .selectFrom('mount')
      .select('name')
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .execute();
    return new Set([...rows, ...mounts].map((r) => r.name));
  }

  /** Whether a share the user mounted sits in this folder under this name. */
  async mountNamed(userId: string, parentId: string, name: string, trx: Db = this.db) {
    const found = await trx
      .selectFrom('mount')
      .select('id')
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .where('name', '=', name)
      .executeTakeFirst();
    return found !== undefined;
  }

  async adjustChildren(parentId: string, delta: number, trx: Db = this.db): Promise<void> {
    if (parentId === ROOT_ID || delta === 0) return;
    await trx
      .updateTable('file')
      .set({ childrenCount: sql<number>`children_count + ${delta}` })
      .where('id', '=', parentId)
      .execute();
  }

  /**
   * Bytes added (or, negative, taken away) in the live folder whose children have the path
   * `prefix` (`/a/b/`): that folder and every folder above it carry them in their size. One
   * statement, whatever the depth; the root (`/`) has no row.
   */
  async addToFolderSizes(
    userId: string,
    prefix: string,
    delta: number,
    trx: Db = this.db,
  ): Promise<void> {
    const folders = foldersAlong(prefix);
    if (delta === 0 || folders.length === 0) return;
    await trx
      .updateTable('file')
      .set({ size: sql<number>`size + ${delta}` })
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where('isFolder', '=', 1)
      .where((eb) =>
        eb.or(folders.map((f) => eb.and([eb('path', '=', f.path), eb('name', '=', f.name)]))),
      )
      .execute();
  }

  /** Set the sizes of some folders (the folder-size pass), in one transaction. */
  async setFolderSizes(sizes: Array<{ id: string; size: number }>, trx: Db): Promise<void> {
    for (const { id, size } of sizes)
      await trx.updateTable('file').set({ size }).where('id', '=', id).execute();
  }

  async adjustUsed(userId: string, delta: number, trx: Db = this.db): Promise<void> {
    if (delta === 0) return;
    await trx
      .updateTable('user')
      .set({ usedBytes: sql<number>`used_bytes + ${delta}` })
      .where('id', '=', userId)
      .execute();
  }

  /**
   * Set some keys of a row's `media` facts (one key per module: image, music, video…), keeping
   * the others; answers the facts as stored, or undefined when the row is gone.
   */
  async setMediaKeys(
    userId: string,
    id: string,
    values: Record<string, unknown>,
  ): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('file')
        .select('media')
        .where('id', '=', id)
        .where('userId', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const media = { ...parseMedia(row.media), ...values };
      const text = JSON.stringify(media);
      await trx.updateTable('file').set({ media: text }).where('id', '=', id).execute();
      return text;
    });
  }

  /** Change some fields of one row. */
  async update(id: string, changes: Updateable<FileTable>, trx: Db = this.db): Promise<void> {
    await trx.updateTable('file').set(changes).where('id', '=', id).execute();
  }

  async setFavorite(userId: string, ids: string[], favorite: boolean): Promise<void> {
    for (let i = 0; i < ids.length; i += 1000)
      await this.db
        .updateTable('file')
        .set({ isFavorite: favorite ? 1 : 0 })
        .where('userId', '=', userId)
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
  }

  /** The items the user put in the trash (not the rows that went with them). */
  trashRoots(userId: string): Promise<FileRow[]> {
    return this.db
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is not', null)
      .whereRef('trashId', '=', 'id')
      .execute();
  }

  /** A user's trash entries put there before `before` (epoch ms), oldest first, `limit` of them. */
  trashRootsBefore(userId: string, before: number, limit: number): Promise<FileRow[]> {
    return this.db
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is not', null)
      .whereRef('trashId', '=', 'id')
      .where('trashedAt', '<', before)
      .orderBy('trashedAt')
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Delete a live row and, for a folder, every live row below it. */
  async deleteLive(userId: string, row: FileRow, trx: Db): Promise<void> {
    if (row.isFolder)
      await trx
        .deleteFrom('file')
        .where('userId', '=', userId)
        .where('trashId', 'is', null)
        .where(startsWithPath(trx, prefixOf(row)))
        .execute();
    await trx.deleteFrom('file').where('id', '=', row.id).execute();
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

/** A row's `media` facts as an object; damaged or missing facts read as none. */
export function parseMedia(media: string | null): Record<string, unknown> {
  if (!media) return {};
  try {
    const parsed: unknown = JSON.parse(media);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
