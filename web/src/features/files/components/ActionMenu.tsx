import { useTranslation } from 'react-i18next';
import { actionMenuItems, PointMenu } from '../../../actions/menu';
import { useFileActions, visibleFileActions } from '../../../actions/file-registry';
import type { MenuEntry } from '../../../actions/types';
import type { ActionContext, FileAction } from '../actions';

/** antd menu items for a layout of registry actions; `onRun` runs the clicked one. */
export function useActionMenuItems() {
  const { t } = useTranslation('files');
  const registry = useFileActions();
  const build = (actions: (FileAction | '-')[], ctx: ActionContext, run: (a: FileAction) => void) =>
    actionMenuItems(actions, ctx, t, run);
  const forEntries = (
    entries: readonly MenuEntry[],
    ctx: ActionContext,
    run: (a: FileAction) => void,
  ) => build(visibleFileActions(registry, entries, ctx), ctx, run);
  forEntries.actions = build;
  return forEntries;
}

export interface MenuRequest {
  x: number;
  y: number;
  ctx: ActionContext;
  entries: readonly MenuEntry[];
}

/** The right-click / long-press / "…" menu, opened at a point. */
export function ContextMenu({
  request,
  onClose,
}: {
  request: MenuRequest | null;
  onClose: () => void;
}) {
  const items = useActionMenuItems();
  const run = (action: FileAction) => {
    onClose();
    action.run?.(request!.ctx);
  };
  return (
    <PointMenu
      at={request}
      items={request ? items(request.entries, request.ctx, run) : []}
      onClose={onClose}
    />
  );
}
