import { open } from 'node:fs/promises';
import { findProgram, runProgram } from '../../search/content/tools.ts';

// Photoshop documents: the composite picture Photoshop saves beside the layers, decoded by
// ffmpeg's PSD decoder on a file of this server's disk.

/** Whether ffmpeg is here to read Photoshop documents. */
export const canDecodePsd = () => findProgram('ffmpeg') !== null;

/** A Photoshop document's size, from its header. */
export interface PsdHeader {
  width: number;
  height: number;
}

/**
 * The header of a Photoshop document (`8BPS`, version 1; the large-document kind, PSB, is not
 * read); null for anything else, which is never handed to the decoder.
 */
export function psdHeaderOf(head: Buffer): PsdHeader | null {
  if (head.length < 26 || head.subarray(0, 4).toString('latin1') !== '8BPS') return null;
  if (head.readUInt16BE(4) !== 1) return null;
  const channels = head.readUInt16BE(12);
  const height = head.readUInt32BE(14);
  const width = head.readUInt32BE(18);
  // the format's own limits
  if (channels < 1 || channels > 56 || !width || !height || width > 30_000 || height > 30_000)
    return null;
  return { width, height };
}

/** The header of the document at `file`; throws when it is no Photoshop document. */
export async function readPsdHeader(file: string): Promise<PsdHeader> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(26);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const header = psdHeaderOf(head.subarray(0, bytesRead));
    if (!header) throw new Error('This is no Photoshop document');
    return header;
  } finally {
    await handle.close();
  }
}

/**
 * The document's composite picture as a PNG, at most `side` pixels on its longer side (never
 * enlarged). The PSD reader is named, so ffmpeg reads the file as nothing else (no playlist,
 * no other file). `maxPixels` stops a document too big to decode before ffmpeg starts on it.
 */
export async function compositeOfPsd(
  file: string,
  side: number,
  maxPixels: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const program = findProgram('ffmpeg');
  if (!program) throw new Error('ffmpeg is not installed');
  const { width, height } = await readPsdHeader(file);
  if (width * height > maxPixels) throw new Error('This document is too large');
  const fit = `scale='min(iw,${side})':'min(ih,${side})':force_original_aspect_ratio=decrease`;
  // 16-bit RGBA, uncompressed: the most a PNG of that size can weigh
  const maxOutput = side * side * 8 + 1024 * 1024;
  const out = await runProgram(
    program,
    [
      ...['-nostdin', '-hide_banner', '-v', 'error'],
      ...['-f', 'psd_pipe', '-i', file],
      ...['-frames:v', '1', '-vf', fit, '-f', 'image2pipe', '-c:v', 'png', '-'],
    ],
    { signal, timeoutMs: 60_000, maxOutput, sandbox: { read: [file], write: [] } },
  );
  if (out.length >= maxOutput) throw new Error('ffmpeg wrote more than a picture of this size');
  if (out.length === 0) throw new Error('ffmpeg found no picture in this document');
  return out;
}
