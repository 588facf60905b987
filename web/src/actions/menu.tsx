import { CheckOutlined } from '@ant-design/icons';
import { Dropdown, type MenuProps } from 'antd';
import { useEffect } from 'react';
import { actionIcon, isEnabled, visibleChildren } from './registry';
import { formatShortcut } from './shortcuts';
import type { Action, ActionScope } from './types';

export type MenuItems = NonNullable<MenuProps['items']>;

/**
 * antd menu items for registry actions (and dividers), in any context: ticks for checked
 * actions, greyed-out disabled ones, shortcuts on the right, sub-menus; `run` runs the clicked one.
 */
export function actionMenuItems<Ctx extends ActionScope, T>(
  actions: readonly (Action<Ctx, T> | '-')[],
  ctx: Ctx,
  t: T,
  run: (action: Action<Ctx, T>) => void,
): MenuItems {
  return actions.map((action, index) => {
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
      ...(children.length
        ? {
            children: actionMenuItems(children, ctx, t, run),
            popupClassName: 'nb-action-submenu',
          }
        : { onClick: () => run(action) }),
    };
  });
}

/**
 * A menu opened at a point of the page (right click, long press, "…"): it closes when the page
 * moves under it (scroll, resize, the window losing focus), since it would point at nothing.
 */
export function PointMenu({
  at,
  items,
  onClose,
}: {
  at: { x: number; y: number } | null;
  items: MenuItems;
  onClose: () => void;
}) {
  useEffect(() => {
    if (!at) return;
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
  }, [at, onClose]);

  if (!at || items.length === 0) return null;
  return (
    <Dropdown
      open
      trigger={['contextMenu']}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      menu={{ items, className: 'nb-action-menu' }}
      rootClassName="nb-context-menu"
      placement="bottomLeft"
      autoAdjustOverflow
      destroyOnHidden
    >
      <span
        className="nb-context-anchor"
        data-testid="context-menu-anchor"
        style={{ left: at.x, top: at.y }}
      />
    </Dropdown>
  );
}
