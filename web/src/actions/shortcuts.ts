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

/** Typing in a field, or a dialog on top: the browser's own shortcuts stay in charge. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return true;
  return Boolean(target.closest('.ant-modal-root, .ant-image-preview-root, .ant-dropdown'));
}
