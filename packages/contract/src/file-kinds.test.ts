import { describe, expect, it } from 'vitest';
import {
  archiveKindOf,
  BROWSER_IMAGE_SUFFIXES,
  CONTENT_TYPES,
  contentTypeOf,
  FILE_KIND_TABLE,
  fileKindOf,
  fileKindRowOf,
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

describe('the media types and the images a browser draws', () => {
  it('gives an image, video or audio media type only to a suffix of that type', () => {
    for (const [suffix, type] of Object.entries(CONTENT_TYPES)) {
      expect(suffix, suffix).toMatch(/^[a-z0-9]+$/);
      expect(fileKindRowOf(suffix), `${suffix} is in the kind table`).toBeDefined();
      const family = /^(image|video|audio)\//.exec(type)?.[1];
      if (family) expect(fileTypeOf(suffix, false), suffix).toBe(family);
    }
  });

  it('settles the suffixes the two sides once disagreed on', () => {
    expect(contentTypeOf('JFIF', false)).toBe('image/jpeg');
    expect(contentTypeOf('apng', false)).toBe('image/apng');
    expect(contentTypeOf('midi', false)).toBe('audio/midi');
    expect(contentTypeOf('rmvb', false)).toBe('application/vnd.rn-realmedia-vbr');
    // TypeScript source, never `video/mp2t`
    expect(contentTypeOf('ts', false)).toBe('text/plain');
    expect(contentTypeOf('bin', false)).toBe('application/octet-stream');
    expect(contentTypeOf('anything', true)).toBe('folder');
  });

  it('views as they are only images a browser draws, each with an image media type', () => {
    for (const suffix of BROWSER_IMAGE_SUFFIXES) {
      expect(fileKindOf(suffix), suffix).toBe('image');
      expect(contentTypeOf(suffix, false), suffix).toMatch(/^image\//);
    }
    for (const suffix of ['svg', 'heic', 'tif', 'psd'])
      expect(BROWSER_IMAGE_SUFFIXES).not.toContain(suffix);
  });

  it('knows the archives it lists and extracts by the whole name', () => {
    expect(archiveKindOf('a.ZIP')).toBe('zip');
    expect(archiveKindOf('lib.jar')).toBe('zip');
    expect(archiveKindOf('a.tar.gz')).toBe('tgz');
    expect(archiveKindOf('a.tgz')).toBe('tgz');
    expect(archiveKindOf('a.tar')).toBe('tar');
    expect(archiveKindOf('a.7z')).toBe('7z');
    expect(archiveKindOf('a.RAR')).toBe('rar');
    expect(archiveKindOf('a.gz')).toBeNull();
    expect(archiveKindOf('a.xz')).toBeNull();
  });
});
