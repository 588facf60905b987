import {
  CloudUploadOutlined,
  CustomerServiceOutlined,
  FolderOutlined,
  PictureOutlined,
  StarOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import type { RouteTitleKey } from '../lib/route-meta';

const TABS: { to: string; title: RouteTitleKey; icon: ReactNode }[] = [
  { to: '/home_m', title: 'home', icon: <FolderOutlined /> },
  { to: '/favorite', title: 'favorite', icon: <StarOutlined /> },
  { to: '/image', title: 'image', icon: <PictureOutlined /> },
  { to: '/video', title: 'video', icon: <VideoCameraOutlined /> },
  { to: '/audio', title: 'audio', icon: <CustomerServiceOutlined /> },
  { to: '/upload/index_m', title: 'fileTransfer', icon: <CloudUploadOutlined /> },
];

/** Bottom navigation of the mobile variant, labelled like spec §2's route labels. */
export function MobileTabBar() {
  const { t } = useTranslation('routes');
  return (
    <nav className="nb-tabbar" aria-label={t('mobileNav')} data-testid="mobile-tabbar">
      {TABS.map((tab) => (
        <NavLink
          key={tab.to}
          to={tab.to}
          className={({ isActive }) => (isActive ? 'active' : undefined)}
        >
          {tab.icon}
          <span>{t(tab.title)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
