import { newId } from '../../lib/ids.ts';
import { typeFactsOf } from './file-types.ts';
import type { FileRow } from './files.repo.ts';

/** What a new row takes from where it comes from; the rest follows from its name and place. */
export interface NewRowFields {
  isFolder: boolean;
  /** A file's bytes; a folder's size is what the folder-size pass sums (0 when new). */
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
