import fsp from 'node:fs/promises';

/** Text kept per file: the first 5 MiB (UTF-8) of what a file says. */
export const MAX_TEXT_BYTES = 5 * 1024 * 1024;

/** Collects text up to a byte budget; `full` once the budget is spent. */
export class TextSink {
  private readonly parts: string[] = [];
  private bytes = 0;
  full = false;

  constructor(readonly budget = MAX_TEXT_BYTES) {}

  push(text: string): boolean {
    if (this.full || text.length === 0) return !this.full;
    const size = Buffer.byteLength(text, 'utf8');
    if (this.bytes + size <= this.budget) {
      this.parts.push(text);
      this.bytes += size;
      return true;
    }
    // the part that fits, cut on a character boundary
    const room = this.budget - this.bytes;
    const cut = Buffer.from(text, 'utf8')
      .subarray(0, room)
      .toString('utf8')
      .replace(/\uFFFD$/, '');
    this.parts.push(cut);
    this.bytes = this.budget;
    this.full = true;
    return false;
  }

  text(): string {
    return this.parts.join('');
  }
}

const decoders = {
  utf8: new TextDecoder('utf-8', { fatal: true }),
  gb18030: new TextDecoder('gb18030', { fatal: true }),
};

/** Bytes as text: UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030; null for binary. */
export function decodeText(bytes: Buffer, truncated: boolean): string | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
    return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const probe = bytes.subarray(0, 8192);
  if (probe.includes(0)) return null;
  let body = bytes;
  if (truncated) {
    // a multi-byte character cut by the read limit is dropped
    let end = body.length;
    for (let i = 1; i <= 3 && end - i >= 0; i++) {
      const b = body[end - i]!;
      if ((b & 0xc0) === 0x80) continue;
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      if (need > i) end -= i;
      break;
    }
    body = body.subarray(0, end);
  }
  try {
    return decoders.utf8.decode(body).replace(/^\uFEFF/, '');
  } catch {
    // not UTF-8: much Chinese text is still GB18030 (GBK)
  }
  try {
    const text = decoders.gb18030.decode(body);
    // control characters mean the guess was wrong: this is binary
    // eslint-disable-next-line no-control-regex
    return /[\u0000-\u0008\u000e-\u001f]/.test(text.slice(0, 4096)) ? null : text;
  } catch {
    return null;
  }
}

/** The text of a plain text file, up to the budget; null when it is not text. */
export async function readTextFile(file: string, budget = MAX_TEXT_BYTES): Promise<string | null> {
  const handle = await fsp.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, budget);
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return decodeText(buffer.subarray(0, read), size > read);
  } finally {
    await handle.close();
  }
}

const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}';
const SPACED_CJK = new RegExp(
  `(?<=[${CJK}，。、：；！？（）])[ \\t]+(?=[${CJK}，。、：；！？（）])`,
  'gu',
);

/** OCR engines put spaces between Chinese characters; text reads (and matches) without them. */
export function joinCjkSpacing(text: string): string {
  return text.replace(SPACED_CJK, '');
}

/** Runs of blank lines and trailing spaces squeezed; form feeds become line breaks. */
export function tidy(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/\f/g, '\n')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
