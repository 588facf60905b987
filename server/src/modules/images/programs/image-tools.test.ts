import {
  CONVERTED_IMAGE_SUFFIXES,
  FILE_KIND_TABLE,
  IMAGE_KIND_TABLE,
  READABLE_IMAGE_SUFFIXES,
  type ImageDecoder,
} from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { findProgram } from '../../search/content/tools.ts';
import { canDecodeRaw } from './camera-raw.ts';
import { isConvertedForViewing, isReadableImage } from './image-tools.ts';
import { canDecodePsd } from './psd-image.ts';

/** Whether this machine has the decoder a row of the table names. */
const installed: Record<ImageDecoder, () => boolean> = {
  native: () => true,
  vector: () => true,
  heif: () => findProgram('heif-convert') !== null,
  raw: canDecodeRaw,
  psd: canDecodePsd,
};

describe("the server's image kinds", () => {
  it("are the contract's table: each suffix read as its row says, when its decoder is here", () => {
    for (const row of IMAGE_KIND_TABLE) {
      for (const suffix of row.suffixes) {
        const readable = installed[row.decoder]();
        expect(isReadableImage(suffix), suffix).toBe(readable);
        expect(isReadableImage(suffix.toUpperCase()), suffix).toBe(readable);
        expect(isConvertedForViewing(suffix), suffix).toBe(readable && row.convertedForViewing);
      }
    }
  });

  it('read no other kind of file', () => {
    const readable = new Set(READABLE_IMAGE_SUFFIXES);
    const others = FILE_KIND_TABLE.flatMap((row) => row.suffixes).filter((s) => !readable.has(s));
    expect(others).toContain('bmp');
    for (const suffix of [...others, 'txt', '']) {
      expect(isReadableImage(suffix), suffix).toBe(false);
      expect(isConvertedForViewing(suffix), suffix).toBe(false);
    }
  });

  it('convert for viewing only images the table says a browser is not shown as they are', () => {
    const converted = new Set(CONVERTED_IMAGE_SUFFIXES);
    for (const suffix of ['jpg', 'png', 'gif', 'webp', 'avif'])
      expect(converted.has(suffix)).toBe(false);
    for (const suffix of ['tiff', 'heic', 'svg', 'psd', 'dng'])
      expect(converted.has(suffix)).toBe(true);
  });
});
