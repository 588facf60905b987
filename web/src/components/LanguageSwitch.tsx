import { LANGUAGES, type Language } from '@nimbus/contract';
import { useTranslation } from 'react-i18next';
import { chooseLanguage } from '../lib/language';
import { useAppStore } from '../stores/app';
import { GlobeIcon } from './icons';
import { LazyDropdown } from './LazyDropdown';

export const LANGUAGE_NAMES: Record<Language, string> = { en_US: 'English', zh_CN: '简体中文' };

/** Top-bar language menu (`lang-switch`, options `lang-en_US` / `lang-zh_CN`). */
export function LanguageSwitch() {
  const { t } = useTranslation();
  const lang = useAppStore((s) => s.lang);
  return (
    <LazyDropdown
      tip={t('language')}
      menu={{
        selectable: true,
        selectedKeys: [lang],
        items: LANGUAGES.map((language) => ({
          key: language,
          label: (
            <span data-testid={`lang-${language}`} lang={language === 'zh_CN' ? 'zh-CN' : 'en'}>
              {LANGUAGE_NAMES[language]}
            </span>
          ),
        })),
        onClick: ({ key }) => void chooseLanguage(key as Language),
      }}
    >
      <button
        type="button"
        className="nb-icon-button"
        aria-label={t('language')}
        data-testid="lang-switch"
      >
        <GlobeIcon />
      </button>
    </LazyDropdown>
  );
}
