import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/pages/LoginPage';
import { NotFoundPage } from '../features/errors/pages/NotFoundPage';
import { RouteError } from '../features/errors/pages/RouteError';
import { FilesView } from '../features/files/components/FilesView';
import { FILE_VIEWS, type FileViewKind } from '../features/files/view-kinds';
import { SearchOrBrowse } from '../features/search/components/SearchResults';
import { SharePage } from '../features/share/pages/SharePage';
import { ShareLayout } from '../features/share/pages/ShareLayout';
import { TagsPage } from '../features/tags/pages/TagsPage';
import { TransferPage } from '../features/upload/pages/TransferPage';
import { MainLayout } from '../layout/MainLayout';
import { AppShell } from './AppShell';
import { FullPageSpin, MenuGate, SessionGate } from './guards';
import type { RouteHandle } from './route-meta';

function lazyPage<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return lazy(async () => ({ default: (await load())[name] }));
}

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

/** A settings page: exists only when the user's menu tree grants its path. */
function gated(page: ReactNode): ReactNode {
  return (
    <MenuGate>
      <Suspense fallback={<FullPageSpin />}>{page}</Suspense>
    </MenuGate>
  );
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
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: <LoginPage />, handle: { title: 'login' } satisfies RouteHandle },
      {
        path: '/login_m',
        element: <LoginPage />,
        handle: { title: 'login' } satisfies RouteHandle,
      },
      {
        element: <ShareLayout />,
        children: [
          { path: '/s', element: <SharePage />, handle: { title: 'share' } satisfies RouteHandle },
          {
            path: '/s/:id',
            element: <SharePage />,
            handle: { title: 'share' } satisfies RouteHandle,
          },
          {
            path: '/s_m',
            element: <SharePage />,
            handle: { title: 'share' } satisfies RouteHandle,
          },
        ],
      },
      {
        path: '/404',
        element: <NotFoundPage />,
        handle: { title: 'notFound' } satisfies RouteHandle,
      },
      {
        element: <SessionGate />,
        children: [
          {
            element: <MainLayout />,
            children: [
              {
                path: '/',
                element: (
                  <SearchOrBrowse>
                    <FilesView key="home" kind="home" />
                  </SearchOrBrowse>
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
                element: (
                  <SearchOrBrowse>
                    <FilesView key="home_m" kind="home" />
                  </SearchOrBrowse>
                ),
                handle: { title: 'allFiles' } satisfies RouteHandle,
              },
              {
                path: '/upload/index_m',
                element: <TransferPage />,
                handle: { title: 'fileTransfer' } satisfies RouteHandle,
              },
              {
                path: '/tag',
                element: <TagsPage />,
                handle: { title: 'tags' } satisfies RouteHandle,
              },
              ...FILE_ROUTES.map(({ path, kind }) => ({
                path,
                element: <FilesView key={kind} kind={kind} />,
                handle: { title: FILE_VIEWS[kind].title } satisfies RouteHandle,
              })),
              {
                path: '/mount',
                element: (
                  <Suspense fallback={<FullPageSpin />}>
                    <MountsPage />
                  </Suspense>
                ),
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
];

export function createRouter() {
  return createBrowserRouter(routes);
}
