import type { PublicFileView } from '@nimbus/contract';
import { useCallback, useMemo, useState } from 'react';
import { EMPTY_SELECTION, type Selection } from '../../../lib/selection';

/** What is selected and focused in a folder of a share; another folder starts with nothing. */
export function useShareSelection(path: string, items: PublicFileView[]) {
  const [selection, setSelection] = useState<Selection>(EMPTY_SELECTION);
  const [focusedId, setFocusedId] = useState<string | null>(null);

  const [shownPath, setShownPath] = useState(path);
  if (shownPath !== path) {
    setShownPath(path);
    setSelection(EMPTY_SELECTION);
    setFocusedId(null);
  }

  const ids = useMemo(() => items.map((item) => item.id), [items]);
  const selectedItems = useMemo(
    () => (selection.ids.size === 0 ? [] : items.filter((item) => selection.ids.has(item.id))),
    [items, selection],
  );
  const selectOnly = useCallback((item: PublicFileView) => {
    setSelection({ ids: new Set([item.id]), anchor: item.id });
    setFocusedId(item.id);
  }, []);
  const clear = useCallback(() => setSelection(EMPTY_SELECTION), []);
  const selectAll = useCallback(
    () => setSelection({ ids: new Set(ids), anchor: ids[0] ?? null }),
    [ids],
  );

  return {
    selection,
    setSelection,
    focusedId,
    setFocusedId,
    ids,
    selectedItems,
    selectOnly,
    clear,
    selectAll,
  };
}

export type ShareSelection = ReturnType<typeof useShareSelection>;
