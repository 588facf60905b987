import type { Language } from '@nimbus/contract';
import i18n, { changeLanguage } from '../i18n';
import { feedback } from './feedback';

/** The language a user picks: switched to, or a toast when its texts cannot be fetched. */
export async function chooseLanguage(language: Language): Promise<void> {
  if (!(await changeLanguage(language))) feedback().message.error(i18n.t('languageFailed'));
}
