import { useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { LiveMessage } from '../../api/events';
import { fetchListPage, fileKeys, PAGE_SIZE, recordShift } from './api';
import { folderOfFullPath } from './folder-path';
import {
  flattenPages,
  insertItem,
  removeItems,
  totalOf,
  updateItem,
  type ListingData,
} from './listing';
import { fullPathOf, type FileItem, type ListingKey } from './types';
import type { FileViewKind, SortOrder, SortProp } from './view-kinds';

/** One view's items, a page of 100 at a time as the list scrolls (`count` tells the end). */
export function useListing(key: ListingKey, enabled: boolean) {
  const query = useInfiniteQuery({
    queryKey: fileKeys.list(key),
    queryFn: ({ pageParam, signal }) => fetchListPage(key, pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: (last) =>
      last.pageIndex * PAGE_SIZE < last.total ? last.pageIndex + 1 : undefined,
    enabled,
    staleTime: 30_000,
    // pages already held keep their identity; comparing 100,000 items deeply costs frames
    structuralSharing: false,
  });
  const items = useMemo(() => flattenPages(query.data), [query.data]);
  return { query, items, total: totalOf(query.data) };
}

function keyOf(queryKey: readonly unknown[]): ListingKey | null {
  const [, , kind, path, sortProp, order] = queryKey;
  if (typeof kind !== 'string' || typeof path !== 'string') return null;
  return {
    kind: kind as FileViewKind,
    path,
    sortProp: sortProp as SortProp,
    order: order as SortOrder,
  };
}

type Patch = (data: ListingData, key: ListingKey) => ListingData | 'refresh' | null;

/** Applies a change to every cached listing, keeping page offsets right. */
export function patchListings(queryClient: QueryClient, patch: Patch): void {
  for (const [queryKey, data] of queryClient.getQueriesData<ListingData>({
    queryKey: fileKeys.lists,
  })) {
    const key = keyOf(queryKey);
    if (!key || !data) continue;
    const next = patch(data, key);
    if (next === 'refresh') refreshListing(queryClient, key);
    else if (next && next !== data) queryClient.setQueryData(queryKey, next);
  }
}

/**
 * Reloads a listing. A long listing (many pages loaded) is only reloaded when `force` is set,
 * since that refetches every loaded page; live patches keep it right meanwhile.
 */
export function refreshListing(queryClient: QueryClient, key: ListingKey, force = false): void {
  const data = queryClient.getQueryData<ListingData>(fileKeys.list(key));
  if (!force && data && data.pages.length > 10) return;
  void queryClient.invalidateQueries({ queryKey: fileKeys.list(key), exact: true });
}

/** Reloads every sort of one folder or view. */
export function refreshFolder(queryClient: QueryClient, kind: FileViewKind, path: string): void {
  void queryClient.invalidateQueries({ queryKey: fileKeys.listsOf(kind, path) });
}

const TYPE_KINDS = new Set(['document', 'image', 'audio', 'video']);

/** Whether a listing shows this (live) item at all. */
function belongsTo(key: ListingKey, item: FileItem): boolean {
  switch (key.kind) {
    case 'home':
      return item.path === key.path;
    case 'recently':
      return !item.isFolder;
    case 'favorite':
      return item.isFavorite;
    default:
      return TYPE_KINDS.has(key.kind) ? item.type === key.kind : false;
  }
}

function insertInto(data: ListingData, key: ListingKey, item: FileItem): ListingData {
  const { data: next, shift } = insertItem(data, item, key.sortProp, key.order, PAGE_SIZE);
  recordShift(key, shift);
  return next;
}

function removeFrom(data: ListingData, key: ListingKey, match: (item: FileItem) => boolean) {
  const { data: next, shift, changed } = removeItems(data, match);
  if (changed) recordShift(key, shift);
  return next;
}

/** The listing changes a live file message means (API-NOTES §2). */
export function applyFileMessage(queryClient: QueryClient, message: LiveMessage): void {
  const body = message.body as Partial<FileItem> & {
    from?: string;
    to?: string;
    code?: number;
    operation?: string;
    success?: boolean;
  };
  if (!body || typeof body !== 'object') return;
  switch (message.url) {
    case 'createFile': {
      if (!body.id || body.name === undefined) return;
      const item = body as FileItem;
      patchListings(queryClient, (data, key) => {
        if (key.kind === 'trash') return removeFrom(data, key, (i) => i.id === item.id);
        return belongsTo(key, item) ? insertInto(data, key, item) : null;
      });
      if (item.isFolder) void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
      return;
    }
    case 'updateFile': {
      if (!body.id) return;
      const item = body as FileItem;
      patchListings(queryClient, (data, key) => {
        if (key.kind === 'trash') return null;
        const present = data.pages.some((p) => p.items.some((i) => i.id === item.id));
        const wanted = item.name !== undefined && belongsTo(key, item);
        if (present && !wanted && (key.kind === 'home' || key.kind === 'favorite')) {
          return removeFrom(data, key, (i) => i.id === item.id);
        }
        if (present) return updateItem(data, item.id, item);
        return wanted && key.kind === 'favorite' ? insertInto(data, key, item) : null;
      });
      if (item.isFolder) {
        void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
        queryClient.removeQueries({ queryKey: ['files', 'folder-id'], type: 'inactive' });
      }
      return;
    }
    case 'deleteFile': {
      const path = typeof body.path === 'string' ? body.path : '';
      const match = (i: FileItem) => (body.id ? i.id === body.id : fullPathOf(i) === path);
      patchListings(queryClient, (data, key) =>
        key.kind === 'trash' ? 'refresh' : removeFrom(data, key, match),
      );
      void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
      return;
    }
    case 'operationFile': {
      if (body.code !== 0 || body.operation !== 'move' || !body.from || !body.to) return;
      const { from, to } = body;
      const source = folderOfFullPath(from);
      const target = folderOfFullPath(to);
      patchListings(queryClient, (data, key) => {
        if (key.kind === 'trash') return null;
        if (key.kind === 'home') {
          if (key.path === target) return 'refresh';
          if (key.path === source) return removeFrom(data, key, (i) => fullPathOf(i) === from);
          return null;
        }
        const hit = data.pages.flatMap((p) => p.items).find((i) => fullPathOf(i) === from);
        return hit ? updateItem(data, hit.id, { path: target }) : null;
      });
      void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
      queryClient.removeQueries({ queryKey: ['files', 'folder-id'], type: 'inactive' });
      return;
    }
    case 'operationTips': {
      if (body.operation === 'clear-trash') {
        void queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('trash', '') });
      }
      return;
    }
    default:
      return;
  }
}
