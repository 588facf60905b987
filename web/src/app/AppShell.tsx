import { App as AntApp, ConfigProvider } from 'antd';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { AudioPlayerHost } from '../features/media/components/AudioPlayerHost';
import { antdLocale } from '../i18n';
import { useAppStore } from '../stores/app';
import { useBranding } from '../lib/branding';
import { useDeviceWatcher } from '../stores/device';
import { bindFeedback } from '../lib/feedback';
import { RootGuard } from './guards';
import { useColorScheme } from '../lib/color-scheme';
import { isRouteHandle, routeTitle, type RouteHandle } from '../lib/route-meta';
import { antdThemeFor } from '../lib/theme';

/** Binds antd's themed message/modal/notification for code outside React. */
function FeedbackBinder() {
  const app = AntApp.useApp();
  useEffect(() => {
    bindFeedback(app);
    return () => bindFeedback(null);
  }, [app]);
  return null;
}

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

/*
 * Where what an action says stands, covering no control: a short message just below the top
 * bar's middle (the bar is 56 px high), a notification at the bottom centre, on a phone above
 * the tab bar.
 */
const MESSAGE_TOP = 64;
const NOTICE_BOTTOM = 24;
const NOTICE_BOTTOM_PHONE = 72;

/** Root route element: theme, locale, feedback, title, device tracking and the navigation guard. */
export function AppShell() {
  const lang = useAppStore((s) => s.lang);
  const device = useAppStore((s) => s.device);
  const scheme = useColorScheme();
  const theme = useMemo(() => antdThemeFor(scheme), [scheme]);
  useDeviceWatcher();
  const { t } = useTranslation('common');
  // every form check speaks Nimbus's words, not Ant Design's defaults
  const validateMessages = useMemo(() => {
    const tooLong = t('validation.tooLong');
    const tooShort = t('validation.tooShort');
    const outOfRange = t('validation.outOfRange');
    return {
      required: t('validation.required'),
      types: Object.fromEntries(
        ['string', 'number', 'email', 'url', 'integer', 'float', 'date'].map((type) => [
          type,
          t('validation.badType'),
        ]),
      ),
      string: { max: tooLong, min: tooShort, range: outOfRange },
      number: { range: outOfRange },
      pattern: { mismatch: t('validation.badPattern') },
    };
  }, [t]);

  useEffect(() => {
    document.documentElement.dataset.theme = scheme;
  }, [scheme]);

  return (
    <ConfigProvider
      locale={antdLocale(lang)}
      theme={theme}
      button={{ autoInsertSpace: false }}
      form={{ validateMessages }}
    >
      <AntApp
        message={{ maxCount: 3, top: MESSAGE_TOP }}
        notification={{
          placement: 'bottom',
          bottom: device === 'mobile' ? NOTICE_BOTTOM_PHONE : NOTICE_BOTTOM,
          maxCount: 3,
        }}
      >
        <FeedbackBinder />
        <DocumentTitle />
        <RootGuard />
        <AudioPlayerHost />
      </AntApp>
    </ConfigProvider>
  );
}
