import { CheckOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { actionIcon, isEnabled, visibleChildren } from '../../../actions/registry';
import { visibleEntries, type MenuEntry } from '../../../app/action-registry';
import type { ActionContext, FileAction } from '../actions';
import { formatShortcut } from '../shortcuts';

type MenuItems = NonNullable<MenuProps['items']>;

/** antd menu items for a layout of registry actions; `onRun` runs the clicked one. */
export function useActionMenuItems() {
  const { t } = useTranslation('files');

  const build = (
    actions: (FileAction | '-')[],
    ctx: ActionContext,
    run: (a: FileAction) => void,
  ): MenuItems =>
    actions.map((action, index) => {
      if (action === '-') return { type: 'divider' as const, key: `divider-${index}` };
      const children = visibleChildren(action, ctx);
      const checked = action.checked?.(ctx);
      return {
        key: action.id,
        danger: action.danger,
        disabled: !isEnabled(action, ctx),
        icon: checked ? (
          <CheckOutlined />
        ) : (
          (actionIcon(action, ctx) ??
          (action.checked ? <span className="nb-menu-spacer" /> : undefined))
        ),
        label: <span data-testid={`action-${action.id}`}>{action.label(t, ctx)}</span>,
        extra: action.shortcut ? formatShortcut(action.shortcut) : undefined,
        ...(children?.length
          ? { children: build(children, ctx, run), popupClassName: 'nb-action-submenu' }
          : { onClick: () => run(action) }),
      };
    });

  const forEntries = (
    entries: readonly MenuEntry[],
    ctx: ActionContext,
    run: (a: FileAction) => void,
  ) => build(visibleEntries(entries, ctx), ctx, run);
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

  // the page moving under the menu would leave it pointing at nothing
  useEffect(() => {
    if (!request) return;
    const close = () => onClose();
    const onScroll = (event: Event) => {
      // scrolling inside the menu itself (a long sub-menu) keeps it
      if (event.target instanceof Element && event.target.closest('.nb-context-menu')) return;
      onClose();
    };
    window.addEventListener('resize', close);
    window.addEventListener('blur', close);
    window.addEventListener('scroll', onScroll, true);
    return () => {
      window.removeEventListener('resize', close);
      window.removeEventListener('blur', close);
      window.removeEventListener('scroll', onScroll, true);
    };
  }, [request, onClose]);

  if (!request) return null;
  const run = (action: FileAction) => {
    onClose();
    action.run?.(request.ctx);
  };
  return (
    <Dropdown
      open
      trigger={['contextMenu']}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      menu={{ items: items(request.entries, request.ctx, run), className: 'nb-action-menu' }}
      rootClassName="nb-context-menu"
      placement="bottomLeft"
      autoAdjustOverflow
      destroyOnHidden
    >
      <span
        className="nb-context-anchor"
        data-testid="context-menu-anchor"
        style={{ left: request.x, top: request.y }}
      />
    </Dropdown>
  );
}
