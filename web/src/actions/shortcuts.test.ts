import { describe, expect, it } from 'vitest';
import { formatShortcut, matchShortcut } from './shortcuts';

const key = (
  k: string,
  mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {},
) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('shortcuts', () => {
  it('uses Ctrl on Windows and Linux, ⌘ on macOS', () => {
    expect(matchShortcut(key('c', { ctrlKey: true }), { key: 'c', mod: true }, false)).toBe(true);
    expect(matchShortcut(key('c', { metaKey: true }), { key: 'c', mod: true }, false)).toBe(false);
    expect(matchShortcut(key('c', { metaKey: true }), { key: 'c', mod: true }, true)).toBe(true);
    expect(matchShortcut(key('c', { ctrlKey: true }), { key: 'c', mod: true }, true)).toBe(false);
  });

  it('does not fire a plain key shortcut with a modifier held', () => {
    expect(matchShortcut(key('F2'), { key: 'F2' }, false)).toBe(true);
    expect(matchShortcut(key('F2', { ctrlKey: true }), { key: 'F2' }, false)).toBe(false);
    expect(matchShortcut(key('Delete', { altKey: true }), { key: 'Delete' }, false)).toBe(false);
    expect(matchShortcut(key('c'), { key: 'c', mod: true }, false)).toBe(false);
  });

  it('ignores the case Caps Lock or Shift gives a letter', () => {
    expect(matchShortcut(key('A', { ctrlKey: true }), { key: 'a', mod: true }, false)).toBe(true);
    expect(
      matchShortcut(
        key('N', { ctrlKey: true, shiftKey: true }),
        { key: 'n', mod: true, shift: false },
        false,
      ),
    ).toBe(false);
  });

  it('reads like the platform writes it', () => {
    expect(formatShortcut({ key: 'c', mod: true }, true)).toBe('⌘C');
    expect(formatShortcut({ key: 'c', mod: true }, false)).toBe('Ctrl+C');
    expect(formatShortcut({ key: 'Delete' }, false)).toBe('Del');
    expect(formatShortcut({ key: ' ' }, false)).toBe('Space');
    expect(formatShortcut({ key: 'F2' }, true)).toBe('F2');
  });
});
