import { describe, expect, it } from 'vitest';
import {
  appendItems,
  bulkPages,
  compareItems,
  flattenPages,
  hasMorePages,
  idsIn,
  insertItem,
  mapItems,
  pagesToFetch,
  removeItems,
  sumSizes,
  totalOf,
  updateItem,
  type ListingData,
} from './listing';
import { makeFileItem } from './test-builders';
import type { FileItem } from './types';

const item = makeFileItem;

const listing = (pages: FileItem[][], total: number): ListingData => ({
  pages: pages.map((items, i) => ({ items, total, pageIndex: i + 1 })),
  pageParams: pages.map((_, i) => i + 1),
});

describe('listing order', () => {
  it('puts folders first, then sorts by the property with name as the tie-break', () => {
    const items = [
      item('b.txt', { size: 5 }),
      item('dir', { isFolder: true }),
      item('a.txt', { size: 5 }),
      item('c.txt', { size: 9 }),
    ];
    const bySize = [...items].sort((x, y) => compareItems(x, y, 'size', 'descending'));
    expect(bySize.map((i) => i.name)).toEqual(['dir', 'c.txt', 'a.txt', 'b.txt']);
    const byName = [...items].sort((x, y) => compareItems(x, y, 'name', 'descending'));
    expect(byName.map((i) => i.name)).toEqual(['dir', 'c.txt', 'b.txt', 'a.txt']);
  });
});

describe('paged listing patches', () => {
  it('flattens pages and drops an id seen twice', () => {
    const data = listing(
      [
        [item('a'), item('b')],
        [item('b'), item('c')],
      ],
      3,
    );
    expect(flattenPages(data).map((i) => i.name)).toEqual(['a', 'b', 'c']);
    expect(totalOf(data)).toBe(3);
  });

  it('knows when more pages are left', () => {
    expect(hasMorePages(listing([[item('a'), item('b')]], 3), 2)).toBe(true);
    expect(hasMorePages(listing([[item('a'), item('b')]], 2), 2)).toBe(false);
  });

  it('inserts where the sort puts it and counts it', () => {
    const data = listing([[item('a'), item('c')]], 2);
    const { data: next, shift } = insertItem(data, item('b'), 'name', 'ascending', 100);
    expect(flattenPages(next).map((i) => i.name)).toEqual(['a', 'b', 'c']);
    expect(totalOf(next)).toBe(3);
    expect(shift).toBe(-1);
  });

  it('appends at the end only when every page is loaded', () => {
    const all = listing([[item('a')]], 1);
    expect(
      flattenPages(insertItem(all, item('z'), 'name', 'ascending', 1).data).map((i) => i.name),
    ).toEqual(['a', 'z']);
    const partial = listing([[item('a')]], 5);
    const later = insertItem(partial, item('z'), 'name', 'ascending', 1);
    expect(flattenPages(later.data).map((i) => i.name)).toEqual(['a']);
    expect(totalOf(later.data)).toBe(6);
  });

  it('replaces an item it already holds instead of adding it twice', () => {
    const data = listing([[item('a')]], 1);
    const again = insertItem(data, item('a', { size: 42 }), 'name', 'ascending', 100);
    expect(flattenPages(again.data)).toHaveLength(1);
    expect(flattenPages(again.data)[0]!.size).toBe(42);
    expect(totalOf(again.data)).toBe(1);
  });

  it('removes items and reports the shift', () => {
    const data = listing([[item('a'), item('b')], [item('c')]], 3);
    const { data: next, shift, changed } = removeItems(data, (i) => i.name !== 'c');
    expect(flattenPages(next).map((i) => i.name)).toEqual(['c']);
    expect(totalOf(next)).toBe(1);
    expect(shift).toBe(2);
    expect(changed).toBe(true);
    expect(removeItems(next, () => false).changed).toBe(false);
  });

  it('updates an item in place', () => {
    const data = listing([[item('a'), item('b')]], 2);
    const next = updateItem(data, 'id-b', { name: 'renamed', isFavorite: true });
    expect(flattenPages(next).map((i) => i.name)).toEqual(['a', 'renamed']);
    expect(updateItem(data, 'missing', { name: 'x' })).toBe(data);
  });

  it('looks back far enough after removals inside the loaded range', () => {
    expect(pagesToFetch(1, 100, 5)).toEqual([1]);
    expect(pagesToFetch(3, 100, 0)).toEqual([3]);
    expect(pagesToFetch(3, 100, 1)).toEqual([2, 3]);
    expect(pagesToFetch(3, 100, 150)).toEqual([1, 2, 3]);
  });

  it('sums sizes', () => {
    expect(sumSizes([item('a', { size: 1024 }), item('b', { size: 1024 })])).toBe(2048);
  });
});

describe('select all: the rest of a listing at once', () => {
  const many = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, i) => item(`f${String(from + i).padStart(6, '0')}`));

  it('asks for the big pages that cover what is not loaded yet', () => {
    // 100 loaded of 100,000, pages of 1,000: the first big page reaches back over the loaded
    const pages = bulkPages(100, 100_000, 1000);
    expect(pages[0]).toBe(1);
    expect(pages).toHaveLength(100);
    expect(pages[99]).toBe(100);
    expect(bulkPages(2000, 2500, 1000)).toEqual([3]);
    expect(bulkPages(2500, 2500, 1000)).toEqual([]);
  });

  it('appends the rest as pages of the listing, once each, and leaves nothing to load', () => {
    const data = listing([many(0, 100)], 2_500);
    // the first big page holds the loaded items again
    const complete = appendItems(data, many(0, 2_500), 2_500, 100);
    const items = flattenPages(complete);
    expect(items).toHaveLength(2_500);
    expect(new Set(items.map((i) => i.id)).size).toBe(2_500);
    expect(items[2_499]!.name).toBe('f002499');
    expect(complete.pages).toHaveLength(25);
    expect(complete.pageParams).toEqual(complete.pages.map((p) => p.pageIndex));
    expect(hasMorePages(complete, 100)).toBe(false);
    expect(totalOf(complete)).toBe(2_500);
  });

  it('says the listing is complete when live removals left the pages short', () => {
    // page 1 lost 5 items to the trash meanwhile: the server's count is 5 less
    const data = listing([many(5, 100)], 995);
    const complete = appendItems(data, many(100, 1_000), 995, 100);
    expect(flattenPages(complete)).toHaveLength(995);
    expect(hasMorePages(complete, 100)).toBe(false);
  });

  it('answers "is it here?" without walking the pages again', () => {
    const data = listing([many(0, 3)], 3);
    expect(idsIn(data).has('id-f000001')).toBe(true);
    expect(idsIn(data)).toBe(idsIn(data));
    expect(idsIn(data).has('id-elsewhere')).toBe(false);
  });

  it('changes many items in one pass, and nothing when nothing matches', () => {
    const data = listing([many(0, 2), many(2, 4)], 4);
    const moved = mapItems(data, (i) => (i.name === 'f000003' ? { ...i, path: '/b/' } : i));
    expect(flattenPages(moved).map((i) => i.path)).toEqual(['/', '/', '/', '/b/']);
    expect(moved.pages[0]).toBe(data.pages[0]);
    expect(mapItems(data, (i) => i)).toBe(data);
  });
});
