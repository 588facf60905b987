import type { Shortcut } from './types';

export type { Shortcut };

type KeyLike = Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>;

export function isMacPlatform(): boolean {
  if (typeof navigator === 'undefined') return false;
  return /Mac|iPhone|iPad|iPod/i.test(navigator.platform || navigator.userAgent);
}

export function matchShortcut(event: KeyLike, shortcut: Shortcut, mac = isMacPlatform()): boolean {
  const mod = mac ? event.metaKey : event.ctrlKey;
  if (Boolean(shortcut.mod) !== mod) return false;
  // the other modifier must be up: ⌘ on Windows is the Windows key, Ctrl on a Mac is its own thing
  if (mac ? event.ctrlKey : event.metaKey) return false;
  if (event.altKey) return false;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const want = shortcut.key.length === 1 ? shortcut.key.toLowerCase() : shortcut.key;
  if (key !== want) return false;
  // Shift changes letters to capitals, which we already folded; it must match when asked for
  return shortcut.shift === undefined || shortcut.shift === event.shiftKey;
}

const KEY_NAMES: Record<string, string> = {
  ' ': 'Space',
  Delete: 'Del',
  Escape: 'Esc',
  Enter: 'Enter',
};

/** "⌘C" on a Mac, "Ctrl+C" elsewhere. */
export function formatShortcut(shortcut: Shortcut, mac = isMacPlatform()): string {
  const key =
    KEY_NAMES[shortcut.key] ??
    (shortcut.key.length === 1 ? shortcut.key.toUpperCase() : shortcut.key);
  if (mac) return `${shortcut.shift ? '⇧' : ''}${shortcut.mod ? '⌘' : ''}${key}`;
  return [shortcut.mod ? 'Ctrl' : '', shortcut.shift ? 'Shift' : '', key].filter(Boolean).join('+');
}

/**
 * Whether a dialog (an editor, a viewer, a question) is open over the page. Its keys are its
 * own even when the focus fell back to the page's body (a button that had it went away).
 */
export function isDialogOpen(doc: Document = document): boolean {
  return Array.from(
    doc.querySelectorAll<HTMLElement>('.ant-modal-wrap, .ant-image-preview-wrap'),
  ).some((wrap) => wrap.style.display !== 'none');
}

/** Typing in a field, or a dialog on top: the page's own shortcuts stay out of it. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return true;
  if (target.closest('.ant-modal-root, .ant-image-preview-root, .ant-dropdown')) return true;
  return isDialogOpen(target.ownerDocument);
}
