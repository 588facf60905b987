import { SIDEBAR_WIDTH } from '@nimbus/contract';
import { Drawer, Layout } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { isMobileUserAgent } from '../stores/device';
import { useAppStore } from '../stores/app';
import { useSessionStore } from '../stores/session';
import { MobileTabBar } from './MobileTabBar';
import type { LayoutParts } from './parts';
import { Sidebar } from './Sidebar';
import { TopBar } from './TopBar';
import '../i18n/drive-texts';

const DRAWER_WIDTH = 248;

/**
 * spec §2 Layout: the sidebar (a drawer on mobile), the top bar with breadcrumb, and the page.
 * No sidebar on /s/ paths or without a token; phones get a bottom tab bar outside /setting.
 */
export function MainLayout({ search, tasks, tags, hosts, onSignOut }: LayoutParts) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const token = useSessionStore((s) => s.token);
  const device = useAppStore((s) => s.device);
  const opened = useAppStore((s) => s.sidebar.opened);
  const drawerOpened = useAppStore((s) => s.drawerOpened);
  const setDrawerOpened = useAppStore((s) => s.setDrawerOpened);
  const isMobile = device === 'mobile';
  const hasSidebar = Boolean(token) && !pathname.startsWith('/s/');
  const showTabBar = isMobileUserAgent() && !pathname.startsWith('/setting');

  // spec §2: a route change closes the mobile drawer
  useEffect(() => {
    useAppStore.getState().setDrawerOpened(false);
  }, [pathname]);

  return (
    <Layout className="nb-layout" hasSider={hasSidebar && !isMobile}>
      {hasSidebar && !isMobile ? (
        <Layout.Sider
          className="nb-sider"
          width={SIDEBAR_WIDTH}
          collapsedWidth={0}
          collapsed={!opened}
          trigger={null}
          inert={!opened}
        >
          <Sidebar tags={tags} />
        </Layout.Sider>
      ) : null}
      {hasSidebar && isMobile ? (
        <Drawer
          placement="left"
          open={drawerOpened}
          onClose={() => setDrawerOpened(false)}
          size={DRAWER_WIDTH}
          closable={false}
          title={null}
          aria-label={t('nav.sidebar')}
          styles={{ body: { padding: 0 } }}
          className="nb-drawer"
        >
          <Sidebar tags={tags} />
        </Drawer>
      ) : null}
      <div className="nb-main">
        <TopBar
          showSidebarToggle={hasSidebar}
          search={search}
          tasks={tasks}
          onSignOut={onSignOut}
        />
        <Layout.Content className="nb-content" id="main-content">
          <Outlet />
        </Layout.Content>
        {showTabBar ? <MobileTabBar /> : null}
      </div>
      {hosts}
    </Layout>
  );
}
