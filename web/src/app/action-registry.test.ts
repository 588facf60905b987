import { describe, expect, it } from 'vitest';
import { FILE_AUTHORITY, authorityCheck } from '../actions/authorities';
import { isEnabled, isVisible } from '../actions/registry';
import type { ActionContext, FileCommands, ViewState } from '../features/files/actions';
import type { FileItem } from '../features/files/types';
import { ACTIONS, MENUS, SHORTCUT_ACTIONS, visibleEntries, type ActionId } from './action-registry';

const item = (id: string, fields: Partial<FileItem> = {}): FileItem => ({
  id,
  name: `${id}.zip`,
  path: '/',
  isFolder: false,
  size: 1,
  contentType: 'application/zip',
  suffix: 'zip',
  type: 'archive',
  uploadDate: '',
  updateDate: '',
  isFavorite: false,
  childrenCount: 0,
  hash: null,
  userId: 'u1',
  agoTime: 0,
  ...fields,
});

const view: ViewState = {
  kind: 'home',
  path: '/',
  writable: true,
  vmode: 'grid',
  sortProp: 'name',
  order: 'ascending',
  total: 3,
};

const context = (granted: string[], fields: Partial<ActionContext> = {}): ActionContext => ({
  items: [item('a')],
  view,
  clipboard: [],
  cmd: {} as FileCommands,
  can: authorityCheck(granted),
  ...fields,
});

const ALL = Object.values(FILE_AUTHORITY);

/** The ids a menu layout shows, sub-menus included. */
const shown = (ctx: ActionContext, ...layouts: (keyof typeof MENUS)[]): string[] =>
  layouts.flatMap((layout) =>
    visibleEntries(MENUS[layout], ctx).flatMap((entry) =>
      entry === '-'
        ? []
        : [
            entry.id,
            ...(entry.children?.(ctx) ?? []).filter((c) => isVisible(c, ctx)).map((c) => c.id),
          ],
    ),
  );

describe('one action registry', () => {
  it('holds the files, share and tags actions under their own ids', () => {
    for (const [id, action] of Object.entries(ACTIONS)) expect(action.id).toBe(id);
    expect(Object.keys(ACTIONS)).toEqual(expect.arrayContaining(['share', 'tags', 'open']));
    for (const layout of Object.values(MENUS))
      for (const entry of layout) if (entry !== '-') expect(ACTIONS).toHaveProperty(entry);
  });

  it('offers every action to a role that holds every file authority', () => {
    const ctx = context(ALL);
    expect(shown(ctx, 'item')).toEqual(MENUS.item.filter((e) => e !== '-' && e !== 'unmount'));
    expect(shown(context(['*']), 'item')).toEqual(shown(ctx, 'item'));
  });

  const needs: Record<string, ActionId[]> = {
    // versions are part of what a download gives
    [FILE_AUTHORITY.download]: ['download', 'history'],
    [FILE_AUTHORITY.share]: ['share'],
    [FILE_AUTHORITY.update]: ['tags', 'cut', 'rename'],
    // paste with nothing cut makes copies
    [FILE_AUTHORITY.upload]: ['copy', 'duplicate', 'extract', 'new', 'newFolder', 'paste'],
    [FILE_AUTHORITY.delete]: ['delete', 'restore', 'deleteForever', 'emptyTrash'],
  };

  for (const [authority, ids] of Object.entries(needs)) {
    it(`hides what ${authority} grants when the role lacks it, and nothing else`, () => {
      const without = ALL.filter((a) => a !== authority);
      const trash = { ...view, kind: 'trash' as const, writable: false };
      const lacking = [
        ...shown(context(without), 'item', 'background'),
        ...shown(context(without, { view: trash }), 'trashItem', 'trashBackground'),
      ];
      const holding = [
        ...shown(context(ALL), 'item', 'background'),
        ...shown(context(ALL, { view: trash }), 'trashItem', 'trashBackground'),
      ];
      for (const id of ids) {
        expect(holding).toContain(id);
        expect(lacking).not.toContain(id);
      }
      // the new-document kinds go with their sub-menu
      const gone = holding.filter((id) => !lacking.includes(id) && !id.startsWith('new-'));
      expect(gone.sort()).toEqual([...new Set(ids)].sort());
    });
  }

  it('moves and copies with either of editing and uploading, and pastes by the clipboard mode', () => {
    const moveCopy = ACTIONS.moveCopy;
    expect(isVisible(moveCopy, context([FILE_AUTHORITY.update]))).toBe(true);
    expect(isVisible(moveCopy, context([FILE_AUTHORITY.upload]))).toBe(true);
    expect(isVisible(moveCopy, context([FILE_AUTHORITY.download]))).toBe(false);
    const entry = { id: 'a', name: 'a', path: '/', isFolder: false };
    const cut = { items: [], clipboard: [{ ...entry, mode: 'cut' as const }] };
    const copied = { items: [], clipboard: [{ ...entry, mode: 'copy' as const }] };
    expect(isEnabled(ACTIONS.paste, context([FILE_AUTHORITY.update], cut))).toBe(true);
    expect(isVisible(ACTIONS.paste, context([FILE_AUTHORITY.upload], cut))).toBe(false);
    expect(isEnabled(ACTIONS.paste, context([FILE_AUTHORITY.upload], copied))).toBe(true);
    expect(isVisible(ACTIONS.paste, context([FILE_AUTHORITY.update], copied))).toBe(false);
  });

  it('answers no key with an action the role lacks', () => {
    const ctx = context([]);
    const offered = SHORTCUT_ACTIONS.filter((id) => isEnabled(ACTIONS[id], ctx));
    expect(offered).toEqual(['selectAll', 'details', 'open']);
  });
});
