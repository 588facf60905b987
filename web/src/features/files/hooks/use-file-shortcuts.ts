import { useEffect, useLayoutEffect, useRef, type RefObject } from 'react';
import { FILE_AUTHORITY } from '../../../actions/authorities';
import { isEnabled } from '../../../actions/registry';
import { useFileActions } from '../../../actions/file-registry';
import type { ActionContext, FileAction } from '../actions';
import { isTypingTarget, matchShortcut } from '../../../actions/shortcuts';

interface ShortcutsInput {
  ctx: ActionContext;
  run: (action: FileAction, ctx: ActionContext) => void;
  menuOpen: boolean;
  closeMenu: () => void;
  detailsOpen: boolean;
  closeDetails: () => void;
  selectingAll: RefObject<unknown>;
  /** Open the parent folder; null at the top of the tree or outside it. */
  goUp: (() => void) | null;
  /** Show the list of keys (`?`). */
  showShortcuts: () => void;
}

/**
 * The file browser's keys on the whole page: the registry's shortcuts, Escape closing what is
 * open, Space for the details (held, a peek), Ctrl/⌘+X with nothing selected moving the
 * clipboard here, Backspace or Alt+↑ up a folder, `?` the list of keys.
 */
export function useFileShortcuts(input: ShortcutsInput): void {
  const { actions, shortcuts } = useFileActions();
  const spaceDownAt = useRef<number | null>(null);
  const state = useRef(input);
  useLayoutEffect(() => {
    state.current = input;
  });
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      const { ctx: c, run, menuOpen, closeMenu, detailsOpen: details } = state.current;
      const onControl =
        event.target instanceof Element &&
        Boolean(
          event.target.closest('button, a, [role="menuitem"], [role="tab"], .ant-segmented'),
        ) &&
        !(event.target instanceof Element && event.target.closest('.nb-collection__scroll'));
      if (event.key === 'Escape') {
        if (menuOpen) closeMenu();
        else if (details) state.current.closeDetails();
        else if (c.items.length || state.current.selectingAll.current) c.cmd.deselect();
        return;
      }
      if ((event.key === ' ' || event.key === 'Enter') && onControl) return;
      if (event.key === '?' && !event.ctrlKey && !event.metaKey && !event.altKey) {
        event.preventDefault();
        state.current.showShortcuts();
        return;
      }
      // Backspace and Alt+↑ go up a folder, as in the file managers people know
      const plain = !event.ctrlKey && !event.metaKey && !event.shiftKey;
      if (
        plain &&
        ((event.key === 'Backspace' && !event.altKey) || (event.key === 'ArrowUp' && event.altKey))
      ) {
        const up = state.current.goUp;
        if (up) {
          event.preventDefault();
          up();
        }
        return;
      }
      if (event.key === ' ') {
        if (c.items.length === 1 || details) {
          event.preventDefault();
          if (event.repeat) return;
          if (!details) spaceDownAt.current = Date.now();
          c.cmd.toggleDetails(c.items[0] ?? null);
        }
        return;
      }
      // Ctrl/⌘+X with nothing selected moves the clipboard here (API-NOTES §3)
      if (
        matchShortcut(event, { key: 'x', mod: true }) &&
        c.items.length === 0 &&
        c.clipboard.length > 0 &&
        c.view.writable &&
        c.can(FILE_AUTHORITY.update)
      ) {
        event.preventDefault();
        c.cmd.paste('move');
        return;
      }
      for (const id of shortcuts) {
        const action: FileAction | undefined = actions[id];
        if (!action?.shortcut || !matchShortcut(event, action.shortcut)) continue;
        if (!isEnabled(action, c)) continue;
        event.preventDefault();
        run(action, c);
        return;
      }
    };
    // API-NOTES §3: holding Space more than 0.5 s is a peek; letting go closes the details
    const onKeyUp = (event: KeyboardEvent) => {
      if (event.key !== ' ' || spaceDownAt.current === null) return;
      const held = Date.now() - spaceDownAt.current;
      spaceDownAt.current = null;
      if (held > 500) state.current.closeDetails();
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('keyup', onKeyUp);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('keyup', onKeyUp);
    };
  }, [actions, shortcuts]);
}
