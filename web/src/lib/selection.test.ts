import { describe, expect, it } from 'vitest';
import {
  EMPTY_SELECTION,
  clickSelection,
  indexesInRect,
  normalizeRect,
  stepSelection,
  type ItemLayout,
} from './selection';
import type { FileItem } from '@nimbus/contract';

const order = ['a', 'b', 'c', 'd', 'e'];
const none = { toggle: false, range: false };
const ids = (s: { ids: ReadonlySet<string> }) => [...s.ids].sort();

describe('click selection', () => {
  it('a plain click selects one item and sets the anchor', () => {
    const s = clickSelection({ ids: new Set(['a', 'b']), anchor: 'a' }, order, 'c', none);
    expect(ids(s)).toEqual(['c']);
    expect(s.anchor).toBe('c');
  });

  it('Ctrl/⌘-click adds and removes one item', () => {
    let s = clickSelection(EMPTY_SELECTION, order, 'b', none);
    s = clickSelection(s, order, 'd', { toggle: true, range: false });
    expect(ids(s)).toEqual(['b', 'd']);
    s = clickSelection(s, order, 'b', { toggle: true, range: false });
    expect(ids(s)).toEqual(['d']);
  });

  it('Shift-click selects the range from the anchor, either way', () => {
    let s = clickSelection(EMPTY_SELECTION, order, 'b', none);
    s = clickSelection(s, order, 'd', { toggle: false, range: true });
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    expect(s.anchor).toBe('b');
    s = clickSelection(s, order, 'a', { toggle: false, range: true });
    expect(ids(s)).toEqual(['a', 'b']);
  });

  it('Ctrl+Shift-click adds a range to what is selected', () => {
    let s = clickSelection(EMPTY_SELECTION, order, 'a', none);
    s = clickSelection(s, order, 'd', { toggle: true, range: false });
    s = clickSelection(s, order, 'e', { toggle: true, range: true });
    expect(ids(s)).toEqual(['a', 'd', 'e']);
  });

  it('moves with the arrow keys', () => {
    expect(stepSelection(order, null, 1)).toBe('a');
    expect(stepSelection(order, null, -1)).toBe('e');
    expect(stepSelection(order, 'b', 3)).toBe('e');
    expect(stepSelection(order, 'b', 10)).toBe('e');
    expect(stepSelection(order, 'b', -4)).toBe('a');
    expect(stepSelection([], 'b', 1)).toBeNull();
  });
});

describe('rubber-band selection', () => {
  const list: ItemLayout = { mode: 'list', top: 40, rowHeight: 44, left: 0, width: 800 };
  const grid: ItemLayout = {
    mode: 'grid',
    top: 0,
    left: 16,
    columns: 4,
    cellWidth: 130,
    cellHeight: 150,
    tileWidth: 120,
    tileHeight: 140,
  };

  it('hits the list rows the band crosses', () => {
    expect(indexesInRect(list, normalizeRect(10, 50, 300, 140), 100)).toEqual([0, 1, 2]);
    expect(indexesInRect(list, normalizeRect(300, 140, 10, 50), 100)).toEqual([0, 1, 2]);
    // beyond the last item
    expect(indexesInRect(list, normalizeRect(0, 0, 10, 10_000), 3)).toEqual([0, 1, 2]);
    expect(indexesInRect(list, normalizeRect(900, 50, 950, 140), 100)).toEqual([]);
  });

  it('hits the grid tiles the band touches, not the gaps', () => {
    // the first row, columns 1 and 2
    expect(indexesInRect(grid, normalizeRect(150, 10, 290, 20), 20)).toEqual([1, 2]);
    // inside the gap between column 0 and 1 only
    expect(indexesInRect(grid, normalizeRect(137, 10, 145, 20), 20)).toEqual([]);
    // two rows, one column
    expect(indexesInRect(grid, normalizeRect(20, 10, 30, 160), 20)).toEqual([0, 4]);
    // the last row is short
    expect(indexesInRect(grid, normalizeRect(0, 300, 1000, 310), 10)).toEqual([8, 9]);
  });

  it('handles 100,000 items without walking them all', () => {
    const hit = indexesInRect(
      list,
      normalizeRect(0, 40 + 44 * 99_990, 100, 40 + 44 * 99_999),
      100_000,
    );
    expect(hit[0]).toBe(99_990);
    expect(hit.at(-1)).toBe(99_999);
  });
});

describe('dropping items on a folder', () => {
  const item = (id: string, path: string, name: string, isFolder = false) =>
    ({ id, path, name, isFolder }) as FileItem;

  it('refuses the folder itself, its inside and where the items already are', async () => {
    const { canDropInto } = await import('../components/file-browser/drag');
    const docs = item('d', '/', 'docs', true);
    const file = item('f', '/', 'a.txt');
    expect(canDropInto([file], { id: 'd', path: '/docs/', name: 'docs' })).toBe(true);
    expect(canDropInto([docs], { id: 'd', path: '/docs/', name: 'docs' })).toBe(false);
    expect(canDropInto([docs], { id: 'x', path: '/docs/inner/', name: 'inner' })).toBe(false);
    expect(canDropInto([file], { id: '0', path: '/', name: '' })).toBe(false);
    expect(canDropInto([], { id: 'd', path: '/docs/', name: 'docs' })).toBe(false);
  });
});
