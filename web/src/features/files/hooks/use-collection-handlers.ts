import { useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { useFileActions } from '../../../actions/file-registry';
import type { ActionContext } from '../actions';
import { useRenameItem } from '../api';
import type {
  CollectionApi,
  CollectionHandlers,
} from '../../../components/file-browser/collection-types';
import { EMPTY_SELECTION, clickSelection, stepSelection } from '../../../lib/selection';
import { isTypingTarget } from '../../../actions/shortcuts';
import type { SortProp } from '../../../lib/view-kinds';
import type { FileDialogs } from './use-file-dialogs';
import type { useFileDrag } from './use-file-drag';
import type { FileSelection, Listing } from './use-file-selection';
import { quietOperation } from '../../../api/events';

/** Forwarders that never change identity, calling the latest implementation. */
function useStable<T extends object>(impl: T): T {
  const latest = useRef(impl);
  useLayoutEffect(() => {
    latest.current = impl;
  });
  return useMemo(() => {
    const out = {} as Record<string, unknown>;
    for (const key of Object.keys(impl)) {
      out[key] = (...args: unknown[]) =>
        (latest.current as Record<string, (...a: unknown[]) => unknown>)[key]!(...args);
    }
    return out as T;
    // the keys are fixed; the forwarders read the latest functions
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
}

interface HandlersInput {
  ctx: ActionContext;
  mobile: boolean;
  listing: Listing;
  selection: FileSelection;
  dialogs: FileDialogs;
  drag: ReturnType<typeof useFileDrag>;
  sortBy: (prop: SortProp) => void;
  collection: RefObject<CollectionApi | null>;
}

/**
 * What clicks, keys, the marquee, scrolling, renaming in place and dragging in the listing do:
 * selection changes, and the registry's commands.
 */
export function useCollectionHandlers({
  ctx,
  mobile,
  listing: { query },
  selection: sel,
  dialogs,
  drag,
  sortBy,
  collection,
}: HandlersInput): CollectionHandlers {
  const { menuFor } = useFileActions();
  const { cmd } = ctx;
  const { selection, setSelection, ids, renamingId, setRenamingId } = sel;
  const marqueeBase = useRef<ReadonlySet<string>>(new Set());
  const renameItem = useRenameItem();

  return useStable<CollectionHandlers>({
    onItemClick: (item, event) => {
      sel.cancelSelectAll();
      if (renamingId && renamingId !== item.id) setRenamingId(null);
      if (mobile && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
        if (selection.ids.size > 0) {
          setSelection(clickSelection(selection, ids, item.id, { toggle: true, range: false }));
        } else cmd.open(item);
        return;
      }
      const mods = { toggle: event.ctrlKey || event.metaKey, range: event.shiftKey };
      setSelection(clickSelection(selection, ids, item.id, mods));
      sel.setFocusedId(item.id);
    },
    onItemOpen: (item) => {
      if (!mobile) cmd.open(item);
    },
    onItemToggle: (item) => {
      setSelection(clickSelection(selection, ids, item.id, { toggle: true, range: false }));
      sel.setFocusedId(item.id);
    },
    onItemContextMenu: (item, point) => {
      let targets = sel.selectedItems;
      if (!selection.ids.has(item.id)) {
        sel.selectOnly(item);
        targets = [item];
      }
      const context = { ...ctx, items: targets };
      dialogs.setMenu({ ...point, ctx: context, entries: menuFor(context) });
    },
    onBackgroundClick: () => {
      cmd.deselect();
      setRenamingId(null);
    },
    onBackgroundContextMenu: (point) => {
      setSelection(EMPTY_SELECTION);
      const context = { ...ctx, items: [] };
      dialogs.setMenu({ ...point, ctx: context, entries: menuFor(context) });
    },
    onMarqueeStart: () => {
      sel.cancelSelectAll();
      marqueeBase.current = selection.ids;
      setRenamingId(null);
    },
    onMarquee: (marked, additive) => {
      const next = new Set(additive ? marqueeBase.current : []);
      for (const id of marked) next.add(id);
      setSelection((current) => ({ ids: next, anchor: current.anchor ?? marked[0] ?? null }));
    },
    onLoadMore: () => {
      if (sel.selectAllRunning.current) return;
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    onSort: sortBy,
    onDragStart: drag.onDragStart,
    canDropOn: drag.canDropOn,
    onDropOn: drag.onDropOn,
    onRenameSubmit: async (item, name) => {
      try {
        // the new name on the tile says it: no second notice of the server's
        quietOperation('rename');
        await renameItem.mutateAsync({ item, name });
        setRenamingId(null);
        collection.current?.focus();
        return null;
      } catch (error) {
        return error instanceof Error ? error.message : String(error);
      }
    },
    onRenameCancel: () => {
      setRenamingId(null);
      collection.current?.focus();
    },
    onKeyDown: (event, columns) => {
      // Alt+↑ is the page's "up a folder", not a step through the items
      if (isTypingTarget(event.target) || event.altKey) return;
      const steps: Record<string, number> = {
        ArrowDown: columns,
        ArrowUp: -columns,
        ArrowRight: columns > 1 ? 1 : 0,
        ArrowLeft: columns > 1 ? -1 : 0,
        Home: -Infinity,
        End: Infinity,
      };
      const step = steps[event.key];
      if (step === undefined || step === 0) return;
      event.preventDefault();
      const from = sel.focusedId ?? selection.anchor;
      const bounded = Number.isFinite(step) ? step : step > 0 ? ids.length : -ids.length;
      const next = stepSelection(ids, from, bounded);
      if (!next) return;
      if (event.shiftKey) {
        setSelection(clickSelection(selection, ids, next, { toggle: false, range: true }));
      } else setSelection({ ids: new Set([next]), anchor: next });
      sel.setFocusedId(next);
      collection.current?.scrollToIndex(ids.indexOf(next));
    },
  });
}
