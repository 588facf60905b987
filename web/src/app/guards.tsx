import { MenuType, type UserInfo } from '@nimbus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { liveEvents, onLiveMessage } from '../api/events';
import { authKeys, useMenuTree, useUserInfo } from '../api/account';
import { TASK_PROGRESS_ROLE_KEY } from '../lib/task-progress-role';
import { flattenMenus } from '../lib/menus';
import { useAppStore } from '../stores/app';
import { useSessionStore } from '../stores/session';
import { localValue } from '../stores/storage';
import { guardRedirect, loginRedirect } from '../lib/navigation';

/** The whole page waits: a spinner drawn by CSS alone (global.css), no antd needed. */
export function FullPageSpin() {
  const { t } = useTranslation();
  return (
    <div className="nb-full-center" role="status" aria-live="polite">
      <div className="nb-spinner">
        <span className="nb-spinner__ring" aria-hidden="true" />
        <span className="nb-spinner__text">{t('loading')}</span>
      </div>
    </div>
  );
}

/** Applies the navigation rules of spec §2 to every route. */
export function RootGuard({ children }: { children?: ReactNode }) {
  const location = useLocation();
  const token = useSessionStore((s) => s.token);
  const device = useAppStore((s) => s.device);
  const target = guardRedirect(location, Boolean(token), device);
  if (target) return <Navigate to={target} replace />;
  return children ?? <Outlet />;
}

/**
 * Signed-in area: user info is fetched when missing; a failure resets the token and goes to
 * /login?redirect=… (spec §2). Also syncs the theme, the event stream and the task-progress flag.
 */
export function SessionGate() {
  const location = useLocation();
  const token = useSessionStore((s) => s.token);
  const username = useSessionStore((s) => s.username);
  const user = useUserInfo();
  const { data: tree } = useMenuTree();
  const queryClient = useQueryClient();
  const appliedThemeFor = useRef<UserInfo | null>(null);

  useEffect(() => {
    if (user.isError) useSessionStore.getState().resetToken();
  }, [user.isError]);

  // The user's saved theme wins once per fetched user info.
  useEffect(() => {
    const data = user.data;
    if (!data || appliedThemeFor.current === data) return;
    appliedThemeFor.current = data;
    const theme = data.personalization?.theme;
    if (theme && theme !== useSessionStore.getState().theme)
      useSessionStore.getState().setTheme(theme);
    if (!useSessionStore.getState().username && data.username) {
      useSessionStore.setState({ username: data.username, userId: data.id });
    }
  }, [user.data]);

  // spec §2: the task-progress menu grants the task-progress button
  useEffect(() => {
    if (!tree) return;
    const granted = flattenMenus(tree).some(
      (node) => node.path === '/setting/taskProgress' && node.menuType !== MenuType.SKIPPED,
    );
    localValue.set(TASK_PROGRESS_ROLE_KEY, granted ? '1' : null);
  }, [tree]);

  // spec §4: the live stream runs while a username is known
  useEffect(() => {
    if (!token || !username) return;
    liveEvents.connect(username);
    return () => liveEvents.disconnect();
  }, [token, username]);

  // Every file message carries the used space: keep the quota bar live.
  useEffect(
    () =>
      onLiveMessage('fileChange', (message) => {
        if (typeof message.space !== 'number') return;
        queryClient.setQueryData<UserInfo>(authKeys.userInfo, (info) =>
          info ? { ...info, takeUpSpace: message.space as number } : info,
        );
      }),
    [queryClient],
  );

  if (!token || user.isError) {
    return (
      <Navigate
        to={loginRedirect(`${location.pathname}${location.search}${location.hash}`)}
        replace
      />
    );
  }
  if (user.isPending) return <FullPageSpin />;
  return <Outlet />;
}
