import type { Language } from '@nimbus/contract';
import { App as AntApp, ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import antdEnUS from 'antd/locale/en_US';
import antdZhCN from 'antd/locale/zh_CN';
import { useEffect, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { antdThemeFor } from '../lib/antd-theme';
import { useColorScheme } from '../lib/color-scheme';
import { bindFeedback } from '../lib/feedback';
import { useAppStore } from '../stores/app';

// Ant Design's providers: around every page but the sign-in page (app/AntdLayout.tsx), which is
// drawn without antd and wraps only its lazy parts (the enrolment step, the language and theme
// menus) in them.

const ANTD_LOCALES: Record<Language, Locale> = { en_US: antdEnUS, zh_CN: antdZhCN };

/** antd's theme, texts and form messages for the scheme and language on screen. */
export function AntdTheme({ children }: { children: ReactNode }) {
  const lang = useAppStore((s) => s.lang);
  const scheme = useColorScheme();
  const theme = useMemo(() => antdThemeFor(scheme), [scheme]);
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
  return (
    <ConfigProvider
      locale={ANTD_LOCALES[lang]}
      theme={theme}
      button={{ autoInsertSpace: false }}
      form={{ validateMessages }}
    >
      {children}
    </ConfigProvider>
  );
}

/** Binds antd's themed message/modal/notification for code outside React. */
function FeedbackBinder() {
  const app = AntApp.useApp();
  useEffect(() => {
    bindFeedback(app);
    return () => bindFeedback(null);
  }, [app]);
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

/** antd's theme with its themed feedback (messages, confirms, notifications). */
export function AntdProviders({ children }: { children: ReactNode }) {
  const device = useAppStore((s) => s.device);
  return (
    <AntdTheme>
      <AntApp
        message={{ maxCount: 3, top: MESSAGE_TOP }}
        notification={{
          placement: 'bottom',
          bottom: device === 'mobile' ? NOTICE_BOTTOM_PHONE : NOTICE_BOTTOM,
          maxCount: 3,
        }}
      >
        <FeedbackBinder />
        {children}
      </AntApp>
    </AntdTheme>
  );
}
