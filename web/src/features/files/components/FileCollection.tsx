import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { useVirtualizer } from '@tanstack/react-virtual';
import { Spin } from 'antd';
import {
  memo,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type Ref,
} from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { truncateName } from '../../../lib/format';
import { fileUrl } from '../api';
import { DRAG_TYPE, useDragStore, type DropTarget } from '../drag';
import { isViewableImage } from '../file-kinds';
import { indexesInRect, normalizeRect, type ItemLayout, type Rect } from '../selection';
import { childPathOf, type FileItem } from '../types';
import { useFileFormat } from '../use-format';
import type { SortOrder, SortProp } from '../view-kinds';
import { FileIcon } from './FileIcon';
import { RenameInput } from './RenameInput';

export type CollectionMode = 'list' | 'grid';

/** What the collection asks its owner to do. */
export interface CollectionHandlers {
  onItemClick(item: FileItem, event: React.MouseEvent): void;
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
  onDragStart(item: FileItem, event: React.DragEvent): void;
  onDropOn(target: DropTarget): void;
  canDropOn(target: DropTarget): boolean;
  onRenameSubmit(item: FileItem, name: string): Promise<string | null>;
  onRenameCancel(): void;
  onKeyDown(event: React.KeyboardEvent, columns: number): void;
}

export interface CollectionApi {
  scrollToIndex(index: number, align?: 'auto' | 'center'): void;
  focus(): void;
}

interface CollectionProps {
  items: FileItem[];
  mode: CollectionMode;
  mobile: boolean;
  selected: ReadonlySet<string>;
  focusedId: string | null;
  highlightId: string | null;
  renamingId: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  /** Drive-wide views show where each item lives. */
  showLocation: boolean;
  trash: boolean;
  sortProp: SortProp;
  order: SortOrder;
  /** Items can be dragged onto folders. */
  draggable: boolean;
  /** Thumbnails of images in the grid. */
  thumbnails?: boolean;
  /** Each item's "…" menu button and checkbox (off in the file picker). */
  itemControls?: boolean;
  locationLink?: (path: string, name: string) => string;
  handlers: CollectionHandlers;
  apiRef?: Ref<CollectionApi>;
  label: string;
  testId?: string;
}

const LIST_ROW = 44;
const LIST_ROW_MOBILE = 60;
const PAD = 8;

interface GridMetrics {
  columns: number;
  cellWidth: number;
  cellHeight: number;
  tileWidth: number;
  tileHeight: number;
  icon: number;
}

function gridMetrics(width: number, mobile: boolean): GridMetrics {
  const min = mobile ? 96 : 124;
  const gap = mobile ? 8 : 10;
  const inner = Math.max(min, width - PAD * 2);
  const columns = Math.max(mobile ? 3 : 1, Math.floor((inner + gap) / (min + gap)));
  const cellWidth = inner / columns;
  const icon = mobile ? 56 : 64;
  const tileHeight = icon + (mobile ? 64 : 70);
  return {
    columns,
    cellWidth,
    cellHeight: tileHeight + gap,
    tileWidth: cellWidth - gap,
    tileHeight,
    icon,
  };
}

/** Image files small enough to draw as their own thumbnail (the server has no thumbnails yet). */
const THUMBNAIL_MAX_BYTES = 12 * 1024 * 1024;

function Thumb({ item, size, thumbnails }: { item: FileItem; size: number; thumbnails: boolean }) {
  const [failed, setFailed] = useState(false);
  if (
    thumbnails &&
    !failed &&
    isViewableImage(item) &&
    item.size > 0 &&
    item.size <= THUMBNAIL_MAX_BYTES
  ) {
    return (
      <img
        className="nb-thumb"
        src={fileUrl(item)}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        draggable={false}
        onError={() => setFailed(true)}
      />
    );
  }
  return <FileIcon item={item} size={size} />;
}

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
    event.dataTransfer.types.includes(DRAG_TYPE) && handlers.canDropOn(target);
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
      handlers.onDropOn(target);
    },
  };
}

/** What every row shares; made once per collection render so rows stay cheap. */
interface Shared {
  t: TFunction<'files'>;
  fmt: ReturnType<typeof useFileFormat>;
  /** Items are being dragged (folders become drop targets). */
  dragging: boolean;
  /** Where the location column's link goes (the folder, with the item highlighted). */
  locationLink?: (path: string, name: string) => string;
}

interface ItemProps {
  shared: Shared;
  /** A drag is over this folder. */
  dropOver: boolean;
  controls: boolean;
  item: FileItem;
  index: number;
  selected: boolean;
  focused: boolean;
  highlighted: boolean;
  renaming: boolean;
  mobile: boolean;
  draggable: boolean;
  handlers: CollectionHandlers;
}

/** Long press (touch) opens the item menu: spec "Mobile: long-press or a … button". */
function useLongPress(item: FileItem, handlers: CollectionHandlers) {
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

function useItemEvents(p: ItemProps) {
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
    p.draggable && !p.renaming && !p.mobile && !item.mount
      ? {
          draggable: true,
          onDragStart: (event: React.DragEvent) => handlers.onDragStart(item, event),
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

function StarGlyph({ className, label }: { className: string; label: string }) {
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
function MountTag({ mount, t }: { mount: NonNullable<FileItem['mount']>; t: Shared['t'] }) {
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
function ItemCheck({
  item,
  selected,
  handlers,
  t,
}: {
  item: FileItem;
  selected: boolean;
  handlers: CollectionHandlers;
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

function MenuButton({
  item,
  handlers,
  t,
}: {
  item: FileItem;
  handlers: CollectionHandlers;
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

interface RowProps extends ItemProps {
  showLocation: boolean;
  trash: boolean;
  nameUnits: number;
  top: number;
  height: number;
  template: string;
}

const ListRow = memo(function ListRow(p: RowProps) {
  const { item } = p;
  const { fmt, t } = p.shared;
  const { isOver, rootProps, dragProps } = useItemEvents(p);
  const date = p.trash ? item.trashDate : item.updateDate;
  const className = [
    'nb-row',
    p.selected && 'is-selected',
    p.focused && 'is-focused',
    p.highlighted && 'is-highlight',
    isOver && 'is-drop',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div
      className={className}
      style={{
        transform: `translateY(${p.top}px)`,
        height: p.height,
        gridTemplateColumns: p.template,
      }}
      role="option"
      aria-selected={p.selected}
      data-index={p.index}
      data-id={item.id}
      data-name={item.name}
      data-testid="file-item"
      data-folder={item.isFolder ? 'true' : undefined}
      data-mount={item.mount ? 'true' : undefined}
      {...rootProps}
    >
      {p.mobile || !p.controls ? null : (
        <span className="nb-row__check">
          <ItemCheck item={item} selected={p.selected} handlers={p.handlers} t={p.shared.t} />
        </span>
      )}
      <span className="nb-row__name" data-drag-handle {...dragProps}>
        <FileIcon item={item} size={p.mobile ? 32 : 24} />
        <span className="nb-row__text">
          {p.renaming ? (
            <RenameInput
              item={item}
              onSubmit={p.handlers.onRenameSubmit}
              onCancel={p.handlers.onRenameCancel}
            />
          ) : (
            <span className="nb-row__title" title={item.name}>
              {truncateName(item.name, p.nameUnits)}
            </span>
          )}
          {p.mobile ? (
            <span className="nb-row__meta">
              {item.isFolder ? fmt.ago(date) : `${fmt.size(item.size)} · ${fmt.ago(date)}`}
            </span>
          ) : null}
        </span>
        {item.mount ? <MountTag mount={item.mount} t={t} /> : null}
        {item.isFavorite ? <StarGlyph className="nb-row__star" label={t('a11y.favorite')} /> : null}
      </span>
      {p.mobile ? null : (
        <>
          {p.showLocation ? (
            <span className="nb-row__cell nb-row__loc" title={item.path}>
              {p.shared.locationLink && !p.trash ? (
                <Link
                  to={p.shared.locationLink(item.path, item.name)}
                  onClick={(event) => event.stopPropagation()}
                  onDoubleClick={(event) => event.stopPropagation()}
                  draggable={false}
                >
                  {item.path}
                </Link>
              ) : (
                item.path
              )}
            </span>
          ) : null}
          <span className="nb-row__cell nb-row__size">
            {item.isFolder ? '—' : fmt.size(item.size)}
          </span>
          <span className="nb-row__cell nb-row__date" title={fmt.exact(date)}>
            {fmt.ago(date)}
          </span>
        </>
      )}
      {p.controls ? <MenuButton item={item} handlers={p.handlers} t={p.shared.t} /> : <span />}
    </div>
  );
});

interface TileProps extends ItemProps {
  left: number;
  top: number;
  metrics: GridMetrics;
  thumbnails: boolean;
}

const GridTile = memo(function GridTile(p: TileProps) {
  const { item, metrics } = p;
  const { fmt, t } = p.shared;
  const { isOver, rootProps, dragProps } = useItemEvents(p);
  // two lines of about 7 px per narrow character
  const units = Math.max(8, Math.floor((metrics.tileWidth - 16) / 7.2) * 2 - 2);
  const className = [
    'nb-tile',
    p.selected && 'is-selected',
    p.focused && 'is-focused',
    p.highlighted && 'is-highlight',
    isOver && 'is-drop',
  ]
    .filter(Boolean)
    .join(' ');
  const title = item.mount
    ? `${item.name}\n${t('mount.sharedBy', { name: item.mount.fileShowName || item.mount.fileUsername })}`
    : item.isFolder
      ? `${item.name}\n${fmt.exact(item.updateDate)}`
      : `${item.name}\n${fmt.size(item.size)} · ${fmt.exact(item.updateDate)}`;
  return (
    <div
      className={className}
      style={{
        transform: `translate(${p.left}px, ${p.top}px)`,
        width: metrics.tileWidth,
        height: metrics.tileHeight,
      }}
      role="option"
      aria-selected={p.selected}
      data-index={p.index}
      data-id={item.id}
      data-name={item.name}
      data-testid="file-item"
      data-folder={item.isFolder ? 'true' : undefined}
      data-mount={item.mount ? 'true' : undefined}
      title={p.renaming ? undefined : title}
      data-drag-handle
      {...rootProps}
      {...dragProps}
    >
      {p.controls ? (
        <span className="nb-tile__check">
          <ItemCheck item={item} selected={p.selected} handlers={p.handlers} t={p.shared.t} />
        </span>
      ) : null}
      <span className="nb-tile__icon" style={{ width: metrics.icon, height: metrics.icon }}>
        <Thumb item={item} size={metrics.icon} thumbnails={p.thumbnails} />
      </span>
      <span className="nb-tile__name">
        {p.renaming ? (
          <RenameInput
            item={item}
            onSubmit={p.handlers.onRenameSubmit}
            onCancel={p.handlers.onRenameCancel}
          />
        ) : (
          <>
            {item.isFavorite ? (
              <StarGlyph className="nb-tile__star" label={t('a11y.favorite')} />
            ) : null}
            {truncateName(item.name, units)}
          </>
        )}
      </span>
      {p.controls ? <MenuButton item={item} handlers={p.handlers} t={p.shared.t} /> : null}
    </div>
  );
});

function SortHeader({
  prop,
  label,
  sortProp,
  order,
  onSort,
  className,
}: {
  prop: SortProp;
  label: string;
  sortProp: SortProp;
  order: SortOrder;
  onSort: (prop: SortProp) => void;
  className: string;
}) {
  const active = prop === sortProp;
  return (
    <button
      type="button"
      className={`nb-list-head__cell ${className}${active ? ' is-active' : ''}`}
      onClick={() => onSort(prop)}
      aria-sort={active ? (order === 'ascending' ? 'ascending' : 'descending') : undefined}
      data-testid={`column-${prop}`}
    >
      {label}
      {active ? order === 'ascending' ? <ArrowUpOutlined /> : <ArrowDownOutlined /> : null}
    </button>
  );
}

interface MarqueeState {
  startX: number;
  startY: number;
  clientX: number;
  clientY: number;
  additive: boolean;
  active: boolean;
  pointerId: number;
}

/**
 * The listing: a virtual list or grid that stays smooth at 100,000 items, pages in more as it
 * nears the end, and selects by click, keyboard and rubber band.
 */
export function FileCollection(props: CollectionProps) {
  const { t } = useTranslation('files');
  const fmt = useFileFormat();
  const dragging = useDragStore((s) => s.items.length > 0);
  const overId = useDragStore((s) => s.over?.id ?? null);
  const { locationLink } = props;
  const shared = useMemo<Shared>(
    () => ({ t, fmt, dragging, locationLink }),
    [t, fmt, dragging, locationLink],
  );
  const { items, mode, mobile, handlers } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [band, setBand] = useState<Rect | null>(null);
  const marquee = useRef<MarqueeState | null>(null);
  const justMarqueed = useRef(false);
  const autoScroll = useRef<number | null>(null);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const metrics = gridMetrics(width || 800, mobile);
  const columns = mode === 'grid' ? metrics.columns : 1;
  const rowHeight = mode === 'grid' ? metrics.cellHeight : mobile ? LIST_ROW_MOBILE : LIST_ROW;
  const dataRows = Math.ceil(items.length / columns);
  const rowCount = dataRows + (props.hasMore ? 1 : 0);

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    // let React batch scroll updates instead of rendering inside the scroll event
    useFlushSync: false,
    overscan: mode === 'grid' ? 3 : 10,
    paddingStart: PAD,
    paddingEnd: 24,
  });

  // a different row height (mode switch, phone rotation) needs new measurements
  useEffect(() => {
    virtualizer.measure();
  }, [rowHeight, columns, virtualizer]);

  const virtualRows = virtualizer.getVirtualItems();
  const lastVisible = virtualRows[virtualRows.length - 1]?.index ?? -1;
  useEffect(() => {
    if (props.hasMore && !props.loadingMore && lastVisible >= dataRows - 3) handlers.onLoadMore();
  }, [lastVisible, dataRows, props.hasMore, props.loadingMore, handlers]);

  useImperativeHandle(
    props.apiRef,
    () => ({
      scrollToIndex: (index, align = 'auto') =>
        virtualizer.scrollToIndex(Math.floor(index / columns), { align }),
      focus: () => scrollRef.current?.focus({ preventScroll: true }),
    }),
    [virtualizer, columns],
  );

  const layout = useCallback((): ItemLayout => {
    if (mode === 'list') {
      return { mode: 'list', top: PAD, rowHeight, left: 0, width: width || 800 };
    }
    return {
      mode: 'grid',
      top: PAD,
      left: PAD,
      columns: metrics.columns,
      cellWidth: metrics.cellWidth,
      cellHeight: metrics.cellHeight,
      tileWidth: metrics.tileWidth,
      tileHeight: metrics.tileHeight,
    };
  }, [
    mode,
    rowHeight,
    width,
    metrics.columns,
    metrics.cellWidth,
    metrics.cellHeight,
    metrics.tileWidth,
    metrics.tileHeight,
  ]);

  // ---- rubber band ------------------------------------------------------------------------

  const contentPoint = (clientX: number, clientY: number) => {
    const element = scrollRef.current!;
    const box = element.getBoundingClientRect();
    return {
      x: clientX - box.left + element.scrollLeft,
      y: clientY - box.top + element.scrollTop,
    };
  };

  const updateBand = () => {
    const m = marquee.current;
    if (!m?.active) return;
    const end = contentPoint(m.clientX, m.clientY);
    const rect = normalizeRect(m.startX, m.startY, end.x, end.y);
    setBand(rect);
    const ids = indexesInRect(layout(), rect, items.length).map((i) => items[i]!.id);
    handlers.onMarquee(ids, m.additive);
  };

  const stopAutoScroll = () => {
    if (autoScroll.current !== null) cancelAnimationFrame(autoScroll.current);
    autoScroll.current = null;
  };

  const runAutoScroll = () => {
    const element = scrollRef.current;
    const m = marquee.current;
    if (!element || !m?.active) return stopAutoScroll();
    const box = element.getBoundingClientRect();
    const edge = 36;
    let dy = 0;
    if (m.clientY < box.top + edge) dy = -Math.ceil((box.top + edge - m.clientY) / 3);
    else if (m.clientY > box.bottom - edge) dy = Math.ceil((m.clientY - box.bottom + edge) / 3);
    if (dy !== 0) {
      element.scrollTop += dy;
      updateBand();
      autoScroll.current = requestAnimationFrame(runAutoScroll);
    } else stopAutoScroll();
  };

  const onPointerDown = (event: React.PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || event.pointerType === 'touch') return;
    const target = event.target as HTMLElement;
    if (target.closest('[data-drag-handle], input, button, a, .nb-list-head')) return;
    // the scrollbar
    if (
      event.clientX >
      event.currentTarget.getBoundingClientRect().left + event.currentTarget.clientWidth
    )
      return;
    const start = contentPoint(event.clientX, event.clientY);
    marquee.current = {
      startX: start.x,
      startY: start.y,
      clientX: event.clientX,
      clientY: event.clientY,
      additive: event.ctrlKey || event.metaKey || event.shiftKey,
      active: false,
      pointerId: event.pointerId,
    };
  };

  const onPointerMove = (event: React.PointerEvent<HTMLDivElement>) => {
    const m = marquee.current;
    if (!m || m.pointerId !== event.pointerId) return;
    m.clientX = event.clientX;
    m.clientY = event.clientY;
    if (!m.active) {
      const now = contentPoint(event.clientX, event.clientY);
      if (Math.hypot(now.x - m.startX, now.y - m.startY) < 5) return;
      m.active = true;
      event.currentTarget.setPointerCapture(event.pointerId);
      handlers.onMarqueeStart();
    }
    event.preventDefault();
    updateBand();
    if (autoScroll.current === null) autoScroll.current = requestAnimationFrame(runAutoScroll);
  };

  const endMarquee = (event: React.PointerEvent<HTMLDivElement>) => {
    const m = marquee.current;
    if (!m || m.pointerId !== event.pointerId) return;
    if (m.active) {
      justMarqueed.current = true;
      window.setTimeout(() => (justMarqueed.current = false), 0);
    }
    marquee.current = null;
    stopAutoScroll();
    setBand(null);
  };

  useEffect(() => stopAutoScroll, []);

  // ---- layout -----------------------------------------------------------------------------

  const nameUnits = Math.max(
    12,
    Math.floor(
      ((width || 800) -
        (mobile ? 110 : 28 + 110 + 150 + 44 + (props.showLocation ? 220 : 0) + 48)) /
        7.4,
    ),
  );
  const listTemplate = mobile
    ? 'minmax(0, 1fr) 44px'
    : `36px minmax(0, 1fr)${props.showLocation ? ' minmax(120px, 220px)' : ''} 110px 150px 44px`;

  const common = (item: FileItem, index: number) => ({
    shared,
    dropOver: overId === item.id,
    item,
    index,
    selected: props.selected.has(item.id),
    focused: props.focusedId === item.id,
    highlighted: props.highlightId === item.id,
    renaming: props.renamingId === item.id,
    mobile,
    draggable: props.draggable,
    controls: props.itemControls !== false,
    handlers,
  });

  return (
    <div className={`nb-collection nb-collection--${mode}${mobile ? ' is-mobile' : ''}`}>
      {mode === 'list' && !mobile ? (
        <div
          className="nb-list-head"
          style={{ gridTemplateColumns: listTemplate }}
          role="presentation"
        >
          <span />
          <SortHeader
            prop="name"
            label={t('columns.name')}
            className="nb-list-head__name"
            sortProp={props.sortProp}
            order={props.order}
            onSort={handlers.onSort}
          />
          {props.showLocation ? (
            <span className="nb-list-head__cell">
              {t(props.trash ? 'columns.originalLocation' : 'columns.location')}
            </span>
          ) : null}
          <SortHeader
            prop="size"
            label={t('columns.size')}
            className="nb-list-head__size"
            sortProp={props.sortProp}
            order={props.order}
            onSort={handlers.onSort}
          />
          {props.trash ? (
            <span className="nb-list-head__cell">{t('columns.trashDate')}</span>
          ) : (
            <SortHeader
              prop="updateDate"
              label={t('columns.updateDate')}
              className=""
              sortProp={props.sortProp}
              order={props.order}
              onSort={handlers.onSort}
            />
          )}
          <span />
        </div>
      ) : null}
      <div
        ref={scrollRef}
        className="nb-collection__scroll"
        tabIndex={0}
        role="listbox"
        aria-multiselectable="true"
        aria-label={props.label}
        data-testid={props.testId ?? 'files-list'}
        data-count={items.length}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endMarquee}
        onPointerCancel={endMarquee}
        onKeyDown={(event) => handlers.onKeyDown(event, columns)}
        onClick={(event) => {
          if (justMarqueed.current) return;
          if ((event.target as HTMLElement).closest('[data-index]')) return;
          handlers.onBackgroundClick();
        }}
        onContextMenu={(event) => {
          if ((event.target as HTMLElement).closest('[data-index]')) return;
          event.preventDefault();
          handlers.onBackgroundContextMenu({ x: event.clientX, y: event.clientY });
        }}
      >
        <div className="nb-collection__inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualRows.map((row) => {
            if (row.index >= dataRows) {
              return (
                <div
                  key="loader"
                  className="nb-collection__loader"
                  style={{ transform: `translateY(${row.start}px)`, height: row.size }}
                  data-testid="files-loading-more"
                >
                  <Spin size="small" /> <span>{t('status.loadingMore')}</span>
                </div>
              );
            }
            if (mode === 'list') {
              const item = items[row.index]!;
              return (
                <ListRow
                  key={item.id}
                  {...common(item, row.index)}
                  showLocation={props.showLocation}
                  trash={props.trash}
                  nameUnits={nameUnits}
                  top={row.start}
                  height={rowHeight}
                  template={listTemplate}
                />
              );
            }
            const start = row.index * columns;
            return items
              .slice(start, start + columns)
              .map((item, col) => (
                <GridTile
                  key={item.id}
                  {...common(item, start + col)}
                  metrics={metrics}
                  thumbnails={props.thumbnails !== false}
                  left={PAD + col * metrics.cellWidth}
                  top={row.start}
                />
              ));
          })}
          {band ? (
            <div
              className="nb-marquee"
              data-testid="marquee"
              style={{
                left: band.left,
                top: band.top,
                width: band.right - band.left,
                height: band.bottom - band.top,
              }}
            />
          ) : null}
        </div>
      </div>
    </div>
  );
}
