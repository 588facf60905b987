import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import en_US from '../../i18n/editors.en_US';
import { operatorLabel } from './operator';

/** The editors' English texts, with i18next's {{…}} filled in. */
const t = ((key: string, values: Record<string, string> = {}) => {
  const [group, name] = key.split('.') as [keyof typeof en_US, string];
  const text = (en_US[group] as Record<string, string>)[name]!;
  return text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k] ?? '');
}) as unknown as TFunction<'editors'>;

describe('operatorLabel', () => {
  it('names a person by their username and a share visitor by the link', () => {
    expect(operatorLabel('alice', t)).toBe('alice');
    expect(operatorLabel('share:team-notes', t)).toBe('a visitor of share link team-notes');
  });
});
