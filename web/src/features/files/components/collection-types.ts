import type { DragEvent, KeyboardEvent, MouseEvent } from 'react';
import type { DropTarget } from '../drag';
import type { FileItem } from '../types';
import type { SortProp } from '../view-kinds';

export type CollectionMode = 'list' | 'grid';

/** What the collection asks its owner to do. */
export interface CollectionHandlers {
  onItemClick(item: FileItem, event: MouseEvent): void;
  onItemOpen(item: FileItem): void;
  onItemToggle(item: FileItem): void;
  onItemContextMenu(item: FileItem, point: { x: number; y: number }): void;
  onBackgroundClick(): void;
  onBackgroundContextMenu(point: { x: number; y: number }): void;
  /** The rubber band touches these ids; `additive` keeps what was selected before. */
  onMarquee(ids: string[], additive: boolean): void;
  onMarqueeStart(): void;
  onLoadMore(): void;
  onSort(prop: SortProp): void;
  onDragStart(item: FileItem, event: DragEvent): void;
  onDropOn(target: DropTarget): void;
  canDropOn(target: DropTarget): boolean;
  onRenameSubmit(item: FileItem, name: string): Promise<string | null>;
  onRenameCancel(): void;
  onKeyDown(event: KeyboardEvent, columns: number): void;
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
