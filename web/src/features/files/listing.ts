import type { InfiniteData } from '@tanstack/react-query';
import type { FileItem, ListPage } from './types';
import type { SortOrder, SortProp } from '../../lib/view-kinds';

/**
 * Keeping a paged listing true without reloading it. The server pages by index, so an item
 * added or removed inside the loaded range shifts what the next page holds: `shift` tells how
 * many items the next page request must look back to catch the ones that moved across.
 */
export type ListingData = InfiniteData<ListPage, unknown>;

/** All loaded items in order, each id once (an insert can make two pages overlap). */
export function flattenPages(data: ListingData | undefined): FileItem[] {
  if (!data) return [];
  const seen = new Set<string>();
  const out: FileItem[] = [];
  for (const page of data.pages) {
    for (const item of page.items) {
      if (seen.has(item.id)) continue;
      seen.add(item.id);
      out.push(item);
    }
  }
  return out;
}

const heldIds = new WeakMap<ListingData, ReadonlySet<string>>();

/** The ids a listing holds, remembered per (immutable) listing: a quick "is it here?". */
export function idsIn(data: ListingData): ReadonlySet<string> {
  let ids = heldIds.get(data);
  if (!ids) {
    const set = new Set<string>();
    for (const page of data.pages) for (const item of page.items) set.add(item.id);
    heldIds.set(data, set);
    ids = set;
  }
  return ids;
}

/** The listing with `change` applied to every item; the same listing when nothing changes. */
export function mapItems(data: ListingData, change: (item: FileItem) => FileItem): ListingData {
  let changed = false;
  const pages = data.pages.map((page) => {
    let items: FileItem[] | null = null;
    page.items.forEach((item, i) => {
      const next = change(item);
      if (next === item) return;
      items ??= page.items.slice();
      items[i] = next;
    });
    if (!items) return page;
    changed = true;
    return { ...page, items };
  });
  return changed ? { ...data, pages } : data;
}

export function totalOf(data: ListingData | undefined): number {
  const last = data?.pages[data.pages.length - 1];
  return last?.total ?? 0;
}

/** More pages to fetch: the last one asked for ends before `count`. */
export function hasMorePages(data: ListingData | undefined, pageSize: number): boolean {
  const last = data?.pages[data.pages.length - 1];
  return Boolean(last && last.pageIndex * pageSize < last.total);
}

function parseDate(text: string): number {
  // `yyyy-MM-dd HH:mm:ss` sorts as text
  return text ? Date.parse(text.replace(' ', 'T')) || 0 : 0;
}

/** The server's order: folders first, then the sort property, then name, then id. */
export function compareItems(a: FileItem, b: FileItem, prop: SortProp, order: SortOrder): number {
  if (a.isFolder !== b.isFolder) return a.isFolder ? -1 : 1;
  const dir = order === 'descending' ? -1 : 1;
  let c = 0;
  if (prop === 'size') c = a.size - b.size;
  else if (prop === 'updateDate') c = parseDate(a.updateDate) - parseDate(b.updateDate);
  else if (prop === 'uploadDate') c = parseDate(a.uploadDate) - parseDate(b.uploadDate);
  if (c !== 0) return c * dir;
  const byName = a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  if (byName !== 0) return prop === 'name' ? byName * dir : byName;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function withTotal(data: ListingData, delta: number): ListingData {
  return {
    ...data,
    pages: data.pages.map((page) => ({ ...page, total: Math.max(0, page.total + delta) })),
  };
}

export interface PatchResult {
  data: ListingData;
  /** Net items removed inside the loaded range (negative when inserted). */
  shift: number;
  changed: boolean;
}

/**
 * Adds an item where the sort puts it. Past the loaded range it is left for a later page,
 * unless every page is loaded. An item already present is replaced in place.
 */
export function insertItem(
  data: ListingData,
  item: FileItem,
  prop: SortProp,
  order: SortOrder,
  pageSize: number,
): PatchResult {
  if (data.pages.some((page) => page.items.some((i) => i.id === item.id))) {
    return { data: updateItem(data, item.id, item), shift: 0, changed: true };
  }
  const more = hasMorePages(data, pageSize);
  for (let p = 0; p < data.pages.length; p++) {
    const page = data.pages[p]!;
    const at = page.items.findIndex((other) => compareItems(item, other, prop, order) < 0);
    if (at === -1) continue;
    const items = [...page.items.slice(0, at), item, ...page.items.slice(at)];
    const pages = data.pages.map((pg, i) => (i === p ? { ...pg, items } : pg));
    return { data: withTotal({ ...data, pages }, 1), shift: -1, changed: true };
  }
  if (more) return { data: withTotal(data, 1), shift: 0, changed: true };
  const lastIndex = data.pages.length - 1;
  const pages = data.pages.map((pg, i) =>
    i === lastIndex ? { ...pg, items: [...pg.items, item] } : pg,
  );
  if (pages.length === 0) return { data, shift: 0, changed: false };
  return { data: withTotal({ ...data, pages }, 1), shift: -1, changed: true };
}

/** Removes the items matching `match`; the total follows. */
export function removeItems(data: ListingData, match: (item: FileItem) => boolean): PatchResult {
  let removed = 0;
  const pages = data.pages.map((page) => {
    const items = page.items.filter((item) => {
      const hit = match(item);
      if (hit) removed += 1;
      return !hit;
    });
    return items.length === page.items.length ? page : { ...page, items };
  });
  if (removed === 0) return { data, shift: 0, changed: false };
  return { data: withTotal({ ...data, pages }, -removed), shift: removed, changed: true };
}

/** Changes one item in place (a rename, a favorite flag). */
export function updateItem(data: ListingData, id: string, patch: Partial<FileItem>): ListingData {
  let found = false;
  const pages = data.pages.map((page) => {
    const index = page.items.findIndex((item) => item.id === id);
    if (index === -1) return page;
    found = true;
    const items = page.items.slice();
    items[index] = { ...items[index]!, ...patch };
    return { ...page, items };
  });
  return found ? { ...data, pages } : data;
}

/** The pages to ask for so that page `pageIndex` also covers items shifted back by `shift`. */
export function pagesToFetch(pageIndex: number, pageSize: number, shift: number): number[] {
  if (pageIndex <= 1 || shift <= 0) return [pageIndex];
  const firstOffset = Math.max(0, (pageIndex - 1) * pageSize - shift);
  const first = Math.floor(firstOffset / pageSize) + 1;
  const out: number[] = [];
  for (let p = first; p <= pageIndex; p++) out.push(p);
  return out;
}

/**
 * The big pages (of `bulkSize`) that hold every item from offset `start` to `total`: server
 * pages start at multiples of their size, so the first may reach back before `start`.
 */
export function bulkPages(start: number, total: number, bulkSize: number): number[] {
  const out: number[] = [];
  if (start >= total) return out;
  for (let page = Math.floor(start / bulkSize) + 1; (page - 1) * bulkSize < total; page++)
    out.push(page);
  return out;
}

/**
 * The listing with `more` items after those it holds (items it already holds are skipped), in
 * pages of `pageSize` as scrolling would have made them, and no page left to load.
 */
export function appendItems(
  data: ListingData,
  more: readonly FileItem[],
  total: number,
  pageSize: number,
): ListingData {
  const seen = new Set<string>();
  for (const page of data.pages) for (const item of page.items) seen.add(item.id);
  const fresh: FileItem[] = [];
  for (const item of more) {
    if (seen.has(item.id)) continue;
    seen.add(item.id);
    fresh.push(item);
  }
  const pages = data.pages.map((page) => ({ ...page, total }));
  const pageParams = [...data.pageParams];
  let index = pages[pages.length - 1]?.pageIndex ?? 0;
  for (let at = 0; at < fresh.length; at += pageSize) {
    index += 1;
    pages.push({ items: fresh.slice(at, at + pageSize), total, pageIndex: index });
    pageParams.push(index);
  }
  // the last page says the listing is complete (live inserts may have shifted the count)
  const last = pages[pages.length - 1];
  if (last)
    pages[pages.length - 1] = {
      ...last,
      pageIndex: Math.max(last.pageIndex, Math.ceil(total / pageSize)),
    };
  return { pages, pageParams };
}

/** Total bytes of the given items (folders count their size as the server knows it). */
export function sumSizes(items: readonly FileItem[]): number {
  let total = 0;
  for (const item of items) total += item.size || 0;
  return total;
}
