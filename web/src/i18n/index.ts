import { FALLBACK_LANGUAGE, type Language } from '@nimbus/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useAppStore } from '../stores/app';
import en_US from './en_US';
import { htmlLang } from './languages';
import zh_CN from './zh_CN';

export const defaultNS = 'common';
export const resources = { en_US, zh_CN } as const;

const DAYJS_LOCALES: Record<Language, string> = { en_US: 'en', zh_CN: 'zh-cn' };

function applyLanguage(language: Language): void {
  dayjs.locale(DAYJS_LOCALES[language]);
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(language);
}

const initial = useAppStore.getState().lang;

void i18n.use(initReactI18next).init({
  resources,
  lng: initial,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: ['en_US', 'zh_CN'],
  load: 'currentOnly',
  ns: Object.keys(en_US),
  defaultNS,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});
applyLanguage(initial);

/** Switches the UI language: i18next, dayjs, the html lang and the remembered choice follow. */
export function changeLanguage(language: Language): void {
  useAppStore.getState().setLang(language);
  applyLanguage(language);
  void i18n.changeLanguage(language);
}

/** Translates a key built at run time (e.g. `errors:<code>`), which the typed `t` cannot check. */
export function translateKey(key: string): string {
  return (i18n.t as (key: string) => string)(key);
}

export default i18n;
