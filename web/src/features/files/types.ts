import type { MountRef } from '@nimbus/contract';
import type { FileViewKind, SortOrder, SortProp } from './view-kinds';

/** A file or folder as `/api/list` answers it (the server's FileView, API-NOTES §1.3). */
export interface FileItem {
  id: string;
  name: string;
  /** The parent folder: `/` or `/a/b/`. */
  path: string;
  isFolder: boolean;
  size: number;
  contentType: string;
  suffix: string;
  /** folder | image | video | audio | document | text | archive | other */
  type: string;
  hash?: string | null;
  uploadDate: string;
  updateDate: string;
  isFavorite: boolean;
  childrenCount: number;
  userId?: string;
  /** Set on items in the trash. */
  trashDate?: string;
  /** Set on a mount listed in its folder: someone's shared folder, browsed through its share. */
  mount?: MountRef;
}

/** One result of a move, copy, rename or restore (`operationFile` body). */
export interface OperationResult {
  operation: string;
  from: string;
  to: string;
  code: number;
  msg: string;
}

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
