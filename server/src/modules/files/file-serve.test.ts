import { BROWSER_IMAGE_SUFFIXES, contentTypeOf } from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { servingOf } from './file-serve.ts';

const rowOf = (suffix: string) => ({ suffix, contentType: contentTypeOf(suffix, false) });
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('how stored bytes leave the server', () => {
  it('serves inline, as they are, the images the web app views as they are', () => {
    for (const suffix of BROWSER_IMAGE_SUFFIXES)
      expect(servingOf(rowOf(suffix), png), suffix).toMatchObject({
        type: contentTypeOf(suffix, false),
        inline: true,
      });
  });

  it('never serves an SVG inline, and TypeScript source as plain text', () => {
    expect(servingOf(rowOf('svg'), Buffer.from('<svg></svg>')).inline).toBe(false);
    expect(servingOf(rowOf('ts'), Buffer.from('export const a = 1;\n'))).toMatchObject({
      type: 'text/plain; charset=utf-8',
      inline: true,
      preview: 'text',
    });
  });
});
