import { ErrorCode, TAG_NAME_MAX_LENGTH, tagNameProblem } from '@nimbus/contract';
import type { TFunction } from 'i18next';
import { ApiError } from '../../api/client';
import type { Tag } from './api';

/** The message for a tag name that breaks spec §5 (or is taken), or null. */
export function tagNameError(
  t: TFunction<'tags'>,
  name: string,
  others: readonly Tag[] = [],
): string | null {
  const problem = tagNameProblem(name);
  if (problem === 'tooLong') return t('rules.tooLong', { max: TAG_NAME_MAX_LENGTH });
  if (problem) return t(`rules.${problem}`);
  const folded = name.trim().toLocaleLowerCase();
  if (others.some((tag) => tag.name.toLocaleLowerCase() === folded)) return t('rules.exists');
  return null;
}

/** A failed tag call as a message: the rules in the reader's language, else the server's text. */
export function tagErrorMessage(t: TFunction<'tags'>, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === ErrorCode.EXISTS) return t('rules.exists');
    return error.message;
  }
  return String(error);
}
