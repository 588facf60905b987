import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { FILE_VIEWS, type FileViewKind } from '../lib/view-kinds';
import { withDriveTexts } from '../i18n';
import { AppShell } from './AppShell';
import { loadAntdProviders } from '../components/antd-loader';
import { FullPageSpin, SessionGate } from './guards';
import type { RouteHandle } from '../lib/route-meta';

function lazyPage<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  name: K,
) {
  return lazy(async () => ({ default: (await load())[name] }));
}

// Only the sign-in page and the guards load with the first visit: Ant Design, the error pages,
// the drive, the share pages and every settings page come in their own chunks when first opened.
const MenuGate = lazyPage(() => import('./menu-gate'), 'MenuGate');
const NotFoundPage = lazyPage(
  () => import('../features/errors/pages/NotFoundPage'),
  'NotFoundPage',
);
// antd and its providers: every page but the sign-in page, which is drawn without them
const AntdLayout = lazyPage(() => import('./AntdLayout'), 'AntdLayout');
const RouteError = lazy(async () => {
  const [{ RouteError: Page }, { AntdProviders }] = await Promise.all([
    import('../features/errors/pages/RouteError'),
    loadAntdProviders(),
  ]);
  return {
    default: () => (
      <AntdProviders>
        <Page />
      </AntdProviders>
    ),
  };
});
const DriveLayout = lazyPage(() => withDriveTexts(import('./DriveLayout')), 'DriveLayout');
const FilesView = lazyPage(() => import('../features/files/components/FilesView'), 'FilesView');
const SearchOrBrowse = lazyPage(
  () => import('../features/search/components/SearchResults'),
  'SearchOrBrowse',
);
const ShareRoot = lazyPage(() => withDriveTexts(import('./ShareRoot')), 'ShareRoot');
const SharePage = lazyPage(() => import('../features/share/pages/SharePage'), 'SharePage');
const TagsPage = lazyPage(() => import('../features/tags/pages/TagsPage'), 'TagsPage');
const TransferPage = lazyPage(
  () => import('../features/upload/pages/TransferPage'),
  'TransferPage',
);
const UserSettingsPage = lazyPage(
  () => import('../features/settings/pages/UserSettingsPage'),
  'UserSettingsPage',
);
const CloudManagerPage = lazyPage(
  () => import('../features/settings/pages/CloudManagerPage'),
  'CloudManagerPage',
);
const TaskProgressPage = lazyPage(
  () => import('../features/tasks/pages/TaskProgressPage'),
  'TaskProgressPage',
);
const UsersPage = lazyPage(() => import('../features/system/pages/UsersPage'), 'UsersPage');
const RolesPage = lazyPage(() => import('../features/system/pages/RolesPage'), 'RolesPage');
const MenusPage = lazyPage(() => import('../features/system/pages/MenusPage'), 'MenusPage');
const ShareListPage = lazyPage(
  () => import('../features/share/pages/ShareListPage'),
  'ShareListPage',
);
const MountsPage = lazyPage(() => import('../features/share/pages/MountsPage'), 'MountsPage');

/** A page of its own chunk: a spinner while it loads. */
function loaded(page: ReactNode): ReactNode {
  return <Suspense fallback={<FullPageSpin />}>{page}</Suspense>;
}

/** A settings page: exists only when the user's menu tree grants its path. */
function gated(page: ReactNode): ReactNode {
  return loaded(<MenuGate>{loaded(page)}</MenuGate>);
}

/** /_m → /home_m keeping the query (spec §2). */
function MobileHomeRedirect() {
  const { search } = useLocation();
  return <Navigate to={`/home_m${search}`} replace />;
}

const FILE_ROUTES: { path: string; kind: FileViewKind }[] = [
  { path: '/recently', kind: 'recently' },
  { path: '/document', kind: 'document' },
  { path: '/audio', kind: 'audio' },
  { path: '/image', kind: 'image' },
  { path: '/video', kind: 'video' },
  { path: '/favorite', kind: 'favorite' },
  { path: '/trash', kind: 'trash' },
];

const settings = (title: RouteHandle['title']): RouteHandle => ({ title, section: 'settings' });

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: loaded(<RouteError />),
    children: [
      { path: '/login', element: <LoginPage />, handle: { title: 'login' } satisfies RouteHandle },
      {
        path: '/login_m',
        element: <LoginPage />,
        handle: { title: 'login' } satisfies RouteHandle,
      },
      {
        element: loaded(<AntdLayout />),
        children: [
          {
            element: loaded(<ShareRoot />),
            children: [
              {
                path: '/s',
                element: loaded(<SharePage />),
                handle: { title: 'share' } satisfies RouteHandle,
              },
              {
                path: '/s/:id',
                element: loaded(<SharePage />),
                handle: { title: 'share' } satisfies RouteHandle,
              },
              {
                path: '/s_m',
                element: loaded(<SharePage />),
                handle: { title: 'share' } satisfies RouteHandle,
              },
            ],
          },
          {
            path: '/404',
            element: loaded(<NotFoundPage />),
            handle: { title: 'notFound' } satisfies RouteHandle,
          },
          {
            element: <SessionGate />,
            children: [
              {
                element: loaded(<DriveLayout />),
                children: [
                  {
                    path: '/',
                    element: loaded(
                      <SearchOrBrowse>
                        <FilesView key="home" kind="home" />
                      </SearchOrBrowse>,
                    ),
                    handle: { title: 'home' } satisfies RouteHandle,
                  },
                  {
                    path: '/_m',
                    element: <MobileHomeRedirect />,
                    handle: { title: 'allFiles' } satisfies RouteHandle,
                  },
                  {
                    path: '/home_m',
                    element: loaded(
                      <SearchOrBrowse>
                        <FilesView key="home_m" kind="home" />
                      </SearchOrBrowse>,
                    ),
                    handle: { title: 'allFiles' } satisfies RouteHandle,
                  },
                  {
                    path: '/upload/index_m',
                    element: loaded(<TransferPage />),
                    handle: { title: 'fileTransfer' } satisfies RouteHandle,
                  },
                  {
                    path: '/tag',
                    element: loaded(
                      <TagsPage filesOfTag={(tagId) => <FilesView key={tagId} kind="tag" />} />,
                    ),
                    handle: { title: 'tags' } satisfies RouteHandle,
                  },
                  ...FILE_ROUTES.map(({ path, kind }) => ({
                    path,
                    element: loaded(<FilesView key={kind} kind={kind} />),
                    handle: { title: FILE_VIEWS[kind].title } satisfies RouteHandle,
                  })),
                  {
                    path: '/mount',
                    element: loaded(<MountsPage />),
                    handle: { title: 'mount' } satisfies RouteHandle,
                  },
                  {
                    path: '/share',
                    element: gated(<ShareListPage />),
                    handle: { title: 'shareList' } satisfies RouteHandle,
                  },
                  {
                    path: '/setting/user',
                    element: gated(<UserSettingsPage />),
                    handle: settings('settingUser'),
                  },
                  {
                    path: '/setting/cloudManager',
                    element: gated(<CloudManagerPage />),
                    handle: settings('settingCloud'),
                  },
                  {
                    path: '/setting/taskProgress',
                    element: gated(<TaskProgressPage />),
                    handle: settings('settingTask'),
                  },
                  {
                    path: '/setting/sys/user',
                    element: gated(<UsersPage />),
                    handle: settings('sysUser'),
                  },
                  {
                    path: '/setting/sys/role',
                    element: gated(<RolesPage />),
                    handle: settings('sysRole'),
                  },
                  {
                    path: '/setting/sys/menu',
                    element: gated(<MenusPage />),
                    handle: settings('sysMenu'),
                  },
                  { path: '/setting', element: <Navigate to="/setting/user" replace /> },
                ],
              },
            ],
          },
          { path: '*', element: <Navigate to="/404" replace /> },
        ],
      },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
