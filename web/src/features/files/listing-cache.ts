import type { QueryClient } from '@tanstack/react-query';
import { fileKeys } from '../../api/file-keys';
import { insertItem, removeItems, type ListingData } from './listing';
import type { FileItem, ListingKey } from './types';
import type { FileViewKind, SortOrder, SortProp } from '../../lib/view-kinds';

/**
 * The cached listings of TanStack Query: their keys, and the edits that keep them right after a
 * change without reloading them (page offsets included).
 */

export { fileKeys };

/** Rows per request while scrolling. */
export const PAGE_SIZE = 100;

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

export function keyOf(queryKey: readonly unknown[]): ListingKey | null {
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
export function patchListings(
  queryClient: QueryClient,
  patch: Patch,
  onRefresh: (key: ListingKey) => void = (key) => refreshListing(queryClient, key),
): void {
  for (const [queryKey, data] of queryClient.getQueriesData<ListingData>({
    queryKey: fileKeys.lists,
  })) {
    const key = keyOf(queryKey);
    if (!key || !data) continue;
    const next = patch(data, key);
    if (next === 'refresh') onRefresh(key);
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
  // a listing loaded whole (select all, or scrolled to the end of a huge folder) starts again
  // from its first page rather than asking for hundreds of pages one after another
  if (data && data.pages.length > 50) {
    queryClient.setQueryData<ListingData>(fileKeys.list(key), {
      pages: data.pages.slice(0, 1),
      pageParams: data.pageParams.slice(0, 1),
    });
  }
  void queryClient.invalidateQueries({ queryKey: fileKeys.list(key), exact: true });
}

/** Reloads every sort of one folder or view. */
export function refreshFolder(queryClient: QueryClient, kind: FileViewKind, path: string): void {
  void queryClient.invalidateQueries({ queryKey: fileKeys.listsOf(kind, path) });
}

/** Takes the items that match out of every cached listing. */
export function removeFromListings(queryClient: QueryClient, match: (item: FileItem) => boolean) {
  patchListings(queryClient, (data) => {
    const next = removeItems(data, match);
    return next.changed ? next.data : null;
  });
}

/** Puts an item into the cached listings of its folder, where each one's sort wants it. */
export function insertListed(queryClient: QueryClient, item: FileItem) {
  patchListings(queryClient, (data, key) => {
    if (key.kind !== 'home' || key.path !== item.path) return null;
    const { data: next, shift } = insertItem(data, item, key.sortProp, key.order, PAGE_SIZE);
    recordShift(key, shift);
    return next;
  });
}
