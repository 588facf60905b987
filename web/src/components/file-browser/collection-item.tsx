import type { TFunction } from 'i18next';
import { useRef } from 'react';
import { DRAG_TYPE, useDragStore, type DropTarget } from './drag';
import type { FileItem } from '@nimbus/contract';
import { childPathOf } from '../../lib/folder-path';
import type { useFileFormat } from '../use-format';
import type { CollectionHandlers, CollectionItem } from './collection-types';

/** What a list row and a grid tile share: drop and drag, clicks and long presses, glyphs. */

/** Drop handling shared by rows, tiles and breadcrumb segments. */
export function useFolderDrop(
  target: DropTarget | null,
  handlers: Pick<CollectionHandlers, 'canDropOn' | 'onDropOn'>,
) {
  const dragging = useDragStore((s) => s.items.length > 0);
  const isOver = useDragStore((s) => Boolean(target && s.over?.id === target.id));
  return { isOver, props: target && dragging ? dropProps(target, handlers) : {} };
}

/** The drag-over / drop handlers that make an element take dragged items. */
function dropProps(
  target: DropTarget,
  handlers: Pick<CollectionHandlers, 'canDropOn' | 'onDropOn'>,
) {
  const accepts = (event: React.DragEvent) =>
    event.dataTransfer.types.includes(DRAG_TYPE) && Boolean(handlers.canDropOn?.(target));
  return {
    onDragOver: (event: React.DragEvent) => {
      if (!accepts(event)) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      useDragStore.getState().setOver(target);
    },
    onDragLeave: (event: React.DragEvent) => {
      const next = event.relatedTarget as Node | null;
      if (next && (event.currentTarget as Node).contains(next)) return;
      if (useDragStore.getState().over?.id === target.id) useDragStore.getState().setOver(null);
    },
    onDrop: (event: React.DragEvent) => {
      if (!accepts(event)) return;
      event.preventDefault();
      event.stopPropagation();
      handlers.onDropOn?.(target);
    },
  };
}

/** What every row shares; made once per collection render so rows stay cheap. */
export interface Shared {
  t: TFunction<'files'>;
  fmt: ReturnType<typeof useFileFormat>;
  /** Items are being dragged (folders become drop targets). */
  dragging: boolean;
  /** Where the location column's link goes (the folder, with the item highlighted). */
  locationLink?: (path: string, name: string) => string;
}

export interface ItemProps<T extends CollectionItem = FileItem> {
  shared: Shared;
  /** A drag is over this folder. */
  dropOver: boolean;
  controls: boolean;
  item: T;
  index: number;
  selected: boolean;
  focused: boolean;
  highlighted: boolean;
  renaming: boolean;
  mobile: boolean;
  draggable: boolean;
  handlers: CollectionHandlers<T>;
}

/** Long press (touch) opens the item menu: spec "Mobile: long-press or a … button". */
function useLongPress<T extends CollectionItem>(item: T, handlers: CollectionHandlers<T>) {
  const timer = useRef<number | null>(null);
  // stays true until the next touch, so the click and contextmenu that follow are ignored
  const fired = useRef(false);
  const clear = () => {
    if (timer.current !== null) window.clearTimeout(timer.current);
    timer.current = null;
  };
  return {
    /** A long press just opened the menu: the click or contextmenu that follows is not one. */
    pressed: () => fired.current,
    props: {
      onTouchStart: (event: React.TouchEvent) => {
        fired.current = false;
        const touch = event.touches[0];
        if (!touch || event.touches.length > 1) return;
        const point = { x: touch.clientX, y: touch.clientY };
        clear();
        timer.current = window.setTimeout(() => {
          fired.current = true;
          handlers.onItemContextMenu(item, point);
        }, 500);
      },
      onTouchMove: clear,
      onTouchEnd: (event: React.TouchEvent) => {
        clear();
        // no mouse events or click after a long press: they would close the menu it opened
        if (fired.current && event.cancelable) event.preventDefault();
      },
      onTouchCancel: clear,
    },
  };
}

export function useItemEvents<T extends CollectionItem>(p: ItemProps<T>) {
  const { item, handlers } = p;
  const longPress = useLongPress(item, handlers);
  // a mount is browsed through its share: nothing is dropped into it or dragged out of here
  const dropTarget: DropTarget | null =
    item.isFolder && !item.mount ? { id: item.id, path: childPathOf(item), name: item.name } : null;
  const drop = {
    isOver: p.dropOver,
    props: dropTarget && p.shared.dragging ? dropProps(dropTarget, handlers) : {},
  };
  const dragProps =
    p.draggable && handlers.onDragStart && !p.renaming && !p.mobile && !item.mount
      ? {
          draggable: true,
          onDragStart: (event: React.DragEvent) => handlers.onDragStart?.(item, event),
        }
      : {};
  return {
    isOver: drop.isOver,
    rootProps: {
      ...drop.props,
      ...longPress.props,
      onClick: (event: React.MouseEvent) => {
        if (longPress.pressed()) return;
        handlers.onItemClick(item, event);
      },
      onDoubleClick: () => {
        if (!p.renaming) handlers.onItemOpen(item);
      },
      onContextMenu: (event: React.MouseEvent) => {
        event.preventDefault();
        event.stopPropagation();
        // the long press already opened the menu (touch browsers follow it with contextmenu)
        if (longPress.pressed()) return;
        handlers.onItemContextMenu(item, { x: event.clientX, y: event.clientY });
      },
    },
    dragProps,
  };
}

/** Small glyphs drawn inline: rows mount while scrolling, and icon components inject styles. */
const MoreGlyph = () => (
  <svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true" fill="currentColor">
    <circle cx="3" cy="8" r="1.5" />
    <circle cx="8" cy="8" r="1.5" />
    <circle cx="13" cy="8" r="1.5" />
  </svg>
);

export function StarGlyph({ className, label }: { className: string; label: string }) {
  return (
    <svg
      className={className}
      width="12"
      height="12"
      viewBox="0 0 24 24"
      role="img"
      aria-label={label}
      fill="currentColor"
    >
      <path d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z" />
    </svg>
  );
}

/** The mark of a mount in a list row: whose shared folder it is. */
export function MountTag({ mount, t }: { mount: NonNullable<FileItem['mount']>; t: Shared['t'] }) {
  const owner = mount.fileShowName || mount.fileUsername;
  return (
    <span
      className="nb-row__mount"
      title={t('mount.sharedBy', { name: owner })}
      data-testid="mount-tag"
    >
      {t('mount.tag', { name: owner })}
    </span>
  );
}

/** A plain checkbox: rows mount while scrolling, so it stays light. */
export function ItemCheck<T extends CollectionItem>({
  item,
  selected,
  handlers,
  t,
}: {
  item: T;
  selected: boolean;
  handlers: CollectionHandlers<T>;
  t: Shared['t'];
}) {
  return (
    <input
      type="checkbox"
      className="nb-check"
      checked={selected}
      aria-label={t('a11y.selectItem', { name: item.name })}
      onClick={(event) => event.stopPropagation()}
      onDoubleClick={(event) => event.stopPropagation()}
      onChange={() => handlers.onItemToggle(item)}
    />
  );
}

export function MenuButton<T extends CollectionItem>({
  item,
  handlers,
  t,
}: {
  item: T;
  handlers: CollectionHandlers<T>;
  t: Shared['t'];
}) {
  return (
    <button
      type="button"
      className="nb-item__menu"
      aria-label={t('actions.itemMenu', { name: item.name })}
      data-testid="item-menu-button"
      onClick={(event) => {
        event.stopPropagation();
        const rect = event.currentTarget.getBoundingClientRect();
        handlers.onItemContextMenu(item, { x: rect.right - 4, y: rect.bottom });
      }}
      onDoubleClick={(event) => event.stopPropagation()}
    >
      <MoreGlyph />
    </button>
  );
}
