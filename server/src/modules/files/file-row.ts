import { newId } from '../../lib/ids.ts';
import { typeFactsOf } from './file-types.ts';
import type { FileRow } from './files.repo.ts';

/** What a new row takes from where it comes from; the rest follows from its name and place. */
export interface NewRowFields {
  isFolder: boolean;
  /** A file's bytes; a folder's size is the sum of the files below it (0 when new). */
  size?: number;
  hash?: string | null;
  /** The bytes' own date (a copy's or a file found on disk); now when absent. */
  updateDate?: number;
  childrenCount?: number;
  media?: string | null;
  /** An id chosen beforehand (an extraction's folder, a copied tree's ids). */
  id?: string;
}

/**
 * The one way to build a new row of the `file` table: a new folder or file, an upload, a copy,
 * an extraction or an entry the index rebuild found. Its type, content type and suffix follow
 * from its name; it is live, not a favourite, uploaded now.
 */
export function newFileRow(
  owner: { id: string },
  parent: { id: string; prefix: string },
  name: string,
  fields: NewRowFields,
): FileRow {
  const now = Date.now();
  return {
    id: fields.id ?? newId(),
    userId: owner.id,
    parentId: parent.id,
    name,
    path: parent.prefix,
    isFolder: fields.isFolder ? 1 : 0,
    size: fields.size ?? 0,
    ...typeFactsOf(name, fields.isFolder),
    hash: fields.hash ?? null,
    uploadDate: now,
    updateDate: fields.updateDate ?? now,
    isFavorite: 0,
    media: fields.media ?? null,
    childrenCount: fields.childrenCount ?? 0,
    trashId: null,
    trashedAt: null,
  };
}

/**
 * What each folder holds: for every folder (given by the path its children have, `/a/b/`), the
 * bytes of the files below it at any depth. One pass over the files, each added to its
 * ancestors among `prefixes`.
 */
export function folderSums(
  prefixes: Iterable<string>,
  files: Iterable<{ path: string; size: number }>,
): Map<string, number> {
  const sums = new Map<string, number>();
  for (const p of prefixes) sums.set(p, 0);
  for (const f of files) {
    let p = f.path;
    while (p !== '/' && p.length > 0) {
      const sum = sums.get(p);
      if (sum !== undefined) sums.set(p, sum + Number(f.size));
      p = p.slice(0, p.slice(0, -1).lastIndexOf('/') + 1);
    }
  }
  return sums;
}

/** New rows of a tree (a copy, an extraction): each folder among them takes its files' bytes. */
export function withFolderSizes<T extends Pick<FileRow, 'path' | 'name' | 'isFolder' | 'size'>>(
  rows: T[],
): T[] {
  const sums = folderSums(
    rows.filter((r) => r.isFolder).map((r) => `${r.path}${r.name}/`),
    rows.filter((r) => !r.isFolder),
  );
  return rows.map((r) => (r.isFolder ? { ...r, size: sums.get(`${r.path}${r.name}/`) ?? 0 } : r));
}
