/** Selection rules of the file browser, kept pure so they can be tested. */

export interface Selection {
  ids: ReadonlySet<string>;
  /** Where a Shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: Selection = { ids: new Set(), anchor: null };

export interface ClickModifiers {
  /** Ctrl on Windows/Linux, ⌘ on macOS: add or remove one item. */
  toggle: boolean;
  /** Shift: select from the anchor to here. */
  range: boolean;
}

/** The selection after clicking `id` in the list `order` (the items in display order). */
export function clickSelection(
  current: Selection,
  order: readonly string[],
  id: string,
  mods: ClickModifiers,
): Selection {
  if (mods.range) {
    const anchor = current.anchor ?? order[0] ?? id;
    let from = order.indexOf(anchor);
    const to = order.indexOf(id);
    if (from === -1) from = to;
    const [lo, hi] = from <= to ? [from, to] : [to, from];
    const ids = new Set(mods.toggle ? current.ids : []);
    for (let i = lo; i <= hi; i++) ids.add(order[i]!);
    return { ids, anchor };
  }
  if (mods.toggle) {
    const ids = new Set(current.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  return { ids: new Set([id]), anchor: id };
}

/** Arrow-key movement: the next item in display order, `step` items away (a grid row is `columns`). */
export function stepSelection(
  order: readonly string[],
  focused: string | null,
  step: number,
): string | null {
  if (order.length === 0) return null;
  const index = focused ? order.indexOf(focused) : -1;
  if (index === -1) return step >= 0 ? order[0]! : order[order.length - 1]!;
  const next = Math.min(order.length - 1, Math.max(0, index + step));
  return order[next]!;
}

export interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export function normalizeRect(x1: number, y1: number, x2: number, y2: number): Rect {
  return {
    left: Math.min(x1, x2),
    top: Math.min(y1, y2),
    right: Math.max(x1, x2),
    bottom: Math.max(y1, y2),
  };
}

/** Where each item sits in the scrolled content, without asking the DOM (the list is virtual). */
export type ItemLayout =
  | { mode: 'list'; top: number; rowHeight: number; left: number; width: number }
  | {
      mode: 'grid';
      top: number;
      left: number;
      columns: number;
      /** Width and height of one cell, gap included. */
      cellWidth: number;
      cellHeight: number;
      /** The tile inside its cell (the gap is not a hit). */
      tileWidth: number;
      tileHeight: number;
    };

/** The indexes of the items a rubber band touches (rect in content coordinates). */
export function indexesInRect(layout: ItemLayout, rect: Rect, count: number): number[] {
  const out: number[] = [];
  if (count <= 0) return out;
  if (layout.mode === 'list') {
    if (rect.right < layout.left || rect.left > layout.left + layout.width) return out;
    const first = Math.max(0, Math.floor((rect.top - layout.top) / layout.rowHeight));
    const last = Math.min(count - 1, Math.floor((rect.bottom - layout.top) / layout.rowHeight));
    for (let i = first; i <= last; i++) out.push(i);
    return out;
  }
  const rows = Math.ceil(count / layout.columns);
  const firstRow = Math.max(0, Math.floor((rect.top - layout.top) / layout.cellHeight));
  const lastRow = Math.min(rows - 1, Math.floor((rect.bottom - layout.top) / layout.cellHeight));
  for (let row = firstRow; row <= lastRow; row++) {
    const tileTop = layout.top + row * layout.cellHeight;
    if (rect.bottom < tileTop || rect.top > tileTop + layout.tileHeight) continue;
    for (let col = 0; col < layout.columns; col++) {
      const index = row * layout.columns + col;
      if (index >= count) break;
      const tileLeft = layout.left + col * layout.cellWidth;
      if (rect.right < tileLeft || rect.left > tileLeft + layout.tileWidth) continue;
      out.push(index);
    }
  }
  return out;
}
