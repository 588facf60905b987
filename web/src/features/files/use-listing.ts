import { TRASH_EXPIRY_OPERATION } from '@nimbus/contract';
import { useInfiniteQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { LiveMessage } from '../../api/events';
import { BULK_PAGE_SIZE, fetchListPage, fetchListRange } from './api';
import { folderOfFullPath } from '../../lib/folder-path';
import {
  fileKeys,
  keyOf,
  PAGE_SIZE,
  patchListings,
  recordShift,
  refreshListing,
  takeShift,
} from './listing-cache';
import {
  appendItems,
  bulkPages,
  flattenPages,
  idsIn,
  insertItem,
  mapItems,
  removeItems,
  totalOf,
  type ListingData,
} from './listing';
import { fullPathOf, type FileItem, type ListingKey } from './types';

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

/** Requests in flight while a whole listing loads. */
const LOAD_ALL_PARALLEL = 3;

/**
 * Loads every item of a listing that scrolling has not loaded yet (select all): the rest in
 * big pages, a few requests at a time, added to the cached listing as its own pages. Resolves
 * with every item, in order.
 */
export async function loadAllPages(
  queryClient: QueryClient,
  key: ListingKey,
  options: { signal?: AbortSignal; onProgress?: (loaded: number, total: number) => void } = {},
): Promise<FileItem[]> {
  const queryKey = fileKeys.list(key);
  // a page arriving from scrolling meanwhile would land among ours
  await queryClient.cancelQueries({ queryKey, exact: true });
  const data = queryClient.getQueryData<ListingData>(queryKey);
  if (!data || data.pages.length === 0) return [];
  const last = data.pages[data.pages.length - 1]!;
  let total = last.total;
  // the next item: after the pages held, less what live changes moved across (listing.ts)
  const start = Math.max(0, last.pageIndex * PAGE_SIZE - takeShift(key));
  if (start >= total) return flattenPages(data);
  const indexes = bulkPages(start, total, BULK_PAGE_SIZE);
  const pages = new Map<number, FileItem[]>();
  let loaded = start;
  let next = 0;
  const worker = async () => {
    while (next < indexes.length) {
      const index = indexes[next++]!;
      const page = await fetchListRange(key, index, BULK_PAGE_SIZE, options.signal);
      pages.set(index, page.items);
      total = page.total;
      loaded = Math.min(total, loaded + page.items.length);
      options.onProgress?.(loaded, total);
    }
  };
  await Promise.all(Array.from({ length: LOAD_ALL_PARALLEL }, worker));
  const more = indexes.flatMap((index) => pages.get(index) ?? []);
  const current = queryClient.getQueryData<ListingData>(queryKey) ?? data;
  const complete = appendItems(current, more, total, PAGE_SIZE);
  queryClient.setQueryData(queryKey, complete);
  return flattenPages(complete);
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

type FileBody = Partial<FileItem> & {
  from?: string;
  to?: string;
  code?: number;
  operation?: string;
  success?: boolean;
};

/** What a batch of messages asks for beyond patching listings: each done once. */
interface Effects {
  tree: boolean;
  folderIds: boolean;
  /** Listings to reload (by their query key), and whether even when long. */
  reload: Map<string, { key: ListingKey; force: boolean }>;
  /** Listings that take so many new items at once that they are reloaded instead. */
  flooded: Set<string>;
}

const keyId = (key: ListingKey) => JSON.stringify(fileKeys.list(key));

/** More new items than this for one listing in one batch: it is reloaded, not patched. */
const FLOOD = 100;

/**
 * The listing changes live file messages mean (API-NOTES §2), for a batch of messages at once:
 * a bulk operation sends a message per item, 100,000 for a whole folder. Runs of deletions are
 * one pass over each listing, a listing that receives a flood of new items is reloaded instead
 * of patched item by item, and reloads and tree refreshes happen once per batch.
 */
export function applyFileMessages(queryClient: QueryClient, messages: readonly LiveMessage[]) {
  const effects: Effects = { tree: false, folderIds: false, reload: new Map(), flooded: new Set() };
  const reload = (key: ListingKey, force = false) => {
    const id = keyId(key);
    effects.reload.set(id, { key, force: force || Boolean(effects.reload.get(id)?.force) });
  };
  markFloods(queryClient, messages, effects, reload);
  // runs of deletions, and of move results (sent together when a move ends), go as one
  const batched: Record<string, typeof applyDeletions> = {
    deleteFile: applyDeletions,
    updateFile: applyUpdates,
    operationFile: applyMoves,
  };
  for (let at = 0; at < messages.length;) {
    const type = messages[at]!.url;
    const apply = batched[type];
    if (!apply) {
      applyOne(queryClient, messages[at]!, effects, reload);
      at += 1;
      continue;
    }
    let end = at;
    while (end < messages.length && messages[end]!.url === type) end += 1;
    apply(queryClient, messages.slice(at, end), effects, reload);
    at = end;
  }
  if (effects.tree) void queryClient.invalidateQueries({ queryKey: ['files', 'tree'] });
  if (effects.folderIds)
    queryClient.removeQueries({ queryKey: ['files', 'folder-id'], type: 'inactive' });
  for (const { key, force } of effects.reload.values()) refreshListing(queryClient, key, force);
}

/** One message: see applyFileMessages. */
export function applyFileMessage(queryClient: QueryClient, message: LiveMessage): void {
  applyFileMessages(queryClient, [message]);
}

function markFloods(
  queryClient: QueryClient,
  messages: readonly LiveMessage[],
  effects: Effects,
  reload: (key: ListingKey, force?: boolean) => void,
) {
  const created = messages.filter((m) => m.url === 'createFile').map((m) => m.body as FileItem);
  if (created.length <= FLOOD) return;
  for (const [queryKey] of queryClient.getQueriesData<ListingData>({ queryKey: fileKeys.lists })) {
    const key = keyOf(queryKey);
    if (!key || key.kind === 'trash') continue;
    if (created.filter((item) => item.id && belongsTo(key, item)).length > FLOOD) {
      effects.flooded.add(keyId(key));
      reload(key, true);
    }
  }
}

function applyDeletions(
  queryClient: QueryClient,
  run: readonly LiveMessage[],
  effects: Effects,
  reload: (key: ListingKey) => void,
) {
  // the body is the folder the item left (API-NOTES §2); Nimbus names the item beside it
  const ids = new Set<string>();
  const left = new Set<string>();
  for (const message of run) {
    if (message.fileId) ids.add(message.fileId);
    else if (typeof message.body === 'string') left.add(message.body);
  }
  patchListings(
    queryClient,
    (data, key) => {
      if (key.kind === 'trash') return 'refresh';
      // a server that names only the folder: that folder's listing is asked for again
      if (left.size > 0 && (key.kind !== 'home' || left.has(key.path))) return 'refresh';
      // most often the items went already (this tab removed them): nothing to walk
      if (!holdsAny(data, ids)) return null;
      return removeFrom(data, key, (i) => ids.has(i.id));
    },
    reload,
  );
  effects.tree = true;
}

/**
 * Changed items (a rename, favorites): changed in place in one pass over each listing; those a
 * listing no longer shows leave it, and favorites join the favorites view.
 */
function applyUpdates(
  queryClient: QueryClient,
  run: readonly LiveMessage[],
  effects: Effects,
  reload: (key: ListingKey, force?: boolean) => void,
) {
  const changed = new Map<string, FileItem>();
  for (const message of run) {
    const body = (message.body ?? {}) as FileBody;
    if (!body.id) continue;
    changed.set(body.id, { ...changed.get(body.id), ...body } as FileItem);
  }
  if (changed.size === 0) return;
  patchListings(
    queryClient,
    (data, key) => {
      if (key.kind === 'trash') return null;
      const held = idsIn(data);
      const wanted = (item: FileItem) => item.name !== undefined && belongsTo(key, item);
      const leaving = new Set<string>();
      const joining: FileItem[] = [];
      for (const [id, item] of changed) {
        if (held.has(id)) {
          if (!wanted(item) && (key.kind === 'home' || key.kind === 'favorite')) leaving.add(id);
        } else if (key.kind === 'favorite' && wanted(item)) joining.push(item);
      }
      let next = mapItems(data, (item) => {
        const update = changed.get(item.id);
        return update && !leaving.has(item.id) ? { ...item, ...update } : item;
      });
      if (leaving.size > 0) next = removeFrom(next, key, (item) => leaving.has(item.id));
      if (joining.length > FLOOD) reload(key, true);
      else for (const item of joining) next = insertInto(next, key, item);
      return next;
    },
    reload,
  );
  for (const item of changed.values()) {
    if (item.isFolder) {
      effects.tree = true;
      effects.folderIds = true;
    }
  }
}

/** Successful moves: the items leave their folder; drive-wide views follow their new path. */
function applyMoves(
  queryClient: QueryClient,
  run: readonly LiveMessage[],
  effects: Effects,
  reload: (key: ListingKey) => void,
) {
  const moved = new Map<string, string>();
  const sources = new Set<string>();
  const targets = new Set<string>();
  for (const message of run) {
    const body = (message.body ?? {}) as FileBody;
    if (body.code !== 0 || body.operation !== 'move' || !body.from || !body.to) continue;
    const target = folderOfFullPath(body.to);
    moved.set(body.from, target);
    sources.add(folderOfFullPath(body.from));
    targets.add(target);
  }
  if (moved.size === 0) return;
  patchListings(
    queryClient,
    (data, key) => {
      if (key.kind === 'trash') return null;
      if (key.kind === 'home') {
        if (targets.has(key.path)) return 'refresh';
        if (sources.has(key.path)) return removeFrom(data, key, (i) => moved.has(fullPathOf(i)));
        return null;
      }
      return mapItems(data, (item) => {
        const target = moved.get(fullPathOf(item));
        return target === undefined ? item : { ...item, path: target };
      });
    },
    reload,
  );
  effects.tree = true;
  effects.folderIds = true;
}

function holdsAny(data: ListingData, ids: ReadonlySet<string>): boolean {
  const held = idsIn(data);
  for (const id of ids) if (held.has(id)) return true;
  return false;
}

function applyOne(
  queryClient: QueryClient,
  message: LiveMessage,
  effects: Effects,
  reload: (key: ListingKey, force?: boolean) => void,
): void {
  const body = message.body as FileBody;
  if (!body || typeof body !== 'object') return;
  switch (message.url) {
    case 'createFile': {
      if (!body.id || body.name === undefined) return;
      const item = body as FileItem;
      patchListings(
        queryClient,
        (data, key) => {
          if (key.kind === 'trash') {
            return idsIn(data).has(item.id) ? removeFrom(data, key, (i) => i.id === item.id) : null;
          }
          if (effects.flooded.has(keyId(key))) return null;
          return belongsTo(key, item) ? insertInto(data, key, item) : null;
        },
        reload,
      );
      if (item.isFolder) effects.tree = true;
      return;
    }
    case 'operationTips': {
      // emptied by the owner, or old items gone by the retention setting
      if (body.operation === 'clear-trash' || body.operation === TRASH_EXPIRY_OPERATION) {
        void queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('trash', '') });
      }
      return;
    }
    default:
      return;
  }
}
