import type { FileItem } from '@nimbus/contract';
import type { FileViewKind, SortOrder, SortProp } from '../../lib/view-kinds';

/** A file or folder as `/api/list` answers it, and one result of a move, copy or restore. */
export type { FileItem, OperationResult } from '@nimbus/contract';

/** A page of a listing. */
export interface ListPage {
  items: FileItem[];
  total: number;
  pageIndex: number;
}

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

export const ROOT_FOLDER_ID = '0';

/** A mount in a folder listing: it opens the mount browser and takes no file operation. */
export const isMount = (item: Pick<FileItem, 'mount'>): boolean => item.mount !== undefined;

/** The full path of an item: `/a/b/c.txt`. */
export const fullPathOf = (item: Pick<FileItem, 'path' | 'name'>): string =>
  `${item.path}${item.name}`;

/** The path of a folder's children: `/a/b/` for the folder `b` in `/a/`. */
export const childPathOf = (item: Pick<FileItem, 'path' | 'name'>): string =>
  `${item.path}${item.name}/`;
