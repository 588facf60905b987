import { describe, expect, it } from 'vitest';
import {
  FILE_KIND_TABLE,
  fileKindOf,
  fileTypeOf,
  isTextSuffix,
  RAW_PHOTO_SUFFIXES,
} from './index.ts';

describe('the table of file kinds', () => {
  it('names every suffix once, in lower case', () => {
    const seen = new Map<string, string>();
    for (const row of FILE_KIND_TABLE) {
      for (const suffix of row.suffixes) {
        expect(seen.get(suffix), `${suffix} is in two rows`).toBeUndefined();
        seen.set(suffix, row.kind);
        expect(suffix).toMatch(/^[a-z0-9]+$/);
      }
    }
    for (const raw of RAW_PHOTO_SUFFIXES) expect(seen.get(raw)).toBe('image');
  });

  it('gives the suffixes the two sides once disagreed on one kind and one type', () => {
    expect([fileKindOf('rmvb'), fileTypeOf('rmvb', false)]).toEqual(['video', 'video']);
    for (const s of ['mid', 'midi'])
      expect([fileKindOf(s), fileTypeOf(s, false)]).toEqual(['audio', 'audio']);
    for (const s of ['apng', 'jfif'])
      expect([fileKindOf(s), fileTypeOf(s, false)]).toEqual(['image', 'image']);
    // TypeScript, not an MPEG transport stream
    expect([fileKindOf('ts'), fileTypeOf('ts', false), isTextSuffix('ts')]).toEqual([
      'code',
      'text',
      true,
    ]);
    // a private key, not a Keynote deck
    expect([fileKindOf('key'), fileTypeOf('key', false)]).toEqual(['key', 'other']);
  });

  it('reads a suffix in any case, and knows folders and strangers', () => {
    expect(fileTypeOf('JPG', false)).toBe('image');
    expect(fileKindOf('Docx')).toBe('word');
    expect(fileTypeOf('docx', false)).toBe('document');
    expect(fileTypeOf('anything', true)).toBe('folder');
    expect([fileKindOf('bin'), fileTypeOf('bin', false), isTextSuffix('bin')]).toEqual([
      'other',
      'other',
      false,
    ]);
  });

  it('reads text by its name, but not a zipped map or markup served as a page', () => {
    for (const s of ['txt', 'md', 'log', 'json', 'mind', 'csv'])
      expect(isTextSuffix(s), s).toBe(true);
    for (const s of ['xmind', 'drawio', 'docx', 'png']) expect(isTextSuffix(s), s).toBe(false);
  });
});
