import type { FileRow } from '../files/files.repo.ts';
import type { OpenShare } from '../share/share-access.ts';

/**
 * An item of the tree as WebDAV finds it: the root (no row) or a live row. A row reached
 * through a share the user mounted carries the open share: the row is its owner's, and the
 * mount's own folder (`isRoot`) shows under the mount's name.
 */
export type DavItem =
  | { kind: 'root'; path: '/' }
  | {
      kind: 'row';
      path: string;
      row: FileRow;
      mount?: { id: string; open: OpenShare; isRoot: boolean };
    };

export const isFolderItem = (item: DavItem) => item.kind === 'root' || item.row.isFolder === 1;
