import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { memo, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { truncateName } from '../../lib/format';
import { iconKindOf } from '../../lib/file-kinds';
import {
  ItemCheck,
  MenuButton,
  MountTag,
  StarGlyph,
  useItemEvents,
  type ItemProps,
} from './collection-item';
import type { CollectionItem } from './collection-types';
import { FileIcon } from '../FileIcon';
import { RenameInput } from './RenameInput';
import { TagChips } from './TagChips';
import type { SortOrder, SortProp } from '../../lib/view-kinds';

export interface RowProps<T extends CollectionItem> extends ItemProps<T> {
  showLocation: boolean;
  trash: boolean;
  nameUnits: number;
  top: number;
  height: number;
  template: string;
}

function Row<T extends CollectionItem>(p: RowProps<T>) {
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
      data-kind={iconKindOf(item)}
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
          {p.renaming && p.handlers.onRenameSubmit ? (
            <RenameInput
              item={item}
              onSubmit={p.handlers.onRenameSubmit}
              onCancel={() => p.handlers.onRenameCancel?.()}
            />
          ) : (
            <span className="nb-row__line">
              <span className="nb-row__title">{truncateName(item.name, p.nameUnits)}</span>
              {p.mobile ? <TagChips tags={item.tags} max={1} className="nb-row__tags" /> : null}
            </span>
          )}
          {p.mobile ? (
            <span className="nb-row__meta">
              {item.mount ? fmt.ago(date) : `${fmt.size(item.size)} · ${fmt.ago(date)}`}
            </span>
          ) : null}
        </span>
        {p.mobile ? null : <TagChips tags={item.tags} max={3} className="nb-row__tags" />}
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
            {item.mount ? '—' : fmt.size(item.size)}
          </span>
          <span className="nb-row__cell nb-row__date" title={fmt.exact(date)}>
            {fmt.ago(date)}
          </span>
        </>
      )}
      {p.controls ? <MenuButton item={item} handlers={p.handlers} t={p.shared.t} /> : <span />}
    </div>
  );
}

export const ListRow = memo(Row) as <T extends CollectionItem>(p: RowProps<T>) => ReactElement;

/** How the list is sorted, and what sorts it; a list without it has plain headers. */
export interface ListSort {
  sortProp: SortProp;
  order: SortOrder;
  onSort: (prop: SortProp) => void;
}

function SortHeader({
  prop,
  label,
  sort,
  className,
}: {
  prop: SortProp;
  label: string;
  sort: ListSort | null;
  className: string;
}) {
  if (!sort) return <span className={`nb-list-head__cell ${className}`}>{label}</span>;
  const { sortProp, order, onSort } = sort;
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

/** The list's column headers; name, size and date sort when clicked. */
export function ListHeader({
  template,
  showLocation,
  trash,
  sort,
}: {
  template: string;
  showLocation: boolean;
  trash: boolean;
  sort: ListSort | null;
}) {
  const { t } = useTranslation('files');
  return (
    <div className="nb-list-head" style={{ gridTemplateColumns: template }} role="presentation">
      <span />
      <SortHeader
        prop="name"
        label={t('columns.name')}
        className="nb-list-head__name"
        sort={sort}
      />
      {showLocation ? (
        <span className="nb-list-head__cell">
          {t(trash ? 'columns.originalLocation' : 'columns.location')}
        </span>
      ) : null}
      <SortHeader
        prop="size"
        label={t('columns.size')}
        className="nb-list-head__size"
        sort={sort}
      />
      {trash ? (
        <span className="nb-list-head__cell">{t('columns.trashDate')}</span>
      ) : (
        <SortHeader prop="updateDate" label={t('columns.updateDate')} className="" sort={sort} />
      )}
      <span />
    </div>
  );
}
