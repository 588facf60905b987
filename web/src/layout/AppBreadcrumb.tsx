import { HomeOutlined, SettingOutlined } from '@ant-design/icons';
import { Breadcrumb } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useMatches } from 'react-router';
import { isRouteHandle, routeTitle, type RouteHandle } from '../lib/route-meta';

/** The current page's trail: home (or settings) and the route title. */
export function AppBreadcrumb() {
  const { t } = useTranslation('routes');
  const matches = useMatches();
  const handle = [...matches].reverse().find((m) => isRouteHandle(m.handle) && m.handle.title)
    ?.handle as RouteHandle | undefined;
  const title = handle?.title ? routeTitle(t, handle.title) : '';
  const isHome = handle?.title === 'home' || handle?.title === 'allFiles';
  const items = [
    handle?.section === 'settings'
      ? {
          key: 'settings',
          title: (
            <Link to="/setting/user">
              <SettingOutlined /> <span>{t('settings')}</span>
            </Link>
          ),
        }
      : {
          key: 'home',
          title: (
            <Link to="/" aria-label={t('home')}>
              <HomeOutlined /> {isHome ? <span>{title}</span> : null}
            </Link>
          ),
        },
    ...(!isHome && title ? [{ key: 'page', title: <span aria-current="page">{title}</span> }] : []),
  ];
  return <Breadcrumb items={items} data-testid="breadcrumb" />;
}
