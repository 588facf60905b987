import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { entrySegments } from './archive.ts';

const refusal = (raw: string) => {
  try {
    entrySegments(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(14);
    return (err as AppError).message;
  }
  throw new Error(`expected ${raw} to be refused`);
};

describe('archive entries', () => {
  it('reads an entry name as safe segments', () => {
    expect(entrySegments('docs/readme.md')).toEqual(['docs', 'readme.md']);
    expect(entrySegments('./docs//a.txt')).toEqual(['docs', 'a.txt']);
    expect(entrySegments('dir/')).toEqual(['dir']);
    expect(entrySegments('win\\style\\path.txt')).toEqual(['win', 'style', 'path.txt']);
    expect(entrySegments('docs/café.txt'.normalize('NFD'))).toEqual(['docs', 'café.txt']);
    expect(entrySegments('./')).toEqual([]);
  });

  it('refuses entries that leave their folder', () => {
    for (const raw of ['../x', 'a/../../x', '/etc/passwd', '\\abs', 'C:/x', 'c:x', 'a\\..\\..\\x'])
      expect(refusal(raw), raw).toMatch(/outside its folder/);
  });

  it('refuses names Nimbus cannot store', () => {
    expect(refusal('a/b\u0001c')).toMatch(/cannot be used/);
    expect(refusal(`${'x'.repeat(300)}.txt`)).toMatch(/cannot be used/);
  });
});
