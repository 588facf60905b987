import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { useBranding } from '../api/branding';
import { useColorScheme } from '../lib/color-scheme';
import { isRouteHandle, routeTitle, type RouteHandle } from '../lib/route-meta';
import { useDeviceWatcher } from '../stores/device';
import { RootGuard } from './guards';

/** document.title = "<route title> - <drive name>" (spec §2). */
function DocumentTitle() {
  const { t } = useTranslation('routes');
  const matches = useMatches();
  const { name } = useBranding();
  const handle = [...matches].reverse().find((m) => isRouteHandle(m.handle) && m.handle.title)
    ?.handle as RouteHandle | undefined;
  const title = handle?.title ? routeTitle(t, handle.title) : '';
  useEffect(() => {
    document.title = title ? `${title} - ${name}` : name;
  }, [title, name]);
  return null;
}

/**
 * Root route element: what every page needs, without Ant Design (the sign-in page is drawn
 * without it): the theme on <html>, the title, device tracking and the navigation guard.
 * Ant Design's providers wrap every other page (AntdLayout.tsx, loaded with them).
 */
export function AppShell() {
  const scheme = useColorScheme();
  useDeviceWatcher();

  useEffect(() => {
    document.documentElement.dataset.theme = scheme;
  }, [scheme]);

  return (
    <>
      <DocumentTitle />
      <RootGuard />
    </>
  );
}
