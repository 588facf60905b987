import { FALLBACK_LANGUAGE, LANGUAGES, type Language } from '@nimbus/contract';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The first browser language we support, else the fallback (spec §1). */
export function detectLanguage(preferred: readonly string[] | undefined): Language {
  for (const tag of preferred ?? []) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh_CN';
    if (lower.startsWith('en')) return 'en_US';
  }
  return FALLBACK_LANGUAGE;
}

export function browserLanguage(): Language {
  if (typeof navigator === 'undefined') return FALLBACK_LANGUAGE;
  return detectLanguage(navigator.languages?.length ? navigator.languages : [navigator.language]);
}

/** BCP 47 tag for the html lang attribute. */
export function htmlLang(language: Language): string {
  return language === 'zh_CN' ? 'zh-CN' : 'en';
}
