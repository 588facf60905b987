import { MAX_LIST_PAGE_SIZE, TOKEN_HEADER } from '@nimbus/contract';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { api, ApiError, request, requestPage } from '../../api/client';
import type { QueryParams } from '../../api/query-string';
import { toQueryString } from '../../api/query-string';
import { useSessionStore } from '../../stores/session';
import { folderAncestry, normalizeFolderPath } from './folder-path';
import { pagesToFetch } from './listing';
import {
  ROOT_FOLDER_ID,
  type FileItem,
  type ListPage,
  type ListingKey,
  type OperationResult,
} from './types';

/** Rows per request while scrolling. */
export const PAGE_SIZE = 100;

/** Rows per request when a whole listing loads at once (select all): the server's most. */
export const BULK_PAGE_SIZE = MAX_LIST_PAGE_SIZE;

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

/** The drive-wide views the server lists by `queryFileType` (API-NOTES §1.3). */
const TYPE_VIEWS = new Set(['recently', 'document', 'audio', 'image', 'video', 'trash']);

/** Whether the server can list this view at all (mounts and tags are not there yet). */
export function isListable(kind: ListingKey['kind']): boolean {
  return kind === 'home' || kind === 'favorite' || kind === 'tag' || TYPE_VIEWS.has(kind);
}

export function listParams(key: ListingKey, pageIndex: number, pageSize = PAGE_SIZE): QueryParams {
  const params: QueryParams = {
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

/**
 * Items added or removed inside a listing's loaded range since its last page request, so the
 * next page also covers what slid across the page boundary (see listing.ts).
 */
const shifts = new Map<string, number>();
const shiftKey = (key: ListingKey) => JSON.stringify(fileKeys.list(key));

export function recordShift(key: ListingKey, delta: number): void {
  if (delta === 0) return;
  shifts.set(shiftKey(key), (shifts.get(shiftKey(key)) ?? 0) + delta);
}

/** Takes (and forgets) the shift recorded for a listing since its last page request. */
export function takeShift(key: ListingKey): number {
  const id = shiftKey(key);
  const shift = shifts.get(id) ?? 0;
  shifts.delete(id);
  return shift;
}

/** One server page of any size (`pageIndex` counts pages of `pageSize`). */
export function fetchListRange(
  key: ListingKey,
  pageIndex: number,
  pageSize: number,
  signal?: AbortSignal,
) {
  return requestPage<FileItem>('/list', listParams(key, pageIndex, pageSize), { signal });
}

export async function fetchListPage(
  key: ListingKey,
  pageIndex: number,
  signal?: AbortSignal,
): Promise<ListPage> {
  const shift = takeShift(key);
  const indexes = pagesToFetch(pageIndex, PAGE_SIZE, shift);
  const pages = await Promise.all(
    indexes.map((index) => requestPage<FileItem>('/list', listParams(key, index), { signal })),
  );
  return {
    items: pages.flatMap((page) => page.items),
    total: pages[pages.length - 1]?.total ?? 0,
    pageIndex,
  };
}

/** Child folders of a folder ('0' = the root), for trees and path lookups. */
export async function fetchFolderChildren(parentId: string, signal?: AbortSignal) {
  const rows = await api.get<FileItem[]>('/query-file-tree', { fileId: parentId }, { signal });
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
  api.post<FileItem>(`/new_folder${toQueryString({ currentDirectory, filename })}`, undefined, {
    silent: true,
  });

export const addFile = (parentPath: string, fileName: string) =>
  api.post<FileItem>(`/addfile${toQueryString({ parentPath, fileName })}`, undefined, {
    silent: true,
  });

export const renameItem = (id: string, newFileName: string) =>
  api.get<FileItem>('/rename', { id, newFileName }, { silent: true });

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

const bulkOptions = { successToast: false, timeoutMs: 5 * 60_000 } as const;

export async function checkMoveCopy(froms: string[], to: string): Promise<FileItem[]> {
  const pages = await inBatches(froms, async (batch) => {
    const envelope = await request<FileItem[]>('/check-move-copy', {
      method: 'POST',
      body: { froms: batch, to },
    });
    return Array.isArray(envelope.data) ? envelope.data : [];
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
    (batch) => api.post<OperationResult[]>('/move', { froms: batch, to, isOverride }, bulkOptions),
    onProgress,
  );
  return pages.flatMap((page) => (Array.isArray(page) ? page : []));
}

/** A copy the server runs in the background answers with its task id instead of results. */
export type CopyAnswer = OperationResult[] | { taskId: string };

export async function copyItems(
  froms: string[],
  to: string,
  isOverride: boolean,
  onProgress?: OnProgress,
): Promise<CopyAnswer> {
  const pages = await inBatches(
    froms,
    (batch) => api.post<CopyAnswer>('/copy', { froms: batch, to, isOverride }, bulkOptions),
    onProgress,
  );
  const background = pages.find((page) => !Array.isArray(page) && page && 'taskId' in page);
  if (background) return background;
  return pages.flatMap((page) => (Array.isArray(page) ? page : []));
}

export const duplicateItem = (fileId: string) => api.get<FileItem>('/duplicate', { fileId });

export const trashItems = (fileIds: string[], onProgress?: OnProgress) =>
  inBatches(
    fileIds,
    (batch) => api.delete<void>('/delete', undefined, { ...bulkOptions, body: { fileIds: batch } }),
    onProgress,
  );

export const restoreItems = async (fileIds: string[], onProgress?: OnProgress) =>
  (
    await inBatches(
      fileIds,
      (batch) => api.post<OperationResult[]>('/restore', { fileIds: batch }, bulkOptions),
      onProgress,
    )
  ).flatMap((page) => (Array.isArray(page) ? page : []));

export const sweepItems = (fileIds: string[], onProgress?: OnProgress) =>
  inBatches(
    fileIds,
    (batch) => api.delete<void>('/sweep', undefined, { ...bulkOptions, body: { fileIds: batch } }),
    onProgress,
  );

export const clearTrash = () =>
  api.delete<void>('/clear-trash', undefined, { successToast: false });

export const extractArchive = (fileId: string) =>
  api.get<FileItem>('/unzip', { fileId }, { successToast: false, timeoutMs: 10 * 60_000 });

export const setFavorite = (fileIds: string[], favorite: boolean) =>
  inBatches(fileIds, (batch) =>
    api.post<void>(`/${favorite ? 'favorite' : 'unFavorite'}`, { fileIds: batch }),
  );

export const fileInfo = (id: string, signal?: AbortSignal) =>
  api.get<FileItem>('/file_info', { id }, { signal });

export async function isPackageDownloadAllowed(fileIds: string[]): Promise<boolean> {
  const answer = await api.post<{ allowDownload?: boolean }>('/isAllowPackageDownload', {
    fileIds,
  });
  return answer?.allowDownload !== false;
}

// ---- addresses of bytes ---------------------------------------------------------------------

function tokenQuery(): Record<string, string> {
  const token = useSessionStore.getState().token;
  return token ? { [TOKEN_HEADER]: token } : {};
}

/**
 * The bytes of a file by id. The token rides in the query so that plain links, `<img>` and
 * downloads work (the server honours it for GET only).
 */
export function fileUrl(item: Pick<FileItem, 'id' | 'name'>, download = false): string {
  return `/api/pre-file/${encodeURIComponent(item.id)}/${encodeURIComponent(item.name)}${toQueryString(
    {
      ...(download ? { o: 'download' } : {}),
      ...tokenQuery(),
    },
  )}`;
}

/**
 * Downloads a zip of several items or a folder. The ids are posted as a form, since a long
 * selection does not fit a link; the browser saves the answer (into a hidden frame, so an
 * error page never replaces the app).
 */
export function downloadPackage(fileIds: string[]): void {
  const frameName = 'nb-download-frame';
  if (!document.querySelector(`iframe[name="${frameName}"]`)) {
    const frame = document.createElement('iframe');
    frame.name = frameName;
    frame.hidden = true;
    frame.title = 'download';
    document.body.appendChild(frame);
  }
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = '/api/packageDownload';
  form.target = frameName;
  form.hidden = true;
  const fields: Record<string, string> = {
    fileIds: fileIds.join(','),
    [TOKEN_HEADER]: useSessionStore.getState().token,
  };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.appendChild(input);
  }
  document.body.appendChild(form);
  form.submit();
  form.remove();
}

/** Starts a download in the browser without leaving the page. */
export function startDownload(url: string, name = ''): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/** The first `maxBytes` of a file as text (a Range request), and whether there is more. */
export async function fetchTextHead(
  item: Pick<FileItem, 'id' | 'name' | 'size'>,
  maxBytes: number,
  signal?: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  const headers = new Headers();
  const token = useSessionStore.getState().token;
  if (token) headers.set(TOKEN_HEADER, token);
  if (item.size > maxBytes) headers.set('Range', `bytes=0-${maxBytes - 1}`);
  const response = await fetch(
    `/api/pre-file/${encodeURIComponent(item.id)}/${encodeURIComponent(item.name)}`,
    { headers, signal, credentials: 'same-origin' },
  );
  if (!response.ok && response.status !== 206) {
    throw new ApiError('transport', `HTTP ${response.status}`, -1000, response.status);
  }
  const buffer = await response.arrayBuffer();
  const bytes = new Uint8Array(buffer.byteLength > maxBytes ? buffer.slice(0, maxBytes) : buffer);
  const truncated = item.size > maxBytes || buffer.byteLength > maxBytes;
  // `stream: true` keeps a character cut at the end from turning into a replacement mark
  const text = new TextDecoder('utf-8').decode(bytes, { stream: truncated });
  return { text, truncated };
}
