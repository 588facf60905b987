import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import type { DropTarget } from './drag';
import type { FileItem } from '@nimbus/contract';
import type { SortProp } from '../../lib/view-kinds';

export type CollectionMode = 'list' | 'grid';

/**
 * What the collection draws of an item: a file of one's drive, or a shared one as a visitor
 * sees it (no favourite, no trash date, no mount).
 */
export type CollectionItem = Pick<
  FileItem,
  'id' | 'name' | 'path' | 'isFolder' | 'size' | 'suffix' | 'updateDate'
> &
  Partial<Pick<FileItem, 'isFavorite' | 'trashDate' | 'mount' | 'uploadDate' | 'tags'>>;

/**
 * What the collection asks its owner to do. Sorting, dragging and renaming in place are
 * optional: a collection without them offers none.
 */
export interface CollectionHandlers<T extends CollectionItem = FileItem> {
  onItemClick(item: T, event: MouseEvent): void;
  onItemOpen(item: T): void;
  onItemToggle(item: T): void;
  onItemContextMenu(item: T, point: { x: number; y: number }): void;
  onBackgroundClick(): void;
  onBackgroundContextMenu(point: { x: number; y: number }): void;
  /** The rubber band touches these ids; `additive` keeps what was selected before. */
  onMarquee(ids: string[], additive: boolean): void;
  onMarqueeStart(): void;
  onLoadMore(): void;
  onKeyDown(event: KeyboardEvent, columns: number): void;
  onSort?(prop: SortProp): void;
  onDragStart?(item: T, event: DragEvent): void;
  onDropOn?(target: DropTarget): void;
  canDropOn?(target: DropTarget): boolean;
  onRenameSubmit?(item: T, name: string): Promise<string | null>;
  onRenameCancel?(): void;
}

export interface CollectionApi {
  scrollToIndex(index: number, align?: 'auto' | 'center'): void;
  focus(): void;
}

/** The grid's layout for a width: columns, tile size, icon size. */
export interface GridMetrics {
  columns: number;
  cellWidth: number;
  cellHeight: number;
  tileWidth: number;
  tileHeight: number;
  icon: number;
}
