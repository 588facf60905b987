import { memo, type ReactElement } from 'react';
import { truncateName } from '../../lib/format';
import { iconKindOf } from '../../lib/file-kinds';
import type { CollectionItem, GridMetrics } from './collection-types';
import { ItemCheck, MenuButton, StarGlyph, useItemEvents, type ItemProps } from './collection-item';
import { FileThumb } from './FileThumb';
import { RenameInput } from './RenameInput';
import { TagChips } from './TagChips';

export interface TileProps<T extends CollectionItem> extends ItemProps<T> {
  left: number;
  top: number;
  metrics: GridMetrics;
  /** Where an item's thumbnail is (null when it has none); null draws no thumbnails. */
  thumbnailUrl: ((item: T) => string | null) | null;
}

/** The tile's top padding (files.css `.nb-tile`). */
const TILE_PAD_TOP = 14;

function Tile<T extends CollectionItem>(p: TileProps<T>) {
  const { item, metrics } = p;
  const { t } = p.shared;
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
      data-kind={iconKindOf(item)}
      data-mount={item.mount ? 'true' : undefined}
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
        <FileThumb item={item} size={metrics.icon} src={p.thumbnailUrl} />
      </span>
      {item.tags?.length ? (
        // on the foot of the icon, over the tile's width
        <span className="nb-tile__tagline" style={{ top: TILE_PAD_TOP + metrics.icon - 9 }}>
          <TagChips tags={item.tags} max={p.mobile ? 1 : 2} className="nb-tile__tags" />
        </span>
      ) : null}
      <span className="nb-tile__name">
        {p.renaming && p.handlers.onRenameSubmit ? (
          <RenameInput
            item={item}
            onSubmit={p.handlers.onRenameSubmit}
            onCancel={() => p.handlers.onRenameCancel?.()}
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
}

export const GridTile = memo(Tile) as <T extends CollectionItem>(p: TileProps<T>) => ReactElement;
