import { describe, expect, it } from 'vitest';
import {
  BROWSER_IMAGE_SUFFIXES,
  COVER_SUFFIXES,
  fileTypeOf,
  GALLERY_IMAGE_SUFFIXES,
  IMAGE_KIND_TABLE,
  READABLE_IMAGE_SUFFIXES,
  THUMBNAIL_SUFFIXES,
} from './index.ts';

describe('the table of image kinds', () => {
  it('names every suffix once, in lower case, each an image', () => {
    const seen = new Set<string>();
    for (const row of IMAGE_KIND_TABLE) {
      for (const suffix of row.suffixes) {
        expect(seen.has(suffix), `${suffix} is in two rows`).toBe(false);
        expect(suffix).toBe(suffix.toLowerCase());
        expect(fileTypeOf(suffix, false), suffix).toBe('image');
        seen.add(suffix);
      }
    }
  });

  it('lets the gallery open what the browser draws and what the server reads', () => {
    expect(new Set(GALLERY_IMAGE_SUFFIXES)).toEqual(
      new Set([...BROWSER_IMAGE_SUFFIXES, ...READABLE_IMAGE_SUFFIXES]),
    );
  });

  it('gives a tile a picture for the images read and the files covered', () => {
    const drawn = new Set(THUMBNAIL_SUFFIXES);
    for (const suffix of [...READABLE_IMAGE_SUFFIXES, ...Object.values(COVER_SUFFIXES).flat()])
      expect(drawn.has(suffix), suffix).toBe(true);
    expect(drawn.size).toBe(THUMBNAIL_SUFFIXES.length);
  });

  it('covers videos and music by their kind', () => {
    for (const suffix of COVER_SUFFIXES.video)
      expect(fileTypeOf(suffix, false), suffix).toBe('video');
    for (const suffix of COVER_SUFFIXES.audio)
      expect(fileTypeOf(suffix, false), suffix).toBe('audio');
  });
});
