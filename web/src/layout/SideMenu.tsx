import type { MenuNode } from '@nimbus/contract';
import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { MenuIcon } from '../components/MenuIcon';
import { useMenuTree } from '../api/account';
import { externalTarget, menuLabel, menusOfType, sidebarMenuType } from '../lib/menus';

type MenuItem = Required<MenuProps>['items'][number];

/** The path a menu item is selected for (the mobile home counts as home). */
export function selectedMenuPath(pathname: string): string {
  if (pathname === '/home_m' || pathname === '/_m') return '/';
  return pathname;
}

function toItems(nodes: MenuNode[]): MenuItem[] {
  return nodes.map((node) => {
    const label = menuLabel(node);
    const external = externalTarget(node);
    const icon = <MenuIcon menu={node} />;
    if (node.children?.length) {
      return { key: `group:${node.id}`, icon, label, children: toItems(node.children) };
    }
    return {
      key: node.path ?? node.id,
      icon,
      label: external ? (
        <a
          href={external}
          target="_blank"
          rel="noopener noreferrer"
          data-testid={`menu-${node.id}`}
        >
          {label}
        </a>
      ) : (
        <Link to={node.path ?? '/'} data-testid={`menu-${node.id}`}>
          {label}
        </Link>
      ),
    };
  });
}

/** The sidebar menu from the server's tree: menuType 0 on main routes, 2 on /setting paths. */
export function SideMenu() {
  const { t, i18n } = useTranslation('layout');
  const { pathname } = useLocation();
  const { data: tree } = useMenuTree();
  const menuType = sidebarMenuType(pathname);
  const nodes = useMemo(() => menusOfType(tree ?? [], menuType), [tree, menuType]);
  const language = i18n.language;
  // Labels are translated, so they are rebuilt when the language changes.
  const items = useMemo(() => (language ? toItems(nodes) : []), [nodes, language]);
  const openKeys = useMemo(
    () => nodes.filter((node) => node.children?.length).map((node) => `group:${node.id}`),
    [nodes],
  );
  return (
    <Menu
      key={menuType}
      mode="inline"
      items={items}
      selectedKeys={[selectedMenuPath(pathname)]}
      defaultOpenKeys={openKeys}
      aria-label={t(menuType === 0 ? 'nav.main' : 'nav.settings')}
    />
  );
}
