import { BROWSER_IMAGE_SUFFIXES } from './file-kinds.ts';
import { RAW_PHOTO_SUFFIXES } from './images.ts';
import { OFFICE_SUFFIXES } from './office.ts';

/**
 * How the server reads an image, by its suffix: the one table the server's image tools decide
 * from (what they draw thumbnails of, what they convert for viewing) and the web app's tiles and
 * gallery read. A kind whose decoder is not installed is not drawn: the server answers 404 and
 * the tile shows its icon.
 */
export type ImageDecoder =
  /** libvips reads it as it is */
  | 'native'
  /** HEIF photos as phones take them (HEVC inside), decoded by libheif's `heif-convert` */
  | 'heif'
  /** camera RAW photos, developed by `dcraw` */
  | 'raw'
  /** Photoshop documents: their composite picture, decoded by ffmpeg */
  | 'psd'
  /** drawings, rasterised from memory so a reference to another file is never followed */
  | 'vector';

export interface ImageKindRow {
  decoder: ImageDecoder;
  /**
   * Whether the browser is shown a WebP made of it instead of the image itself (it cannot show
   * it, or shows it badly).
   */
  convertedForViewing: boolean;
  suffixes: readonly string[];
}

const row = (
  decoder: ImageDecoder,
  convertedForViewing: boolean,
  suffixes: readonly string[],
): ImageKindRow => ({ decoder, convertedForViewing, suffixes });

/** The images the server reads, one row per way of reading them; each suffix once, lower case. */
export const IMAGE_KIND_TABLE: readonly ImageKindRow[] = [
  row('native', false, ['jpg', 'jpeg', 'jfif', 'png', 'apng', 'gif', 'webp', 'avif']),
  row('native', true, ['tif', 'tiff']),
  row('heif', true, ['heic', 'heif']),
  row('raw', true, RAW_PHOTO_SUFFIXES),
  row('psd', true, ['psd']),
  row('vector', true, ['svg']),
];

const byDecoder = (decoder: ImageDecoder) =>
  IMAGE_KIND_TABLE.filter((r) => r.decoder === decoder).flatMap((r) => r.suffixes);

/** The suffixes each decoder reads. */
export const IMAGE_SUFFIXES_BY_DECODER: Readonly<Record<ImageDecoder, readonly string[]>> = {
  native: byDecoder('native'),
  heif: byDecoder('heif'),
  raw: byDecoder('raw'),
  psd: byDecoder('psd'),
  vector: byDecoder('vector'),
};

/** Every image the server reads: it draws their thumbnails itself. */
export const READABLE_IMAGE_SUFFIXES: readonly string[] = IMAGE_KIND_TABLE.flatMap(
  (r) => r.suffixes,
);

/** The images shown as a WebP the server makes of them. */
export const CONVERTED_IMAGE_SUFFIXES: readonly string[] = IMAGE_KIND_TABLE.filter(
  (r) => r.convertedForViewing,
).flatMap((r) => r.suffixes);

/** The images the gallery opens: those the browser draws, and those the server reads. */
export const GALLERY_IMAGE_SUFFIXES: readonly string[] = [
  ...new Set([...BROWSER_IMAGE_SUFFIXES, ...READABLE_IMAGE_SUFFIXES]),
];

/**
 * Files whose cover stands for them in the grid: a video's frame, an album's picture, the first
 * page of a PDF or of an office document (the last two drawn as a whole page).
 */
export const COVER_SUFFIXES = {
  video: ['mp4', 'mkv', 'webm', 'mov', 'avi', 'wmv', 'flv', 'm4v', 'mpg', 'mpeg', '3gp'],
  audio: ['mp3', 'flac', 'm4a', 'aac', 'ogg', 'oga', 'opus', 'wav', 'wma', 'ape'],
  page: ['pdf', ...OFFICE_SUFFIXES],
} as const satisfies Record<string, readonly string[]>;

/** Every file with a picture in the grid: the images the server reads, and the covered files. */
export const THUMBNAIL_SUFFIXES: readonly string[] = [
  ...READABLE_IMAGE_SUFFIXES,
  ...COVER_SUFFIXES.video,
  ...COVER_SUFFIXES.audio,
  ...COVER_SUFFIXES.page,
];
