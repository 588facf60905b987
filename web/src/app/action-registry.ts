import { visibleEntries as visibleOf } from '../actions/registry';
import type { MenuEntry as AnyMenuEntry } from '../actions/types';
import type { ActionContext, FileAction } from '../actions/file-actions';
import type { FileActionRegistry } from '../actions/file-registry';
import { FILE_ACTIONS } from '../features/files/actions';
import { HISTORY_FILE_ACTIONS } from '../features/history/file-action';
import { SHARE_FILE_ACTIONS } from '../features/share/file-action';
import { TAG_FILE_ACTIONS } from '../features/tags/file-action';

/**
 * The one registry of every action on files (ARCHITECTURE §6): each feature contributes its
 * own, and the context menu, the toolbar, the keyboard and drag and drop read them through
 * FileActionsContext (actions/file-registry.ts).
 */
export const ACTIONS = {
  ...FILE_ACTIONS,
  ...SHARE_FILE_ACTIONS,
  ...TAG_FILE_ACTIONS,
  ...HISTORY_FILE_ACTIONS,
} satisfies Record<string, FileAction>;

export type ActionId = keyof typeof ACTIONS;

export type MenuEntry = AnyMenuEntry<ActionId>;

/** spec / API-NOTES §3: dividers after Download and Details and before Delete. */
export const MENUS = {
  item: [
    'open',
    'download',
    '-',
    'share',
    'tags',
    'favorite',
    'details',
    'history',
    '-',
    'copy',
    'cut',
    'rename',
    'moveCopy',
    'duplicate',
    'extract',
    '-',
    'delete',
    'unmount',
  ],
  multi: [
    'deselect',
    'download',
    '-',
    'tags',
    'favorite',
    'copy',
    'cut',
    'moveCopy',
    '-',
    'delete',
  ],
  trashItem: ['restore', 'details', '-', 'deleteForever'],
  trashMulti: ['deselect', 'restore', '-', 'deleteForever'],
  background: ['view', 'arrange', 'refresh', '-', 'new', 'paste', '-', 'selectAll'],
  trashBackground: ['view', 'arrange', 'refresh', '-', 'selectAll', '-', 'emptyTrash'],
} satisfies Record<string, MenuEntry[]>;

/** The menu for what was right-clicked: one item, several, or the empty background. */
export function menuFor(ctx: ActionContext): MenuEntry[] {
  const trash = ctx.view.kind === 'trash';
  if (ctx.items.length === 0) return trash ? MENUS.trashBackground : MENUS.background;
  if (ctx.items.length === 1) return trash ? MENUS.trashItem : MENUS.item;
  return trash ? MENUS.trashMulti : MENUS.multi;
}

/** The visible actions of a menu layout, without leading, trailing or doubled dividers. */
export function visibleEntries(
  entries: readonly MenuEntry[],
  ctx: ActionContext,
): (FileAction | '-')[] {
  return visibleOf<ActionContext, FileAction>(entries, ACTIONS, ctx);
}

/** The actions that answer to keys, in the order they are tried. */
export const SHORTCUT_ACTIONS: ActionId[] = [
  'rename',
  'delete',
  'unmount',
  'deleteForever',
  'copy',
  'cut',
  'paste',
  'duplicate',
  'selectAll',
  'details',
  'open',
];

/** The registry app/ hands down through FileActionsContext (app/Registries.tsx). */
export const FILE_ACTION_REGISTRY: FileActionRegistry = {
  actions: ACTIONS,
  menuFor,
  shortcuts: SHORTCUT_ACTIONS,
};
