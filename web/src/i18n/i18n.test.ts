import { describe, expect, it } from 'vitest';
import { SEED_MENUS } from '@nimbus/contract';
import en_US from './en_US';
import zh_CN from './zh_CN';

type Tree = { [key: string]: string | Tree };

/** Every leaf as "a.b.c" → value. */
function flatten(tree: Tree, prefix = ''): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (value !== null && typeof value === 'object') {
      for (const [k, v] of flatten(value, path)) out.set(k, v);
    } else {
      out.set(path, value);
    }
  }
  return out;
}

const locales = { en_US: flatten(en_US), zh_CN: flatten(zh_CN) };

describe('locales', () => {
  it('have the same keys', () => {
    const en = [...locales.en_US.keys()].sort();
    const zh = [...locales.zh_CN.keys()].sort();
    expect(
      zh.filter((key) => !locales.en_US.has(key)),
      'keys only in zh_CN',
    ).toEqual([]);
    expect(
      en.filter((key) => !locales.zh_CN.has(key)),
      'keys missing from zh_CN',
    ).toEqual([]);
  });

  it.each(Object.entries(locales))('%s has a non-empty text for every key', (_name, texts) => {
    const empty = [...texts]
      .filter(([, value]) => typeof value !== 'string' || value.trim() === '')
      .map(([key]) => key);
    expect(empty).toEqual([]);
  });

  it('use the same interpolation placeholders in both languages', () => {
    const placeholders = (text: unknown) =>
      [...String(text).matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();
    const mismatched = [...locales.en_US].filter(
      ([key, text]) => placeholders(text).join() !== placeholders(locales.zh_CN.get(key)).join(),
    );
    expect(mismatched.map(([key]) => key)).toEqual([]);
  });

  it.each(Object.entries(locales))('%s names every built-in menu of the seed', (_name, texts) => {
    const missing = SEED_MENUS.map((m) => `menu.${m.id}`).filter((key) => !texts.has(key));
    expect(missing).toEqual([]);
  });
});
