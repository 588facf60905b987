import {
  downloadApi,
  filesApi,
  MAX_LIST_PAGE_SIZE,
  type CopyAnswer,
  type QueryIn,
} from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { callEndpoint, callEndpointPage } from '../../api/endpoints';
import { authKeys } from '../../api/account';
import { addFile, useExtractArchive as useExtractArchiveInto } from '../../api/folders';
import { MOUNTS_KEY, removeMount } from '../../api/mounts';
import { removeFromClipboard } from './clipboard';
import { folderAncestry, normalizeFolderPath } from '../../lib/folder-path';
import { insertItem, mapItems, pagesToFetch, removeItems, updateItem } from './listing';
import {
  fileKeys,
  insertListed,
  PAGE_SIZE,
  patchListings,
  recordShift,
  removeFromListings,
  takeShift,
} from './listing-cache';
import {
  childPathOf,
  fullPathOf,
  ROOT_FOLDER_ID,
  type FileItem,
  type ListPage,
  type ListingKey,
  type OperationResult,
} from './types';

export { fileKeys, PAGE_SIZE, recordShift, takeShift } from './listing-cache';

/** Rows per request when a whole listing loads at once (select all): the server's most. */
export const BULK_PAGE_SIZE = MAX_LIST_PAGE_SIZE;

/** The drive-wide views the server lists by `queryFileType` (API-NOTES §1.3). */
const TYPE_VIEWS = new Set(['recently', 'document', 'audio', 'image', 'video', 'trash']);

/** Whether the server can list this view at all (mounts and tags are not there yet). */
export function isListable(kind: ListingKey['kind']): boolean {
  return kind === 'home' || kind === 'favorite' || kind === 'tag' || TYPE_VIEWS.has(kind);
}

type ListQuery = QueryIn<typeof filesApi.list>;

export function listParams(key: ListingKey, pageIndex: number, pageSize = PAGE_SIZE): ListQuery {
  const params: ListQuery = {
    sortableProp: key.sortProp,
    order: key.order,
    pageIndex,
    pageSize,
  };
  if (key.kind === 'home') params.currentDirectory = key.path || '/';
  else if (key.kind === 'favorite') params.isFavorite = true;
  else if (key.kind === 'tag') params.tagId = key.tagId;
  else if (TYPE_VIEWS.has(key.kind)) params.queryFileType = key.kind;
  return params;
}

/** One server page of any size (`pageIndex` counts pages of `pageSize`). */
export function fetchListRange(
  key: ListingKey,
  pageIndex: number,
  pageSize: number,
  signal?: AbortSignal,
) {
  return callEndpointPage(
    filesApi.list,
    { query: listParams(key, pageIndex, pageSize) },
    { signal },
  );
}

export async function fetchListPage(
  key: ListingKey,
  pageIndex: number,
  signal?: AbortSignal,
): Promise<ListPage> {
  const shift = takeShift(key);
  const indexes = pagesToFetch(pageIndex, PAGE_SIZE, shift);
  const pages = await Promise.all(
    indexes.map((index) =>
      callEndpointPage(filesApi.list, { query: listParams(key, index) }, { signal }),
    ),
  );
  return {
    items: pages.flatMap((page) => page.items),
    total: pages[pages.length - 1]?.total ?? 0,
    pageIndex,
  };
}

/** Child folders of a folder ('0' = the root), for trees and path lookups. */
export async function fetchFolderChildren(parentId: string, signal?: AbortSignal) {
  const rows = await callEndpoint(filesApi.folderTree, { query: { fileId: parentId } }, { signal });
  return Array.isArray(rows) ? rows : [];
}

export const treeQuery = (parentId: string) => ({
  queryKey: fileKeys.tree(parentId),
  queryFn: ({ signal }: { signal?: AbortSignal }) => fetchFolderChildren(parentId, signal),
  staleTime: 30_000,
});

/** A folder path's id, walking the tree from the root (cached; '0' for the root). */
export async function resolveFolderId(queryClient: QueryClient, rawPath: string): Promise<string> {
  const path = normalizeFolderPath(rawPath);
  if (path === '/') return ROOT_FOLDER_ID;
  const cached = queryClient.getQueryData<string>(fileKeys.folderId(path));
  if (cached) return cached;
  let parentId = ROOT_FOLDER_ID;
  for (const ancestor of folderAncestry(path)) {
    const known = queryClient.getQueryData<string>(fileKeys.folderId(ancestor));
    if (known) {
      parentId = known;
      continue;
    }
    const name = ancestor.split('/').filter(Boolean).pop();
    const children = await queryClient.fetchQuery(treeQuery(parentId));
    const found = children.find((child) => child.name === name);
    if (!found) {
      throw new ApiError('business', `Folder not found: ${ancestor}`, 13, 200);
    }
    parentId = found.id;
    queryClient.setQueryData(fileKeys.folderId(ancestor), found.id);
  }
  return parentId;
}

/** Remember a folder's id when we already have it (opening a folder by click). */
export function rememberFolderId(queryClient: QueryClient, path: string, id: string): void {
  queryClient.setQueryData(fileKeys.folderId(path), id);
}

export function useFolderId(path: string, enabled: boolean, queryClient: QueryClient) {
  return useQuery({
    queryKey: fileKeys.folderId(path),
    queryFn: () => resolveFolderId(queryClient, path),
    enabled,
    staleTime: 60_000,
    retry: false,
  });
}

// ---- changes ------------------------------------------------------------------------------

export const createFolder = (currentDirectory: string, filename: string) =>
  callEndpoint(filesApi.newFolder, { query: { currentDirectory, filename } }, { silent: true });

export const renameItem = (id: string, newFileName: string) =>
  callEndpoint(filesApi.rename, { query: { id, newFileName } }, { silent: true });

/**
 * Ids per request of a bulk operation. A selection can hold a whole folder (100,000 items); one
 * request would outlast the request timeout, since moving or trashing an item takes the server a
 * few milliseconds. The ids travel in JSON bodies (a query string holds a few hundred).
 */
export const BULK_IDS = 1000;

/** Progress of a bulk operation: items done of all. */
export type OnProgress = (done: number, total: number) => void;

/** Runs `work` on the ids a batch at a time, in order, and collects what each batch answers. */
export async function inBatches<T>(
  ids: readonly string[],
  work: (batch: string[]) => Promise<T>,
  onProgress?: OnProgress,
  size = BULK_IDS,
): Promise<T[]> {
  const out: T[] = [];
  for (let at = 0; at < ids.length; at += size) {
    const batch = ids.slice(at, at + size);
    out.push(await work(batch));
    onProgress?.(Math.min(ids.length, at + size), ids.length);
  }
  return out;
}

const bulkOptions = { timeoutMs: 5 * 60_000 } as const;

export async function checkMoveCopy(froms: string[], to: string): Promise<FileItem[]> {
  const pages = await inBatches(froms, async (batch) => {
    const found = await callEndpoint(filesApi.conflictsOf, { body: { froms: batch, to } });
    return Array.isArray(found) ? found : [];
  });
  return pages.flat();
}

export async function moveItems(
  froms: string[],
  to: string,
  isOverride: boolean,
  onProgress?: OnProgress,
): Promise<OperationResult[]> {
  const pages = await inBatches(
    froms,
    (batch) => callEndpoint(filesApi.move, { body: { froms: batch, to, isOverride } }, bulkOptions),
    onProgress,
  );
  return pages.flatMap((page) => (Array.isArray(page) ? page : []));
}

/** A copy the server runs in the background answers with its task id instead of results. */
export type { CopyAnswer };

export async function copyItems(
  froms: string[],
  to: string,
  isOverride: boolean,
  onProgress?: OnProgress,
): Promise<CopyAnswer> {
  const pages = await inBatches(
    froms,
    (batch) => callEndpoint(filesApi.copy, { body: { froms: batch, to, isOverride } }, bulkOptions),
    onProgress,
  );
  const background = pages.find((page) => !Array.isArray(page) && page && 'taskId' in page);
  if (background) return background;
  return pages.flatMap((page) => (Array.isArray(page) ? page : []));
}

export const duplicateItem = (fileId: string) =>
  callEndpoint(filesApi.duplicate, { query: { fileId } });

export const trashItems = (fileIds: string[], onProgress?: OnProgress) =>
  inBatches(
    fileIds,
    (batch) => callEndpoint(filesApi.remove, { body: { fileIds: batch } }, bulkOptions),
    onProgress,
  );

export const restoreItems = async (fileIds: string[], onProgress?: OnProgress) =>
  (
    await inBatches(
      fileIds,
      (batch) => callEndpoint(filesApi.restore, { body: { fileIds: batch } }, bulkOptions),
      onProgress,
    )
  ).flatMap((page) => (Array.isArray(page) ? page : []));

export const sweepItems = (fileIds: string[], onProgress?: OnProgress) =>
  inBatches(
    fileIds,
    (batch) => callEndpoint(filesApi.sweep, { body: { fileIds: batch } }, bulkOptions),
    onProgress,
  );

export const clearTrash = () => callEndpoint(filesApi.clearTrash);

export const setFavorite = (fileIds: string[], favorite: boolean) =>
  inBatches(fileIds, (batch) =>
    callEndpoint(favorite ? filesApi.favorite : filesApi.unFavorite, { body: { fileIds: batch } }),
  );

export const fileInfo = (id: string, signal?: AbortSignal) =>
  callEndpoint(filesApi.info, { query: { id } }, { signal });

export async function isPackageDownloadAllowed(fileIds: string[]): Promise<boolean> {
  const answer = await callEndpoint(downloadApi.isAllowPackageDownloadOf, { body: { fileIds } });
  return answer?.allowDownload !== false;
}

// ---- mutations: the request, then what it changes in the cache -----------------------------
// Toasts, confirmations and the selection stay with the screen that asks; the listings, the
// folder tree and the used space are kept right here.

/** The folder tree and the used space, after bytes moved or came and went. */
function refreshTreeAndSpace(queryClient: QueryClient): void {
  void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
  void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
}

const refreshTrash = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('trash', '') });

/** A new folder or empty document in a folder; it joins the folder's cached listings. */
export function useCreateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ path, name, isFolder }: { path: string; name: string; isFolder: boolean }) =>
      isFolder ? createFolder(path, name) : addFile(path, name),
    onSuccess: (created) => {
      if (!created?.id) return;
      if (created.isFolder) rememberFolderId(queryClient, childPathOf(created), created.id);
      insertListed(queryClient, created);
    },
  });
}

/** A new name; the item moves to where the name sorts. Resolves with the renamed item. */
export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ item, name }: { item: FileItem; name: string }) => {
      const renamed = await renameItem(item.id, name);
      return renamed?.id ? renamed : { ...item, name };
    },
    onSuccess: (next) => {
      // the new name may sort elsewhere: take it out and put it back where it belongs
      patchListings(queryClient, (data, key) => {
        if (key.kind !== 'home' || key.sortProp !== 'name') return updateItem(data, next.id, next);
        const without = removeItems(data, (i) => i.id === next.id);
        if (!without.changed) return null;
        const placed = insertItem(without.data, next, key.sortProp, key.order, PAGE_SIZE);
        recordShift(key, without.shift + placed.shift);
        return placed.data;
      });
    },
  });
}

interface TransferInput {
  ids: string[];
  /** The target folder: its id, and its path (`/a/b/`). */
  targetId: string;
  targetPath: string;
  override: boolean;
  onProgress?: OnProgress;
}

/** Moves items into a folder; what moved leaves the listings of the folders it left. */
export function useMoveItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, targetId, override, onProgress }: TransferInput) =>
      moveItems(ids, targetId, override, onProgress),
    onSuccess: (results, { targetPath }) => {
      const moved = new Set(results.filter((r) => r.code === 0).map((r) => r.from));
      removeFromListings(
        queryClient,
        (item) => moved.has(fullPathOf(item)) && item.path !== targetPath,
      );
      refreshTreeAndSpace(queryClient);
    },
  });
}

/** Copies items into a folder (a large copy runs as a task and answers its id). */
export function useCopyItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, targetId, override, onProgress }: TransferInput) =>
      copyItems(ids, targetId, override, onProgress),
    onSuccess: () => refreshTreeAndSpace(queryClient),
  });
}

/** Moves items to the trash: out of every listing and off the clipboard. */
export function useTrashItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, onProgress }: { ids: string[]; onProgress?: OnProgress }) =>
      trashItems(ids, onProgress),
    onSuccess: (_, { ids }) => {
      const gone = new Set(ids);
      removeFromListings(queryClient, (item) => gone.has(item.id));
      removeFromClipboard(ids);
      void refreshTrash(queryClient);
    },
  });
}

/**
 * Restores items from the trash (or takes back a move to it); resolves with each item's result.
 * The trash's listings are read again: an item restored elsewhere may have left them.
 */
export function useRestoreItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, onProgress }: { ids: string[]; onProgress?: OnProgress }) =>
      restoreItems(ids, onProgress),
    onSuccess: (_, { ids }) => {
      const done = new Set(ids);
      removeFromListings(queryClient, (item) => done.has(item.id) && Boolean(item.trashDate));
      void refreshTrash(queryClient);
    },
  });
}

/** Deletes items in the trash for good. */
export function useSweepItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, onProgress }: { ids: string[]; onProgress?: OnProgress }) =>
      sweepItems(ids, onProgress),
    onSuccess: (_, { ids }) => {
      const gone = new Set(ids);
      removeFromListings(queryClient, (item) => gone.has(item.id));
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    },
  });
}

/** Empties the trash. */
export function useClearTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: clearTrash,
    onSuccess: () => {
      void refreshTrash(queryClient);
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    },
  });
}

/** Marks items as favourites or not; the favourites view loses the ones unmarked. */
export function useSetFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, favorite }: { ids: string[]; favorite: boolean }) =>
      setFavorite(ids, favorite),
    onSuccess: (_, { ids: list, favorite }) => {
      // one pass over each listing, however many items (select all)
      const ids = new Set(list);
      patchListings(queryClient, (data, key) => {
        if (key.kind === 'favorite' && !favorite) {
          const next = removeItems(data, (i) => ids.has(i.id));
          return next.changed ? next.data : null;
        }
        return mapItems(data, (i) =>
          ids.has(i.id) && i.isFavorite !== favorite ? { ...i, isFavorite: favorite } : i,
        );
      });
    },
  });
}

/** A copy of a file beside it; it joins the folder's cached listings. */
export function useDuplicateItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) => duplicateItem(fileId),
    onSuccess: (copy) => {
      if (copy?.id) insertListed(queryClient, copy);
    },
  });
}

/** Extracts an archive into a new folder beside it. */
export const useExtractArchive = () => useExtractArchiveInto(insertListed);

/** Takes a mount out of the folder it was placed in. */
export function useUnmount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (item: FileItem) => removeMount(item.mount!.mountId),
    onSuccess: (_, item) => {
      removeFromListings(queryClient, (i) => i.id === item.id);
      void queryClient.invalidateQueries({ queryKey: MOUNTS_KEY });
    },
  });
}

export { downloadPackage, fileUrl, startDownload } from '../../api/bytes';
