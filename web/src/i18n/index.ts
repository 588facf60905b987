import { FALLBACK_LANGUAGE, type Language } from '@nimbus/contract';
import dayjs from 'dayjs';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { useAppStore } from '../stores/app';
import core from './core.en_US';
import { htmlLang } from '../stores/language';

export const defaultNS = 'common';

/** One language's texts (Ant Design's come with the drive: components/AntdProviders.tsx). */
interface LanguageBundle {
  messages: object;
}

// English is the fallback and comes with the app; other languages load when chosen.
const bundles: Partial<Record<Language, LanguageBundle>> = {
  en_US: { messages: core },
};
const LOADERS: Record<Language, () => Promise<LanguageBundle>> = {
  en_US: () => Promise.resolve(bundles.en_US!),
  zh_CN: async () => (await import('./zh-bundle')).default,
};

/**
 * Texts of the drive and the share pages, apart from the first page's: English comes with those
 * pages (drive-texts.ts), another language's when they first open in it, or when it is chosen
 * after they have opened.
 */
const DRIVE_LOADERS: Record<Language, (() => Promise<object>) | null> = {
  en_US: null,
  zh_CN: async () => (await import('./drive.zh_CN')).default,
};
let driveWanted = false;
const driveLoaded = new Set<Language>(['en_US']);

async function loadDrive(language: Language): Promise<void> {
  const loader = DRIVE_LOADERS[language];
  if (!driveWanted || driveLoaded.has(language) || !loader) return;
  const messages = await loader();
  for (const [ns, texts] of Object.entries(messages))
    i18n.addResourceBundle(language, ns, texts, true, true);
  driveLoaded.add(language);
}

/**
 * Called once the drive's or a share page's code is here: their texts in the language on
 * screen. A failure leaves those pages in English rather than not opening them.
 */
export async function loadDriveTexts(): Promise<void> {
  driveWanted = true;
  try {
    await loadDrive(useAppStore.getState().lang);
  } catch {
    // English stands in (i18next's fallback)
  }
}

/** A lazily loaded part of the drive or the share pages, with its texts in the language on screen. */
export async function withDriveTexts<T>(part: Promise<T>): Promise<T> {
  const [loaded] = await Promise.all([part, loadDriveTexts()]);
  return loaded;
}

const DAYJS_LOCALES: Record<Language, string> = { en_US: 'en', zh_CN: 'zh-cn' };

function applyLanguage(language: Language): void {
  dayjs.locale(DAYJS_LOCALES[language]);
  if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(language);
}

const initial = useAppStore.getState().lang;

void i18n.use(initReactI18next).init({
  resources: { en_US: core },
  lng: initial,
  fallbackLng: FALLBACK_LANGUAGE,
  supportedLngs: ['en_US', 'zh_CN'],
  load: 'currentOnly',
  ns: Object.keys(core),
  defaultNS,
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Fetches a language's texts once and hands them to i18next. */
async function loadLanguage(language: Language): Promise<void> {
  if (!bundles[language]) {
    const [bundle] = await Promise.all([LOADERS[language](), loadDrive(language)]);
    for (const [ns, texts] of Object.entries(bundle.messages))
      i18n.addResourceBundle(language, ns, texts, true, true);
    bundles[language] = bundle;
  }
  await loadDrive(language);
}

/** The remembered language, ready before the first page is drawn (English on failure). */
export async function startLanguage(): Promise<void> {
  try {
    await loadLanguage(initial);
  } catch {
    useAppStore.getState().setLang(FALLBACK_LANGUAGE);
  }
  const language = useAppStore.getState().lang;
  applyLanguage(language);
  await i18n.changeLanguage(language);
}

/**
 * Switches the UI language: the choice is remembered at once, and i18next, dayjs and the html
 * lang follow once its texts are here. A language that cannot be fetched is not kept (false).
 */
export async function changeLanguage(language: Language): Promise<boolean> {
  const previous = useAppStore.getState().lang;
  // remembered at once: a reload right after the choice keeps it
  useAppStore.getState().setLang(language);
  try {
    await loadLanguage(language);
  } catch {
    useAppStore.getState().setLang(previous);
    return false;
  }
  applyLanguage(language);
  await i18n.changeLanguage(language);
  return true;
}

/** Translates a key built at run time (e.g. `errors:<code>`), which the typed `t` cannot check. */
export function translateKey(key: string): string {
  return (i18n.t as (key: string) => string)(key);
}

export default i18n;
