import { useVirtualizer } from '@tanstack/react-virtual';
import { Spin } from 'antd';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type Ref,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useDragStore } from './drag';
import { useRubberBand } from './use-rubber-band';
import type { ItemLayout } from '../../lib/selection';
import { thumbnailUrl as driveThumbnailUrl } from '../../actions/thumbnails';
import { useFileFormat } from '../use-format';
import type { SortOrder, SortProp } from '../../lib/view-kinds';
import type {
  CollectionApi,
  CollectionHandlers,
  CollectionItem,
  CollectionMode,
  GridMetrics,
} from './collection-types';
import type { Shared } from './collection-item';
import { GridTile } from './GridTile';
import { HoverCard, useHoverTarget } from './HoverCard';
import { ListHeader, ListRow, type ListSort } from './ListRow';

interface CollectionProps<T extends CollectionItem> {
  items: T[];
  mode: CollectionMode;
  mobile: boolean;
  selected: ReadonlySet<string>;
  focusedId: string | null;
  highlightId?: string | null;
  renamingId?: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  /** Drive-wide views show where each item lives. */
  showLocation?: boolean;
  trash?: boolean;
  /** How the list is sorted; without it (or without `handlers.onSort`) the headers do not sort. */
  sortProp?: SortProp;
  order?: SortOrder;
  /** Items can be dragged onto folders. */
  draggable?: boolean;
  /** Thumbnails of images in the grid. */
  thumbnails?: boolean;
  /** Where an item's thumbnail is (null: none): the drive's own unless told otherwise. */
  thumbnailUrl?: (item: T) => string | null;
  /** Each item's "…" menu button and checkbox (off in the file picker). */
  itemControls?: boolean;
  locationLink?: (path: string, name: string) => string;
  handlers: CollectionHandlers<T>;
  apiRef?: Ref<CollectionApi>;
  label: string;
  testId?: string;
}

const LIST_ROW = 44;
const LIST_ROW_MOBILE = 60;
const PAD = 8;

function gridMetrics(width: number, mobile: boolean): GridMetrics {
  const min = mobile ? 100 : 136;
  const gap = mobile ? 8 : 10;
  const inner = Math.max(min, width - PAD * 2);
  const columns = Math.max(mobile ? 3 : 1, Math.floor((inner + gap) / (min + gap)));
  const cellWidth = inner / columns;
  const icon = mobile ? 64 : 88;
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

/**
 * The listing: a virtual list or grid that stays smooth at 100,000 items, pages in more as it
 * nears the end, and selects by click, keyboard and rubber band.
 */
export function FileCollection<T extends CollectionItem>(props: CollectionProps<T>) {
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
  const showLocation = props.showLocation ?? false;
  const trash = props.trash ?? false;
  const { sortProp, order, thumbnailUrl } = props;
  const sort = useMemo<ListSort | null>(
    () =>
      sortProp && order && handlers.onSort
        ? { sortProp, order, onSort: (prop) => handlers.onSort?.(prop) }
        : null,
    [sortProp, order, handlers],
  );
  const thumbnail = props.thumbnails === false ? null : (thumbnailUrl ?? driveThumbnailUrl);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);

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

  const { band, justMarqueed, pointerHandlers } = useRubberBand(scrollRef, layout, items, handlers);
  const hovered = useHoverTarget(scrollRef);
  const hoveredItem = hovered
    ? items[hovered.index]?.id === hovered.id
      ? items[hovered.index]
      : items.find((item) => item.id === hovered.id)
    : undefined;

  // ---- layout -----------------------------------------------------------------------------

  const nameUnits = Math.max(
    12,
    Math.floor(
      ((width || 800) - (mobile ? 110 : 28 + 110 + 150 + 44 + (showLocation ? 220 : 0) + 48)) / 7.4,
    ),
  );
  const listTemplate = mobile
    ? 'minmax(0, 1fr) 44px'
    : `36px minmax(0, 1fr)${showLocation ? ' minmax(120px, 220px)' : ''} 110px 150px 44px`;

  const common = (item: T, index: number) => ({
    shared,
    dropOver: overId === item.id,
    item,
    index,
    selected: props.selected.has(item.id),
    focused: props.focusedId === item.id,
    highlighted: props.highlightId === item.id,
    renaming: props.renamingId === item.id,
    mobile,
    draggable: props.draggable ?? false,
    controls: props.itemControls !== false,
    handlers,
  });

  return (
    <div className={`nb-collection nb-collection--${mode}${mobile ? ' is-mobile' : ''}`}>
      {mode === 'list' && !mobile ? (
        <ListHeader template={listTemplate} showLocation={showLocation} trash={trash} sort={sort} />
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
        {...pointerHandlers}
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
                  showLocation={showLocation}
                  trash={trash}
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
                  thumbnailUrl={thumbnail}
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
      {hovered && hoveredItem && !band && props.renamingId !== hoveredItem.id ? (
        <HoverCard item={hoveredItem} target={hovered} shared={shared} trash={trash} />
      ) : null}
    </div>
  );
}
