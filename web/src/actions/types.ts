import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';

/**
 * The shapes of the action registry. This module imports no feature: each feature contributes
 * its actions in these terms, and one composition root (app/action-registry.ts) assembles them for the
 * context menu, the toolbar, the keyboard and drag and drop.
 */

/** A key combination; `mod` is Ctrl on Windows/Linux and ⌘ on macOS. */
export interface Shortcut {
  key: string;
  mod?: boolean;
  shift?: boolean;
}

/** An authority string a role grants through its menus (`cloud:file:update`, spec §2). */
export type Authority = string;

/** What every context an action runs in carries: whether the user's role holds an authority. */
export interface ActionScope {
  can: (authority: Authority) => boolean;
}

/** The authorities an action needs: one, or any of several. */
export type AuthorityNeed = Authority | readonly Authority[];

export interface Action<Ctx extends ActionScope, T = TFunction> {
  id: string;
  label: (t: T, ctx: Ctx) => string;
  icon?: ReactNode | ((ctx: Ctx) => ReactNode);
  shortcut?: Shortcut;
  danger?: boolean;
  /** Without this authority the action is hidden (not offered, then refused by the server). */
  authority?: AuthorityNeed | ((ctx: Ctx) => AuthorityNeed | undefined);
  /** Shown at all in this context. */
  visible?: (ctx: Ctx) => boolean;
  /** Shown but greyed out when false. */
  enabled?: (ctx: Ctx) => boolean;
  /** Ticked in a menu (the current view mode or sort). */
  checked?: (ctx: Ctx) => boolean;
  run?: (ctx: Ctx) => void;
  /** A sub-menu. */
  children?: (ctx: Ctx) => Action<Ctx, T>[];
}

/** One entry of a menu layout: an action's id, or a divider. */
export type MenuEntry<Id extends string = string> = Id | '-';
