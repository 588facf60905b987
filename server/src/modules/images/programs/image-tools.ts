import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import exifReader from 'exif-reader';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import {
  CONVERTED_IMAGE_SUFFIXES,
  IMAGE_SUFFIXES_BY_DECODER,
  type ExifFacts,
  type ImageFacts,
} from '@nimbus/contract';
import { findProgram, runProgram } from '../../search/content/tools.ts';
import { canDecodeRaw, developRaw, identifyRaw } from './camera-raw.ts';
import { canDecodePsd, compositeOfPsd, readPsdHeader } from './psd-image.ts';

// libvips keeps no cache of decoded images between requests: a thumbnail is made once and then
// served from the thumbnail cache, so the memory is better left free
sharp.cache(false);

// what each decoder reads, and what is converted for viewing: the contract's table of image kinds
const BY_DECODER = IMAGE_SUFFIXES_BY_DECODER;
/** Photos libvips reads as they are (the prebuilt libvips has no HEVC decoder: HEIC goes apart). */
const NATIVE = new Set(BY_DECODER.native);
/** HEIF photos as phones take them (HEVC inside), decoded by libheif's `heif-convert`. */
const HEIF = new Set(BY_DECODER.heif);
/** Camera RAW photos, developed by `dcraw`. */
const RAW = new Set(BY_DECODER.raw);
/** Photoshop documents: their composite picture, decoded by ffmpeg. */
const PSD = new Set(BY_DECODER.psd);
/** Drawings: rasterised from memory, so a reference to another file is never followed. */
const VECTOR = new Set(BY_DECODER.vector);
/** The most an SVG may weigh to be rasterised. */
const MAX_SVG_BYTES = 8 * 1024 * 1024;
/** The most pixels an image may have to be decoded at all (a decompression bomb stops here). */
const MAX_PIXELS = 200_000_000;
/** Images the browser cannot show (or shows badly) and that are converted to WebP for viewing. */
const CONVERTED = new Set(CONVERTED_IMAGE_SUFFIXES);
/** The longer side of an image converted for viewing. */
const VIEW_MAX_SIDE = 8192;
/** The longer side of a RAW photo or a Photoshop document viewed (their decoding is costly). */
const DEVELOPED_VIEW_SIDE = 4096;

/** Whether Nimbus can read this kind of image at all (thumbnails, facts, conversion). */
export function isReadableImage(suffix: string): boolean {
  const s = suffix.toLowerCase();
  return (
    NATIVE.has(s) ||
    VECTOR.has(s) ||
    (HEIF.has(s) && findProgram('heif-convert') !== null) ||
    (RAW.has(s) && canDecodeRaw()) ||
    (PSD.has(s) && canDecodePsd())
  );
}

/** Whether reading this image's size needs its picture decoded (HEIF), not only its header. */
export function factsNeedDecoding(suffix: string): boolean {
  return HEIF.has(suffix.toLowerCase());
}

/** Whether the browser is shown a WebP made of this image instead of the image itself. */
export function isConvertedForViewing(suffix: string): boolean {
  return CONVERTED.has(suffix.toLowerCase()) && isReadableImage(suffix);
}

/** An image on this server's disk, with the suffix that says what it is. */
export interface ImageFile {
  path: string;
  suffix: string;
}

const decoded: SharpOptions = { failOn: 'none', limitInputPixels: MAX_PIXELS };

/**
 * A sharp pipeline over the image, decoded first by `heif-convert` into `workDir` for HEIF,
 * by dcraw for a RAW photo and by ffmpeg for a Photoshop document (these two as small as
 * `side`, the longer side wanted, allows). The first frame of an animation; the orientation
 * the camera recorded is applied.
 */
async function open(
  image: ImageFile,
  side: number,
  workDir: string,
  signal: AbortSignal,
): Promise<Sharp> {
  const suffix = image.suffix.toLowerCase();
  if (RAW.has(suffix))
    // a developed photo is upright already; an embedded preview says in its EXIF
    return sharp(await developRaw(image.path, side, MAX_PIXELS, signal), decoded).rotate();
  if (PSD.has(suffix))
    return sharp(await compositeOfPsd(image.path, side, MAX_PIXELS, signal), decoded);
  if (VECTOR.has(suffix)) {
    const { size } = await stat(image.path);
    if (size > MAX_SVG_BYTES) throw new Error('This drawing is too large to draw');
    return sharp(await readFile(image.path), { ...decoded, density: 72 }).rotate();
  }
  if (HEIF.has(suffix)) {
    const program = findProgram('heif-convert');
    if (!program) throw new Error('heif-convert is not installed');
    const out = path.join(workDir, 'decoded.png');
    await runProgram(program, [image.path, out], {
      signal,
      timeoutMs: 60_000,
      sandbox: { read: [image.path], write: [workDir] },
    });
    // heif-convert has already turned the picture upright
    return sharp(out, decoded);
  }
  return sharp(image.path, decoded).rotate();
}

/** A WebP thumbnail, at most `size` pixels on its longer side, never enlarged. */
export async function thumbnailOf(
  image: ImageFile,
  size: number,
  workDir: string,
  signal: AbortSignal,
): Promise<Buffer> {
  const pipeline = await open(image, size, workDir, signal);
  return pipeline
    .resize(size, size, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 72, effort: 2 })
    .toBuffer();
}

/** A square avatar of `size` pixels, cut from the middle of the image. */
export async function avatarOf(
  image: ImageFile,
  size: number,
  workDir: string,
  signal: AbortSignal,
): Promise<Buffer> {
  const pipeline = await open(image, size, workDir, signal);
  return pipeline
    .resize(size, size, { fit: 'cover', position: 'attention' })
    .webp({ quality: 80 })
    .toBuffer();
}

/** A picture made of an SVG drawn here (a default avatar), as WebP. */
export function rasterise(svg: string): Promise<Buffer> {
  return sharp(Buffer.from(svg), { density: 72 }).webp({ quality: 85 }).toBuffer();
}

/** The whole image as a WebP a browser shows, written to `out`. */
export async function viewableWebp(
  image: ImageFile,
  out: string,
  workDir: string,
  signal: AbortSignal,
): Promise<void> {
  const suffix = image.suffix.toLowerCase();
  const side = RAW.has(suffix) || PSD.has(suffix) ? DEVELOPED_VIEW_SIDE : VIEW_MAX_SIDE;
  const pipeline = await open(image, side, workDir, signal);
  await pipeline
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 85, effort: 3 })
    .toFile(out);
}

/** The image re-encoded as WebP (the "WebP storage" setting), its pixels and orientation kept. */
export async function storedWebp(image: ImageFile, out: string): Promise<void> {
  await sharp(image.path, decoded).rotate().webp({ quality: 88, effort: 4 }).toFile(out);
}

/** Its size as shown and the EXIF facts; null when it is no image libvips can read. */
export async function factsOf(
  image: ImageFile,
  workDir: string,
  signal: AbortSignal,
): Promise<ImageFacts | null> {
  const suffix = image.suffix.toLowerCase();
  // what the camera and Photoshop say, without developing the picture
  if (RAW.has(suffix)) {
    const raw = await identifyRaw(image.path, signal).catch(() => null);
    if (!raw) return null;
    const { width, height, exif } = raw;
    return { width, height, format: suffix, ...(exif ? { exif } : {}) };
  }
  if (PSD.has(suffix)) {
    const psd = await readPsdHeader(image.path).catch(() => null);
    return psd ? { ...psd, format: suffix } : null;
  }
  let meta: Metadata;
  try {
    // the HEIF container is read without decoding its pictures; a picture libvips cannot
    // decode still tells its size and EXIF
    meta = await sharp(image.path, decoded).metadata();
  } catch {
    if (!HEIF.has(suffix)) return null;
    try {
      meta = await (await open(image, VIEW_MAX_SIDE, workDir, signal)).metadata();
    } catch {
      return null;
    }
  }
  if (!meta.width || !meta.height) return null;
  // orientations 5 to 8 turn the picture a quarter: its width is then its height
  const turned = (meta.orientation ?? 1) >= 5;
  const exif = meta.exif ? exifFactsOf(meta.exif) : undefined;
  return {
    width: turned ? meta.height : meta.width,
    height: turned ? meta.width : meta.height,
    format: HEIF.has(suffix) ? suffix : (meta.format ?? suffix),
    ...(exif ? { exif } : {}),
  };
}

const cap = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value.replace(/\0/g, '').trim().slice(0, 128)
    : undefined;

const finite = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The camera's clock as the camera wrote it (EXIF dates carry no zone). */
const clockOf = (value: unknown): string | undefined => {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) return undefined;
  return value.toISOString().slice(0, 19).replace('T', ' ');
};

/** The few EXIF facts people look at; nothing of where the photo was taken. */
export function exifFactsOf(raw: Buffer): ExifFacts | undefined {
  let tags: ReturnType<typeof exifReader>;
  try {
    tags = exifReader(raw);
  } catch {
    return undefined;
  }
  const image = tags.Image ?? {};
  const photo = tags.Photo ?? {};
  const iso = photo.ISOSpeedRatings as unknown;
  const facts: ExifFacts = {
    make: cap(image.Make),
    model: cap(image.Model),
    lens: cap(photo.LensModel),
    takenAt: clockOf(photo.DateTimeOriginal ?? image.DateTime),
    exposureTime: finite(photo.ExposureTime),
    fNumber: finite(photo.FNumber),
    iso: finite(Array.isArray(iso) ? (iso as unknown[])[0] : iso),
    focalLength: finite(photo.FocalLength),
    orientation: finite(image.Orientation),
    software: cap(image.Software),
  };
  const present = Object.fromEntries(
    Object.entries(facts).filter(([, v]) => v !== undefined),
  ) as ExifFacts;
  return Object.keys(present).length > 0 ? present : undefined;
}
