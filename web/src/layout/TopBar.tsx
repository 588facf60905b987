import { MenuFoldOutlined, MenuOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { MenuType } from '@nimbus/contract';
import { Button, Layout, Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { MenuIcon } from '../components/MenuIcon';
import { ThemeSwitch } from '../components/ThemeSwitch';
import { useMenuTree } from '../api/account';
import { useAppStore } from '../stores/app';
import { AppBreadcrumb } from './AppBreadcrumb';
import type { LayoutParts } from './parts';
import { externalTarget, menuLabel, menusOfType } from '../lib/menus';
import { UserMenu } from './UserMenu';

/** Top-route buttons: the menuType 3 items (spec §2). */
function TopRoutes() {
  useTranslation(); // labels follow the language
  const { data: tree } = useMenuTree();
  const isMobile = useAppStore((s) => s.device === 'mobile');
  const nodes = useMemo(() => menusOfType(tree ?? [], MenuType.TOP_BAR), [tree]);
  return nodes.map((node) => {
    const label = menuLabel(node);
    const external = externalTarget(node);
    const content = (
      <Button
        type="text"
        icon={<MenuIcon menu={node} />}
        aria-label={isMobile ? label : undefined}
        data-testid={`top-route-${node.id}`}
      >
        {isMobile ? null : label}
      </Button>
    );
    const link = external ? (
      <a key={node.id} href={external} target="_blank" rel="noopener noreferrer">
        {content}
      </a>
    ) : (
      <Link key={node.id} to={node.path ?? '/'}>
        {content}
      </Link>
    );
    return isMobile ? (
      <Tooltip key={node.id} title={label}>
        {link}
      </Tooltip>
    ) : (
      link
    );
  });
}

interface TopBarProps extends Pick<LayoutParts, 'search' | 'tasks' | 'onSignOut'> {
  showSidebarToggle: boolean;
}

export function TopBar({ showSidebarToggle, search, tasks, onSignOut }: TopBarProps) {
  const { t } = useTranslation('layout');
  const isMobile = useAppStore((s) => s.device === 'mobile');
  const opened = useAppStore((s) => (isMobile ? s.drawerOpened : s.sidebar.opened));
  const toggleSidebar = useAppStore((s) => s.toggleSidebar);
  return (
    <Layout.Header className="nb-topbar" role="banner">
      {showSidebarToggle ? (
        <Button
          type="text"
          onClick={toggleSidebar}
          icon={
            isMobile ? <MenuOutlined /> : opened ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />
          }
          aria-label={opened ? t('sidebar.hide') : t('sidebar.show')}
          aria-expanded={opened}
          data-testid={isMobile ? 'mobile-menu-toggle' : 'sidebar-toggle'}
        />
      ) : null}
      <div className="nb-topbar__crumb">
        <AppBreadcrumb />
      </div>
      {search}
      <div className="nb-topbar__actions">
        {tasks}
        <TopRoutes />
        <LanguageSwitch />
        <ThemeSwitch />
        <UserMenu onSignOut={onSignOut} />
      </div>
    </Layout.Header>
  );
}
