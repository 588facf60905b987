import { createContext, useContext } from 'react';
import type { ActionContext, FileAction } from './file-actions';
import { visibleEntries } from './registry';
import type { MenuEntry } from './types';

/**
 * The one registry of every action on files (ARCHITECTURE §6): each feature contributes its
 * own, app/action-registry.ts assembles them, and app/ hands the registry down through
 * FileActionsContext to the context menu, the toolbar, the keyboard and drag and drop.
 */
export interface FileActionRegistry {
  /** Every action on files, by id. */
  actions: Readonly<Record<string, FileAction>>;
  /** The menu for what was right-clicked: one item, several, or the empty background. */
  menuFor: (ctx: ActionContext) => readonly MenuEntry[];
  /** The actions that answer to keys, in the order they are tried. */
  shortcuts: readonly string[];
}

export const FileActionsContext = createContext<FileActionRegistry | null>(null);

/** The registry app/ provides around the drive's pages. */
export function useFileActions(): FileActionRegistry {
  const registry = useContext(FileActionsContext);
  if (!registry) throw new Error('the file actions are provided by app/ (app/Registries.tsx)');
  return registry;
}

/** The visible actions of a menu layout, without leading, trailing or doubled dividers. */
export function visibleFileActions(
  registry: FileActionRegistry,
  entries: readonly MenuEntry[],
  ctx: ActionContext,
): (FileAction | '-')[] {
  return visibleEntries<ActionContext, FileAction>(entries, registry.actions, ctx);
}
