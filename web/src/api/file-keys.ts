import { normalizeFolderPath } from '../lib/folder-path';
import type { FileViewKind, SortOrder, SortProp } from '../lib/view-kinds';

/** What a listing shows: a folder of the tree, or a drive-wide view. */
export interface ListingKey {
  kind: FileViewKind;
  /** Folder path for the home view (`/` or `/a/b/`); '' for drive-wide views. */
  path: string;
  sortProp: SortProp;
  order: SortOrder;
  /** The tag view: the tag whose files are listed. */
  tagId?: string;
}

/**
 * The query keys of the drive's listings, tree and items: the file browser fills them, and a
 * change made anywhere (a mount placed from a share page) names the ones it makes stale.
 */
export const fileKeys = {
  all: ['files'] as const,
  lists: ['files', 'list'] as const,
  list: (key: ListingKey) =>
    ['files', 'list', key.kind, key.tagId ?? key.path, key.sortProp, key.order] as const,
  /** Every sort of one folder or view. */
  listsOf: (kind: string, path: string) => ['files', 'list', kind, path] as const,
  tree: (parentId: string) => ['files', 'tree', parentId] as const,
  folderId: (path: string) => ['files', 'folder-id', normalizeFolderPath(path)] as const,
  info: (id: string) => ['files', 'info', id] as const,
};
