import { Transform } from 'node:stream';
import chardet from 'chardet';

/** How much of a file the charset is guessed from. */
export const CHARSET_SAMPLE_BYTES = 64 * 1024;

/** A charset a text is read in: the name told to the client and the decoder's label. */
export interface Charset {
  /** `UTF-8`, `GB18030`, `Shift_JIS`, `UTF-16LE`… (FileDocument `decoder`). */
  name: string;
  /** Bytes to skip at the start: a byte-order mark. */
  bom: number;
}

const UTF8: Charset = { name: 'UTF-8', bom: 0 };

function decodes(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

/** Whether the sample is UTF-8, allowing a character cut off at its end. */
function isUtf8(sample: Buffer, cut: boolean): boolean {
  let end = sample.length;
  if (cut) {
    // step back over the continuation bytes of a last character left incomplete
    let back = 0;
    while (back < 3 && end - back - 1 >= 0 && (sample[end - back - 1]! & 0xc0) === 0x80) back++;
    const lead = sample[end - back - 1];
    if (lead !== undefined && lead >= 0xc0) end = end - back - 1;
  }
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.subarray(0, end));
    return true;
  } catch {
    return false;
  }
}

/**
 * The charset of a text from its first bytes: a byte-order mark, else UTF-8 when the bytes are
 * valid UTF-8 (plain ASCII is), else the detector's best guess among the charsets Node reads.
 * `cut` says the sample stops before the end of the file.
 */
export function detectCharset(sample: Buffer, cut: boolean): Charset {
  if (sample[0] === 0xef && sample[1] === 0xbb && sample[2] === 0xbf)
    return { name: 'UTF-8', bom: 3 };
  if (sample[0] === 0xff && sample[1] === 0xfe) return { name: 'UTF-16LE', bom: 2 };
  if (sample[0] === 0xfe && sample[1] === 0xff) return { name: 'UTF-16BE', bom: 2 };
  if (isUtf8(sample, cut)) return UTF8;
  for (const guess of chardet.analyse(sample)) {
    // ISO-8859-1 is read as windows-1252, as browsers do: the same letters and the quotes too
    const name = guess.name === 'ISO-8859-1' ? 'windows-1252' : guess.name;
    if (decodes(name)) return { name, bom: 0 };
  }
  return { name: 'windows-1252', bom: 0 };
}

/** Whether bytes read in this charset look like text at all (no NUL outside UTF-16). */
export function looksLikeText(sample: Buffer, charset: Charset): boolean {
  return charset.name.startsWith('UTF-16') || !sample.includes(0);
}

/** Decodes a sample read in `charset`; a character cut at the end is dropped, not replaced. */
export function decodeSample(sample: Buffer, charset: Charset, cut: boolean): string {
  return new TextDecoder(charset.name).decode(sample.subarray(charset.bom), { stream: cut });
}

/** A stream of the text in UTF-8, whatever the charset of the bytes coming in. */
export function toUtf8(charset: Charset): Transform {
  let skip = charset.bom;
  if (charset.name === 'UTF-8')
    return new Transform({
      transform(chunk: Buffer, _encoding, done) {
        if (skip > 0) {
          const dropped = Math.min(skip, chunk.length);
          skip -= dropped;
          chunk = chunk.subarray(dropped);
        }
        done(null, chunk);
      },
    });
  const decoder = new TextDecoder(charset.name);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (skip > 0) {
        const dropped = Math.min(skip, chunk.length);
        skip -= dropped;
        chunk = chunk.subarray(dropped);
      }
      done(null, Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8'));
    },
    flush(done) {
      done(null, Buffer.from(decoder.decode(), 'utf8'));
    },
  });
}
