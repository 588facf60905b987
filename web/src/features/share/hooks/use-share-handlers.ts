import type { PublicFileView } from '@nimbus/contract';
import { useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import { runAction } from '../../../actions/registry';
import type { MenuEntry } from '../../../actions/types';
import {
  SHARE_MENUS,
  visibleShareActions,
  type ShareActionId,
  type ShareBrowserContext,
} from '../browser-actions';
import type {
  CollectionApi,
  CollectionHandlers,
} from '../../../components/file-browser/collection-types';
import { EMPTY_SELECTION, clickSelection, stepSelection } from '../../../lib/selection';
import { isTypingTarget, matchShortcut } from '../../../actions/shortcuts';
import type { ShareListing } from './use-share-listing';
import type { ShareSelection } from './use-share-selection';

/** A menu of the share's actions, opened at a point. */
export interface ShareMenuRequest {
  x: number;
  y: number;
  ctx: ShareBrowserContext;
  entries: readonly MenuEntry<ShareActionId>[];
}

interface HandlersInput {
  mobile: boolean;
  listing: ShareListing;
  selection: ShareSelection;
  /** The action context for these items. */
  contextOf: (items: PublicFileView[]) => ShareBrowserContext;
  openMenu: (request: ShareMenuRequest) => void;
  collection: RefObject<CollectionApi | null>;
}

/** The menu for acting on these items: one item's, or the selection's. */
const entriesFor = (items: PublicFileView[]) =>
  items.length > 1 ? SHARE_MENUS.selection : SHARE_MENUS.item;

const ARROW_STEPS = (columns: number): Record<string, number> => ({
  ArrowDown: columns,
  ArrowUp: -columns,
  ArrowRight: columns > 1 ? 1 : 0,
  ArrowLeft: columns > 1 ? -1 : 0,
  Home: -Infinity,
  End: Infinity,
});

/**
 * What clicks, keys, the rubber band and scrolling do in a share's collection: the same
 * selection as the file browser's, and the share registry's actions. The handlers keep their
 * identity (the rows are memoised) and read the latest state.
 */
export function useShareHandlers(input: HandlersInput): CollectionHandlers<PublicFileView> {
  const latest = useRef(input);
  useLayoutEffect(() => {
    latest.current = input;
  });
  const marqueeBase = useRef<ReadonlySet<string>>(new Set());

  return useMemo<CollectionHandlers<PublicFileView>>(() => {
    const now = () => latest.current;
    const open = (item: PublicFileView) => now().contextOf([item]).cmd.open(item);
    return {
      onItemClick: (item, event) => {
        const { mobile, selection: sel } = now();
        if (mobile && !event.ctrlKey && !event.metaKey && !event.shiftKey) {
          if (sel.selection.ids.size > 0) {
            sel.setSelection(
              clickSelection(sel.selection, sel.ids, item.id, { toggle: true, range: false }),
            );
          } else open(item);
          return;
        }
        const mods = { toggle: event.ctrlKey || event.metaKey, range: event.shiftKey };
        sel.setSelection(clickSelection(sel.selection, sel.ids, item.id, mods));
        sel.setFocusedId(item.id);
      },
      onItemOpen: (item) => {
        if (!now().mobile) open(item);
      },
      onItemToggle: (item) => {
        const { selection: sel } = now();
        sel.setSelection(
          clickSelection(sel.selection, sel.ids, item.id, { toggle: true, range: false }),
        );
        sel.setFocusedId(item.id);
      },
      onItemContextMenu: (item, point) => {
        const { selection: sel, contextOf, openMenu } = now();
        let targets = sel.selectedItems;
        if (!sel.selection.ids.has(item.id)) {
          sel.selectOnly(item);
          targets = [item];
        }
        openMenu({ ...point, ctx: contextOf(targets), entries: entriesFor(targets) });
      },
      onBackgroundClick: () => now().selection.clear(),
      onBackgroundContextMenu: (point) => {
        const { selection: sel, contextOf, openMenu } = now();
        sel.clear();
        openMenu({ ...point, ctx: contextOf([]), entries: SHARE_MENUS.folder });
      },
      onMarqueeStart: () => {
        marqueeBase.current = now().selection.selection.ids;
      },
      onMarquee: (marked, additive) => {
        const next = new Set(additive ? marqueeBase.current : []);
        for (const id of marked) next.add(id);
        now().selection.setSelection((current) => ({
          ids: next,
          anchor: current.anchor ?? marked[0] ?? null,
        }));
      },
      onLoadMore: () => {
        const { query } = now().listing;
        if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
      },
      onKeyDown: (event, columns) => {
        if (isTypingTarget(event.target)) return;
        const { selection: sel, contextOf, collection } = now();
        if (event.key === 'Escape') {
          if (sel.selection.ids.size > 0) sel.setSelection(EMPTY_SELECTION);
          return;
        }
        if (matchShortcut(event, { key: 'a', mod: true })) {
          event.preventDefault();
          sel.selectAll();
          return;
        }
        if (event.key === 'Enter') {
          const item =
            sel.selectedItems.length === 1
              ? sel.selectedItems[0]
              : now().listing.items.find((candidate) => candidate.id === sel.focusedId);
          if (!item) return;
          event.preventDefault();
          open(item);
          return;
        }
        const ctx = contextOf(sel.selectedItems);
        if (ctx.items.length > 0) {
          const action = visibleShareActions(entriesFor(ctx.items), ctx).find(
            (candidate) => candidate.shortcut && matchShortcut(event, candidate.shortcut),
          );
          if (action) {
            event.preventDefault();
            runAction(action, ctx);
            return;
          }
        }
        const step = ARROW_STEPS(columns)[event.key];
        if (step === undefined || step === 0) return;
        event.preventDefault();
        const from = sel.focusedId ?? sel.selection.anchor;
        // Home and End go to the ends even with nothing focused yet
        const next = Number.isFinite(step)
          ? stepSelection(sel.ids, from, step)
          : ((step > 0 ? sel.ids[sel.ids.length - 1] : sel.ids[0]) ?? null);
        if (!next) return;
        if (event.shiftKey) {
          sel.setSelection(
            clickSelection(sel.selection, sel.ids, next, { toggle: false, range: true }),
          );
        } else sel.setSelection({ ids: new Set([next]), anchor: next });
        sel.setFocusedId(next);
        collection.current?.scrollToIndex(sel.ids.indexOf(next));
      },
    };
  }, []);
}
