import type { Action, ActionScope, AuthorityNeed, MenuEntry } from './types';

/** Whether the user's role holds what the action needs (any of several). */
export function isAuthorized<Ctx extends ActionScope, T>(
  action: Action<Ctx, T>,
  ctx: Ctx,
): boolean {
  const need: AuthorityNeed | undefined =
    typeof action.authority === 'function' ? action.authority(ctx) : action.authority;
  if (need === undefined) return true;
  return typeof need === 'string' ? ctx.can(need) : need.some((one) => ctx.can(one));
}

export function isVisible<Ctx extends ActionScope, T>(action: Action<Ctx, T>, ctx: Ctx): boolean {
  return isAuthorized(action, ctx) && (action.visible ? action.visible(ctx) : true);
}

export function isEnabled<Ctx extends ActionScope, T>(action: Action<Ctx, T>, ctx: Ctx): boolean {
  return isVisible(action, ctx) && (action.enabled ? action.enabled(ctx) : true);
}

/** Runs an action when it is offered in this context. */
export function runAction<Ctx extends ActionScope, T>(action: Action<Ctx, T>, ctx: Ctx): void {
  if (isEnabled(action, ctx)) action.run?.(ctx);
}

/** The visible entries of a menu, without leading, trailing or doubled dividers. */
export function visibleEntries<Ctx extends ActionScope, A extends Action<Ctx, never>>(
  entries: readonly MenuEntry[],
  actions: Readonly<Record<string, A>>,
  ctx: Ctx,
): (A | '-')[] {
  const out: (A | '-')[] = [];
  for (const entry of entries) {
    if (entry === '-') {
      if (out.length && out[out.length - 1] !== '-') out.push('-');
      continue;
    }
    const action = actions[entry];
    if (action && isVisible(action, ctx)) out.push(action);
  }
  while (out[out.length - 1] === '-') out.pop();
  return out;
}

/** The visible entries of an action's sub-menu. */
export function visibleChildren<Ctx extends ActionScope, T>(
  action: Action<Ctx, T>,
  ctx: Ctx,
): Action<Ctx, T>[] {
  return (action.children?.(ctx) ?? []).filter((child) => isVisible(child, ctx));
}

export function actionIcon<Ctx extends ActionScope, T>(action: Action<Ctx, T>, ctx: Ctx) {
  return typeof action.icon === 'function' ? action.icon(ctx) : action.icon;
}
