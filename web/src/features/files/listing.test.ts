import { describe, expect, it } from 'vitest';
import {
  compareItems,
  flattenPages,
  hasMorePages,
  insertItem,
  pagesToFetch,
  removeItems,
  sumSizes,
  totalOf,
  updateItem,
  type ListingData,
} from './listing';
import type { FileItem } from './types';

const item = (name: string, extra: Partial<FileItem> = {}): FileItem => ({
  id: `id-${name}`,
  name,
  path: '/',
  isFolder: false,
  size: 1,
  contentType: 'text/plain',
  suffix: 'txt',
  type: 'text',
  uploadDate: '2025-01-01 10:00:00',
  updateDate: '2025-01-01 10:00:00',
  isFavorite: false,
  childrenCount: 0,
  ...extra,
});

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
