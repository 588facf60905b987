import { useCallback, useMemo } from 'react';
import { useLocation, useSearchParams } from 'react-router';
import type { ViewMode } from '../actions';
import { normalizeFolderPath } from '../../../lib/folder-path';
import type { ListingKey } from '../types';
import { fileViewConfig } from '../view-icons';
import {
  SORT_PROPS,
  isFlatView,
  type FileViewKind,
  type SortOrder,
  type SortProp,
} from '../../../lib/view-kinds';

function readViewMode(params: URLSearchParams): ViewMode {
  return params.get('vmode') === 'list' ? 'list' : 'grid';
}

/**
 * What the URL says about the file browser: the folder, the sort, the view mode, the tag and
 * the item to highlight; and links that keep them.
 */
export function useViewUrl(kind: FileViewKind) {
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const config = useMemo(() => fileViewConfig(kind), [kind]);

  const vmode = readViewMode(params);
  const sortProp = (SORT_PROPS as string[]).includes(params.get('sortableProp') ?? '')
    ? (params.get('sortableProp') as SortProp)
    : config.defaultSort.prop;
  const order: SortOrder =
    params.get('order') === 'ascending' || params.get('order') === 'descending'
      ? (params.get('order') as SortOrder)
      : config.defaultSort.order;
  const isHome = kind === 'home';
  const path = isHome ? normalizeFolderPath(params.get('path')) : '';
  const highlight = params.get('highlight');
  const flat = isFlatView(pathname, params);
  const tagId = params.get('tagId');

  const listingKey: ListingKey = useMemo(
    () => ({ kind, path, sortProp, order, ...(tagId ? { tagId } : {}) }),
    [kind, path, sortProp, order, tagId],
  );

  const update = useCallback(
    (changes: Record<string, string | null>) => {
      const next = new URLSearchParams(params);
      for (const [key, value] of Object.entries(changes)) {
        if (value === null) next.delete(key);
        else next.set(key, value);
      }
      setParams(next, { replace: true });
    },
    [params, setParams],
  );

  /** A link to a folder of the tree, keeping the view mode and sort. */
  const linkTo = useCallback(
    (folder: string, highlightName?: string) => {
      const next = new URLSearchParams();
      if (params.get('vmode')) next.set('vmode', vmode);
      if (isHome && params.get('sortableProp')) next.set('sortableProp', sortProp);
      if (isHome && params.get('order')) next.set('order', order);
      if (folder !== '/') next.set('path', folder);
      if (highlightName) next.set('highlight', highlightName);
      const query = next.toString();
      return query ? `/?${query}` : '/';
    },
    [params, vmode, isHome, sortProp, order],
  );

  /** The location column of drive-wide views opens the folder with the item highlighted. */
  const locationLink = useCallback((folder: string, name: string) => {
    const next = new URLSearchParams({ path: folder, highlight: name });
    return `/?${next.toString()}`;
  }, []);

  /** Clicking a column header: the same column flips the order, another starts its own way. */
  const sortBy = useCallback(
    (prop: SortProp) => {
      const nextOrder: SortOrder =
        prop === sortProp
          ? order === 'ascending'
            ? 'descending'
            : 'ascending'
          : prop === 'name'
            ? 'ascending'
            : 'descending';
      update({ sortableProp: prop, order: nextOrder });
    },
    [sortProp, order, update],
  );

  return {
    kind,
    config,
    isHome,
    path,
    vmode,
    sortProp,
    order,
    highlight,
    flat,
    tagId,
    listingKey,
    update,
    sortBy,
    linkTo,
    locationLink,
  };
}

export type ViewUrl = ReturnType<typeof useViewUrl>;
