import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { decodeSample, detectCharset, toUtf8 } from './charset.ts';

// a line of Chinese in GBK (a part of GB18030), long enough to be recognised
const GBK = Buffer.from(
  'd5e2cac7d2bbb8f6d3c3c0b4b2e2cad4d7d6b7fbbcafbcecb2e2b5c4d6d0cec4cec4b1becec4bcfe' +
    'a1a3cbfcb0fcbaacc1cbd7e3b9bbb6e0b5c4b3a3d3c3babad7d6a3acd2d4b1e3bcecb2e2c6f7c4dcb9bbd7f6b3f6bfc9bfbfb5c4c5d0b6cfa1a3',
  'hex',
);
const GBK_TEXT =
  '这是一个用来测试字符集检测的中文文本文件。它包含了足够多的常用汉字，以便检测器能够做出可靠的判断。';

describe('the charset of a text', () => {
  it('is UTF-8 for ASCII and valid UTF-8, even with a character cut at the end', () => {
    expect(detectCharset(Buffer.from('plain ascii'), false).name).toBe('UTF-8');
    const bytes = Buffer.from('中文内容', 'utf8');
    expect(detectCharset(bytes.subarray(0, bytes.length - 1), true).name).toBe('UTF-8');
  });

  it('follows a byte-order mark and skips it', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hi ü', 'utf16le')]);
    const charset = detectCharset(le, false);
    expect(charset).toEqual({ name: 'UTF-16LE', bom: 2 });
    expect(decodeSample(le, charset, false)).toBe('hi ü');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('x')]);
    expect(decodeSample(bom, detectCharset(bom, false), false)).toBe('x');
  });

  it('recognises Chinese text written in GB18030 and converts it to UTF-8 as it streams', async () => {
    const sample = Buffer.concat([GBK, Buffer.from('\n'), GBK]);
    const charset = detectCharset(sample, false);
    expect(charset.name).toBe('GB18030');
    // one byte at a time: a character split between chunks still comes out whole
    const chunks = [...sample].map((b) => Buffer.from([b]));
    const out = await text(Readable.from(chunks).pipe(toUtf8(charset)));
    expect(out).toBe(`${GBK_TEXT}\n${GBK_TEXT}`);
  });

  it('reads Latin text that is not UTF-8 as windows-1252', () => {
    const latin = Buffer.from(
      'Caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade. '.repeat(4),
      'latin1',
    );
    const charset = detectCharset(latin, false);
    expect(decodeSample(latin, charset, false)).toContain('Café crème brûlée');
  });
});
