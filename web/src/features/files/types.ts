import type { FileItem } from '@nimbus/contract';

/** A file or folder as `/api/list` answers it, and one result of a move, copy or restore. */
export type { FileItem, OperationResult } from '@nimbus/contract';

/** A page of a listing. */
export interface ListPage {
  items: FileItem[];
  total: number;
  pageIndex: number;
}

export type { ListingKey } from '../../api/file-keys';

export const ROOT_FOLDER_ID = '0';

/** A mount in a folder listing: it opens the mount browser and takes no file operation. */
export const isMount = (item: Pick<FileItem, 'mount'>): boolean => item.mount !== undefined;

/** The full path of an item: `/a/b/c.txt`. */
export const fullPathOf = (item: Pick<FileItem, 'path' | 'name'>): string =>
  `${item.path}${item.name}`;

/** The path of a folder's children: `/a/b/` for the folder `b` in `/a/`. */
export const childPathOf = (item: Pick<FileItem, 'path' | 'name'>): string =>
  `${item.path}${item.name}/`;
