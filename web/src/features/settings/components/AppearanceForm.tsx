import { LANGUAGES, THEMES, type Language, type Theme } from '@nimbus/contract';
import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { THEME_ICONS } from '../../../components/ThemeSwitch';
import { LANGUAGE_NAMES } from '../../../components/LanguageSwitch';
import { chooseLanguage } from '../../../lib/language';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import { useSetTheme } from '../../../api/use-set-theme';

/** Theme (saved to the account) and language (remembered by this browser). */
export function AppearanceForm() {
  const { t } = useTranslation(['settings', 'common']);
  const theme = useSessionStore((s) => s.theme);
  const lang = useAppStore((s) => s.lang);
  const setTheme = useSetTheme();
  return (
    <Form layout="vertical">
      <Form.Item label={t('appearance.theme')} extra={t('appearance.themeHint')}>
        <Radio.Group
          value={theme}
          onChange={(e) => setTheme(e.target.value as Theme)}
          optionType="button"
          buttonStyle="solid"
          data-testid="settings-theme"
        >
          {THEMES.map((value) => (
            <Radio.Button key={value} value={value}>
              <span
                style={{ display: 'inline-flex', gap: 6 }}
                data-testid={`settings-theme-${value}`}
              >
                {THEME_ICONS[value]}
                {t(`common:theme.${value}`)}
              </span>
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item label={t('appearance.language')} style={{ marginBottom: 0 }}>
        <Radio.Group
          value={lang}
          onChange={(e) => void chooseLanguage(e.target.value as Language)}
          optionType="button"
          data-testid="settings-lang"
        >
          {LANGUAGES.map((value) => (
            <Radio.Button key={value} value={value}>
              <span data-testid={`settings-lang-${value}`}>{LANGUAGE_NAMES[value]}</span>
            </Radio.Button>
          ))}
        </Radio.Group>
      </Form.Item>
    </Form>
  );
}
