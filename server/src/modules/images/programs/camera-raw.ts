import { open } from 'node:fs/promises';
import { RAW_PHOTO_SUFFIXES, type ExifFacts } from '@nimbus/contract';
import { findProgram, runProgram } from '../../search/content/tools.ts';

// Camera RAW photos decoded by `dcraw` on files of this server's disk: what the camera says
// about the photo (`-i -v`), its embedded JPEG preview (`-e`) and the developed picture (`-T`).

/** The RAW kinds of the cameras people bring (Adobe, Canon, Nikon, Sony, Fuji, Olympus…). */
export const RAW_SUFFIXES: readonly string[] = RAW_PHOTO_SUFFIXES;

/** Whether `dcraw` is here to develop RAW photos. */
export const canDecodeRaw = () => findProgram('dcraw') !== null;

/** The most bytes of an embedded preview (the largest cameras embed a full-size JPEG). */
const MAX_PREVIEW_BYTES = 48 * 1024 * 1024;
/** Previews are used for pictures up to this side; bigger ones are developed from the RAW. */
const MAX_PREVIEW_USE = 1024;

/**
 * Whether the first bytes are those of a RAW photo: TIFF-based (DNG, CR2, NEF, ARW, PEF, SRW),
 * Olympus (`IIRO`, `IIRS`, `MMOR`), Panasonic (`IIU\0`) or Fuji (`FUJIFILM`). Anything else is
 * never handed to the decoder.
 */
export function looksLikeRaw(head: Buffer): boolean {
  const start = head.subarray(0, 4).toString('latin1');
  return (
    ['II*\0', 'MM\0*', 'IIRO', 'IIRS', 'MMOR', 'IIU\0'].includes(start) ||
    head.subarray(0, 8).toString('latin1') === 'FUJIFILM'
  );
}

/** What `dcraw -i -v` tells of a photo. */
export interface RawFacts {
  /** The developed picture's size, turned as the camera was held. */
  width: number;
  height: number;
  /** The largest embedded preview's size; 0 when there is none. */
  previewWidth: number;
  previewHeight: number;
  exif?: ExifFacts;
}

const sizeIn = (text: string, label: string): [number, number] => {
  const match = new RegExp(`^${label}:\\s*(\\d+)\\s*x\\s*(\\d+)`, 'm').exec(text);
  return match ? [Number(match[1]), Number(match[2])] : [0, 0];
};

const lineOf = (text: string, label: string): string | undefined =>
  new RegExp(`^${label}:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim();

const positive = (value: number): number | undefined =>
  Number.isFinite(value) && value > 0 ? value : undefined;

const MONTHS = 'JanFebMarAprMayJunJulAugSepOctNovDec';

/** `Sat Mar 14 09:26:53 2026` (dcraw's clock, read in UTC) → `2026-03-14 09:26:53`. */
function clockOf(text: string | undefined): string | undefined {
  const match = /^\w{3} (\w{3})\s+(\d{1,2}) (\d\d:\d\d:\d\d) (\d{4})$/.exec(text ?? '');
  if (!match) return undefined;
  const month = MONTHS.indexOf(match[1]!) / 3 + 1;
  // a camera that never set its clock says 1970
  if (month < 1 || Number(match[4]) <= 1970) return undefined;
  const pad = (n: number | string) => String(n).padStart(2, '0');
  return `${match[4]}-${pad(month)}-${pad(match[2]!)} ${match[3]}`;
}

/** `1/250.0 sec` → 0.004; `2.0 sec` → 2. */
function shutterOf(text: string | undefined): number | undefined {
  const match = /^(1\/)?([\d.]+) sec$/.exec(text ?? '');
  if (!match) return undefined;
  const value = Number(match[2]);
  return positive(match[1] ? 1 / value : value);
}

/** Parse `dcraw -i -v`; the camera's name is one string (dcraw joins make and model). */
export function rawFactsOf(text: string): RawFacts | null {
  const [width, height] = sizeIn(text, 'Output size');
  if (!width || !height) return null;
  const [previewWidth, previewHeight] = sizeIn(text, 'Thumb size');
  const exif: ExifFacts = {
    model: lineOf(text, 'Camera')?.slice(0, 128) || undefined,
    takenAt: clockOf(lineOf(text, 'Timestamp')),
    exposureTime: shutterOf(lineOf(text, 'Shutter')),
    fNumber: positive(Number(lineOf(text, 'Aperture')?.replace(/^f\//, ''))),
    iso: positive(Number(lineOf(text, 'ISO speed'))),
    focalLength: positive(Number(lineOf(text, 'Focal length')?.replace(/\s*mm$/, ''))),
  };
  const present = Object.fromEntries(
    Object.entries(exif).filter(([, v]) => v !== undefined),
  ) as ExifFacts;
  return {
    width,
    height,
    previewWidth,
    previewHeight,
    ...(Object.keys(present).length > 0 ? { exif: present } : {}),
  };
}

async function headOf(file: string): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const head = Buffer.alloc(16);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function dcraw(): string {
  const program = findProgram('dcraw');
  if (!program) throw new Error('dcraw is not installed');
  return program;
}

/** Run dcraw for its standard output; output reaching `maxOutput` is a failure, not a picture. */
async function run(args: string[], timeoutMs: number, maxOutput: number, signal: AbortSignal) {
  // dcraw prints the camera's clock in local time: UTC reads it back as the camera wrote it;
  // it sees the photo alone, and writes to its output only
  const file = args[args.length - 1]!;
  const out = await runProgram(dcraw(), args, {
    signal,
    timeoutMs,
    maxOutput,
    env: { TZ: 'UTC' },
    sandbox: { read: [file], write: [] },
  });
  if (out.length >= maxOutput) throw new Error('dcraw wrote more than a picture of this size');
  return out;
}

/** The camera's facts of a RAW photo; throws when it is none dcraw can read. */
export async function identifyRaw(file: string, signal: AbortSignal): Promise<RawFacts> {
  if (!looksLikeRaw(await headOf(file))) throw new Error('This is no RAW photo');
  const out = await run(['-i', '-v', file], 15_000, 64 * 1024, signal);
  const facts = rawFactsOf(out.toString('utf8'));
  if (!facts) throw new Error('dcraw cannot read this photo');
  return facts;
}

const isJpeg = (bytes: Buffer) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/**
 * A RAW photo as a picture sharp reads, at least `side` pixels on its longer side when the
 * photo has them: the camera's embedded JPEG when it is big enough for a small picture (its
 * EXIF says how to turn it), else the photo developed with the camera's white balance as an
 * upright 8-bit TIFF, at half size when that still covers `side` (a quarter of the work and
 * memory). `maxPixels` stops a photo too big to develop before dcraw starts on it.
 */
export async function developRaw(
  file: string,
  side: number,
  maxPixels: number,
  signal: AbortSignal,
): Promise<Buffer> {
  const facts = await identifyRaw(file, signal);
  if (facts.width * facts.height > maxPixels) throw new Error('This photo is too large');
  const preview = Math.max(facts.previewWidth, facts.previewHeight);
  if (side <= MAX_PREVIEW_USE && preview >= side) {
    // a preview dcraw cannot extract, or one that is no JPEG (a bitmap), is developed instead
    const jpeg = await run(['-e', '-c', file], 30_000, MAX_PREVIEW_BYTES, signal).catch(() => null);
    if (jpeg && isJpeg(jpeg)) return jpeg;
  }
  const half = Math.max(facts.width, facts.height) >= side * 2;
  // an 8-bit RGB TIFF of the full size is the most a truthful dcraw writes
  const maxOutput = facts.width * facts.height * 3 + 1024 * 1024;
  return run(['-c', '-w', ...(half ? ['-h'] : []), '-T', file], 90_000, maxOutput, signal);
}
