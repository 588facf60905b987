import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { IDS_PER_STATEMENT, slices } from '../../lib/slices.ts';
import { startsWithPath } from '../../db/path-range.ts';
import { foldersAlong, prefixOf, ROOT_ID, type FileRow } from './files.repo.ts';

/** A selection's item leaving or joining a folder: the folder's children path and its bytes. */
/** What names a purged file's cached renditions. */
export type PurgedFile = Pick<
  FileRow,
  'id' | 'hash' | 'size' | 'updateDate' | 'suffix' | 'fileType'
>;

export interface BytesAt {
  /** The path of the item's folder's children (`/a/b/`; `/` for the root). */
  prefix: string;
  bytes: number;
}

/** A trash entry coming back: as `name` in the folder `parent`. */
export interface Restored {
  row: FileRow;
  parent: { id: string; prefix: string };
  name: string;
}

/**
 * The statements of a change of many items at once (a selection): a slice of ids or one path
 * prefix per statement, never one statement per row below a folder. Every one runs in the
 * caller's transaction.
 */
export class SelectionRepo {
  constructor(private readonly db: Db) {}

  /**
   * Put live items in the trash, each under its own id, and the rows below each folder with
   * it: one statement per slice of items, one per folder (its subtree by path prefix).
   */
  async markTrashed(userId: string, roots: FileRow[], at: number, trx: Db): Promise<void> {
    for (const slice of slices(roots.map((r) => r.id)))
      await trx
        .updateTable('file')
        .set({ trashId: sql<string>`id`, trashedAt: at })
        .where('userId', '=', userId)
        .where('trashId', 'is', null)
        .where('id', 'in', slice)
        .execute();
    for (const root of roots.filter((r) => r.isFolder === 1))
      await trx
        .updateTable('file')
        .set({ trashId: root.id, trashedAt: at })
        .where('userId', '=', userId)
        .where('trashId', 'is', null)
        .where(startsWithPath(trx, prefixOf(root)))
        .execute();
  }

  /** The bytes of the files of each trash entry (a folder's files below it), by entry. */
  async entryBytes(userId: string, trashIds: string[], trx: Db): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const slice of slices(trashIds)) {
      const rows = await trx
        .selectFrom('file')
        .select((eb) => ['trashId', eb.fn.sum<number>('size').as('bytes')])
        .where('userId', '=', userId)
        .where('trashId', 'in', slice)
        .where('isFolder', '=', 0)
        .groupBy('trashId')
        .execute();
      for (const r of rows) out.set(r.trashId!, Number(r.bytes ?? 0));
    }
    return out;
  }

  /**
   * Bytes leaving (negative) or joining live folders: each folder above an item carries the
   * sum of its items' bytes, changed by one statement per slice of folders with the same change.
   */
  async addToFolderSizes(userId: string, items: BytesAt[], trx: Db): Promise<void> {
    const deltas = new Map<string, { path: string; name: string; delta: number }>();
    for (const { prefix, bytes } of items) {
      if (bytes === 0) continue;
      for (const folder of foldersAlong(prefix)) {
        const key = `${folder.path}${folder.name}/`;
        const known = deltas.get(key);
        if (known) known.delta += bytes;
        else deltas.set(key, { ...folder, delta: bytes });
      }
    }
    for (const [delta, folders] of byValue([...deltas.values()], (f) => f.delta)) {
      if (delta === 0) continue;
      for (const slice of slices(folders, IDS_PER_STATEMENT / 2))
        await trx
          .updateTable('file')
          .set({ size: sql<number>`size + ${delta}` })
          .where('userId', '=', userId)
          .where('trashId', 'is', null)
          .where('isFolder', '=', 1)
          .where((eb) =>
            eb.or(slice.map((f) => eb.and([eb('path', '=', f.path), eb('name', '=', f.name)]))),
          )
          .execute();
    }
  }

  /** Items left (`sign` -1) or joined (+1) these folders, one per parent id listed. */
  async adjustChildren(parentIds: string[], sign: 1 | -1, trx: Db): Promise<void> {
    const counts = new Map<string, number>();
    for (const id of parentIds) if (id !== ROOT_ID) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const [count, ids] of byValue([...counts.keys()], (id) => counts.get(id)!))
      for (const slice of slices(ids))
        await trx
          .updateTable('file')
          .set({ childrenCount: sql<number>`children_count + ${sign * count}` })
          .where('id', 'in', slice)
          .execute();
  }

  /**
   * Bring trash entries back, each as `name` in the folder `parent` (a folder recreated since
   * has a new id; below a renamed or moved folder the paths follow): one statement per slice of
   * entries, one more for each entry that comes back under another name or path.
   */
  async restoreEntries(userId: string, entries: Restored[], trx: Db): Promise<void> {
    const byParent = new Map<string, string[]>();
    for (const { row, parent } of entries) {
      const ids = byParent.get(parent.id);
      if (ids) ids.push(row.id);
      else byParent.set(parent.id, [row.id]);
    }
    for (const [parentId, ids] of byParent)
      for (const slice of slices(ids))
        await trx.updateTable('file').set({ parentId }).where('id', 'in', slice).execute();
    for (const { row, parent, name } of entries) {
      if (name === row.name && parent.prefix === row.path) continue;
      // while still in the trash: the new name and, below a renamed folder, the new paths
      await trx
        .updateTable('file')
        .set({ name, path: parent.prefix })
        .where('id', '=', row.id)
        .execute();
      if (row.isFolder)
        await trx
          .updateTable('file')
          .set({
            path: sql<string>`${`${parent.prefix}${name}/`} || substr(path, ${[...prefixOf(row)].length + 1})`,
          })
          .where('userId', '=', userId)
          .where('trashId', '=', row.id)
          .where('id', '!=', row.id)
          .execute();
    }
    for (const slice of slices(entries.map((e) => e.row.id)))
      await trx
        .updateTable('file')
        .set({ trashId: null, trashedAt: null })
        .where('userId', '=', userId)
        .where('trashId', 'in', slice)
        .execute();
  }

  /**
   * Live items, none inside another, into the folder `target`: one statement per slice of
   * items, one per folder for the paths below it.
   */
  async moveInto(
    userId: string,
    rows: FileRow[],
    target: { id: string; prefix: string },
    trx: Db,
  ): Promise<void> {
    for (const row of rows.filter((r) => r.isFolder === 1)) {
      const oldPrefix = prefixOf(row);
      await trx
        .updateTable('file')
        .set({
          path: sql<string>`${`${target.prefix}${row.name}/`} || substr(path, ${[...oldPrefix].length + 1})`,
        })
        .where('userId', '=', userId)
        .where('trashId', 'is', null)
        .where(startsWithPath(trx, oldPrefix))
        .execute();
    }
    for (const slice of slices(rows.map((r) => r.id)))
      await trx
        .updateTable('file')
        .set({ parentId: target.id, path: target.prefix })
        .where('id', 'in', slice)
        .execute();
  }

  /** The user's trash entries among `ids` (the items put in the trash, not what went along). */
  async trashRootsAmong(userId: string, ids: string[], trx: Db = this.db): Promise<FileRow[]> {
    const out: FileRow[] = [];
    for (const slice of slices(ids))
      out.push(
        ...(await trx
          .selectFrom('file')
          .selectAll()
          .where('id', 'in', slice)
          .where('userId', '=', userId)
          .whereRef('trashId', '=', 'id')
          .execute()),
      );
    return out;
  }

  /** Delete the rows of some trash entries; answers the bytes of their files, to give back. */
  async deleteEntries(userId: string, trashIds: string[], trx: Db): Promise<number> {
    let bytes = 0;
    for (const entryBytes of (await this.entryBytes(userId, trashIds, trx)).values())
      bytes += entryBytes;
    for (const slice of slices(trashIds))
      await trx
        .deleteFrom('file')
        .where('userId', '=', userId)
        .where('trashId', 'in', slice)
        .execute();
    return bytes;
  }

  /**
   * The files (not folders) of some trash entries whose type is one of `fileTypes`: what names
   * their cached renditions (id, version, suffix).
   */
  async trashedFilesOf(
    userId: string,
    trashIds: string[],
    fileTypes: string[],
    trx: Db,
  ): Promise<PurgedFile[]> {
    const out: PurgedFile[] = [];
    for (const slice of slices(trashIds))
      out.push(
        ...(await trx
          .selectFrom('file')
          .select(['id', 'hash', 'size', 'updateDate', 'suffix', 'fileType'])
          .where('userId', '=', userId)
          .where('trashId', 'in', slice)
          .where('isFolder', '=', 0)
          .where('fileType', 'in', fileTypes)
          .execute()),
      );
    return out;
  }
}

/** Items grouped by a value of theirs (the same change for a whole group: one statement). */
function byValue<T>(items: T[], valueOf: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const value = valueOf(item);
    const group = groups.get(value);
    if (group) group.push(item);
    else groups.set(value, [item]);
  }
  return groups;
}
