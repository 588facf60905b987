import { Dropdown, type MenuProps } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { actionIcon, visibleChildren } from '../../../actions/registry';
import { visibleShareActions } from '../../../app/action-registry';
import { formatShortcut } from '../../files/shortcuts';
import type { ShareBrowserAction, ShareBrowserContext, ShareT } from '../browser-actions';
import type { ShareMenuRequest } from '../hooks/use-share-handlers';

type MenuItems = NonNullable<MenuProps['items']>;

/** antd menu items for share actions; `run` runs the clicked one. */
function menuItems(
  actions: ShareBrowserAction[],
  ctx: ShareBrowserContext,
  t: ShareT,
  run: (action: ShareBrowserAction) => void,
): MenuItems {
  return actions.map((action) => {
    const children = visibleChildren(action, ctx);
    return {
      key: action.id,
      danger: action.danger,
      icon: actionIcon(action, ctx),
      label: <span data-testid={`action-${action.id}`}>{action.label(t, ctx)}</span>,
      extra: action.shortcut ? formatShortcut(action.shortcut) : undefined,
      ...(children.length
        ? { children: menuItems(children, ctx, t, run), popupClassName: 'nb-action-submenu' }
        : { onClick: () => run(action) }),
    };
  });
}

/** The share's right-click / long-press / "…" menu, opened at a point, like the drive's. */
export function ShareActionMenu({
  request,
  onClose,
}: {
  request: ShareMenuRequest | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['share', 'common']);

  // the page moving under the menu would leave it pointing at nothing
  useEffect(() => {
    if (!request) return;
    const close = () => onClose();
    const onScroll = (event: Event) => {
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
  const actions = visibleShareActions(request.entries, request.ctx);
  if (actions.length === 0) return null;
  const run = (action: ShareBrowserAction) => {
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
      menu={{ items: menuItems(actions, request.ctx, t, run), className: 'nb-action-menu' }}
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
