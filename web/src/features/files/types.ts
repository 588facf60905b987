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

export { childPathOf, fullPathOf, isMount } from '../../lib/folder-path';
