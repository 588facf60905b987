import { create } from 'zustand';
import type { FileItem } from '@nimbus/contract';

/** The drag type of items dragged inside the app (never `Files`, so the uploader ignores it). */
export const DRAG_TYPE = 'application/x-nimbus-items';

export interface DropTarget {
  /** Folder id ('0' for the root). */
  id: string;
  /** Its path's children prefix: `/a/b/`. */
  path: string;
  name: string;
}

interface DragState {
  /** Items being dragged. */
  items: FileItem[];
  /** The folder under the pointer that would take them. */
  over: DropTarget | null;
  x: number;
  y: number;
  start: (items: FileItem[]) => void;
  setOver: (over: DropTarget | null) => void;
  moveTo: (x: number, y: number) => void;
  end: () => void;
}

export const useDragStore = create<DragState>()((set) => ({
  items: [],
  over: null,
  x: 0,
  y: 0,
  start: (items) => set({ items, over: null }),
  setOver: (over) => set((state) => (state.over?.id === over?.id ? state : { over })),
  moveTo: (x, y) => set({ x, y }),
  end: () => set({ items: [], over: null }),
}));

/** Whether these items may be dropped into that folder: not into itself, its inside, or where they are. */
export function canDropInto(items: readonly FileItem[], target: DropTarget): boolean {
  if (items.length === 0) return false;
  return items.every((item) => {
    if (item.mount) return false;
    if (item.id === target.id) return false;
    if (item.isFolder && target.path.startsWith(`${item.path}${item.name}/`)) return false;
    return item.path !== target.path;
  });
}

/** A transparent drag image: the chip that follows the pointer shows what is dragged. */
let blank: HTMLCanvasElement | null = null;
export function blankDragImage(): HTMLCanvasElement {
  if (!blank) {
    blank = document.createElement('canvas');
    blank.width = 1;
    blank.height = 1;
  }
  return blank;
}
