import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EMPTY_SELECTION, type Selection } from '../../../lib/selection';
import type { FileItem, ListingKey } from '../types';
import { loadAllPages, type useListing } from '../use-listing';

export type Listing = ReturnType<typeof useListing>;

/**
 * What is selected, focused, being renamed and highlighted in a listing; select all, which
 * loads the pages not scrolled to yet. A new folder or view starts with nothing selected.
 */
export function useFileSelection(viewId: string, listingKey: ListingKey, listing: Listing) {
  const queryClient = useQueryClient();
  const { query, items, total } = listing;
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const [renamingId, setRenamingId] = useState<string | null>(null);
  const [highlightId, setHighlightId] = useState<string | null>(null);

  // select all, while the items not loaded yet arrive
  const [selectingAll, setSelectingAll] = useState<{ loaded: number; total: number } | null>(null);
  const selectAllRun = useRef<AbortController | null>(null);
  const cancelSelectAll = useCallback(() => {
    selectAllRun.current?.abort();
    selectAllRun.current = null;
    setSelectingAll(null);
  }, []);
  useEffect(() => cancelSelectAll, [listingKey, cancelSelectAll]);

  const [shownView, setShownView] = useState(viewId);
  if (shownView !== viewId) {
    setShownView(viewId);
    setSelection(EMPTY_SELECTION);
    setFocusedId(null);
    setRenamingId(null);
  }

  const ids = useMemo(() => items.map((item) => item.id), [items]);
  const selectedItems = useMemo(
    () => (selection.ids.size === 0 ? [] : items.filter((item) => selection.ids.has(item.id))),
    [items, selection],
  );

  const selectOnly = useCallback((item: FileItem) => {
    setSelection({ ids: new Set([item.id]), anchor: item.id });
    setFocusedId(item.id);
  }, []);

  const clear = useCallback(() => setSelection(EMPTY_SELECTION), []);

  /** Highlights an item for a while (a new item, a task link). */
  const flash = useCallback((id: string, ms: number) => {
    setHighlightId(id);
    window.setTimeout(() => setHighlightId((current) => (current === id ? null : current)), ms);
  }, []);

  const selectAll = () => {
    if (selectAllRun.current) return;
    if (!query.hasNextPage) {
      setSelection({ ids: new Set(ids), anchor: ids[0] ?? null });
      return;
    }
    // every item of the view, like a desktop file manager: the pages not loaded yet first
    const run = new AbortController();
    selectAllRun.current = run;
    setSelectingAll({ loaded: items.length, total });
    loadAllPages(queryClient, listingKey, {
      signal: run.signal,
      onProgress: (loaded, all) => {
        if (!run.signal.aborted) setSelectingAll({ loaded, total: all });
      },
    })
      .then((all) => {
        if (run.signal.aborted) return;
        setSelection({ ids: new Set(all.map((item) => item.id)), anchor: all[0]?.id ?? null });
      })
      .catch(() => undefined)
      .finally(() => {
        if (selectAllRun.current !== run) return;
        selectAllRun.current = null;
        setSelectingAll(null);
      });
  };

  return {
    selection,
    setSelection,
    focusedId,
    setFocusedId,
    renamingId,
    setRenamingId,
    highlightId,
    flash,
    ids,
    selectedItems,
    selectOnly,
    clear,
    selectingAll,
    /** Whether select all is still loading pages (read in event handlers). */
    selectAllRunning: selectAllRun,
    cancelSelectAll,
    selectAll,
  };
}

export type FileSelection = ReturnType<typeof useFileSelection>;
