import { ArrowLeftOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useBranding } from '../api/branding';
import { MenuType } from '@nimbus/contract';
import { QuotaBar } from './QuotaBar';
import { SideMenu } from './SideMenu';
import { sidebarMenuType } from '../lib/menus';
import { WebDavEntry } from './WebDavEntry';

/** Sidebar content: brand, menu, tags, quota and WebDAV (spec §2 Layout). */
export function Sidebar({ tags }: { tags: ReactNode }) {
  const { t } = useTranslation('layout');
  const { pathname } = useLocation();
  const { name, logo } = useBranding();
  const isMain = sidebarMenuType(pathname) === MenuType.MAIN;
  return (
    <aside className="nb-sidebar" data-testid="sidebar" aria-label={t('nav.sidebar')}>
      <Link to="/" className="nb-sidebar__brand" data-testid="sidebar-brand" title={name}>
        <img src={logo} alt="" />
        <span>{name}</span>
      </Link>
      <div className="nb-sidebar__scroll">
        {!isMain ? (
          <Link to="/" className="nb-section-back">
            <ArrowLeftOutlined />
            {t('nav.backToFiles')}
          </Link>
        ) : null}
        <SideMenu />
        {isMain ? tags : null}
      </div>
      <div className="nb-sidebar__footer">
        <QuotaBar />
        <WebDavEntry />
      </div>
    </aside>
  );
}
