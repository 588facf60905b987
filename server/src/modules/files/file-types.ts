import { RAW_PHOTO_SUFFIXES } from '@nimbus/contract';
import { suffixOf } from './names.ts';
/** The views of spec §2 by type, from the suffix. */
export type FileType =
  'folder' | 'image' | 'video' | 'audio' | 'document' | 'text' | 'archive' | 'other';

const groups: Record<Exclude<FileType, 'folder' | 'other'>, string[]> = {
  image: [
    'jpg',
    'jpeg',
    'png',
    'gif',
    'bmp',
    'webp',
    'svg',
    'ico',
    'tif',
    'tiff',
    'heic',
    'heif',
    'avif',
    // camera RAW photos and Photoshop documents: shown as the pictures the images module makes
    ...RAW_PHOTO_SUFFIXES,
    'psd',
  ],
  video: [
    'mp4',
    'mkv',
    'webm',
    'mov',
    'avi',
    'wmv',
    'flv',
    'm4v',
    'mpg',
    'mpeg',
    '3gp',
    'ts',
    'm3u8',
  ],
  audio: ['mp3', 'wav', 'flac', 'aac', 'ogg', 'oga', 'm4a', 'wma', 'opus', 'ape', 'aiff'],
  document: [
    'pdf',
    'doc',
    'docx',
    'xls',
    'xlsx',
    'ppt',
    'pptx',
    'odt',
    'ods',
    'odp',
    'rtf',
    'epub',
    'csv',
    'md',
    'txt',
    'mind',
    'drawio',
    'pages',
    'numbers',
    'key',
  ],
  text: [
    'json',
    'xml',
    'yaml',
    'yml',
    'toml',
    'ini',
    'log',
    'js',
    'ts',
    'tsx',
    'jsx',
    'py',
    'java',
    'c',
    'cpp',
    'h',
    'go',
    'rs',
    'sh',
    'css',
    'html',
    'sql',
    'conf',
  ],
  archive: ['zip', 'tar', 'gz', 'tgz', '7z', 'rar', 'bz2', 'xz', 'jar'],
};

const bySuffix = new Map<string, FileType>();
for (const [type, suffixes] of Object.entries(groups)) {
  for (const s of suffixes) bySuffix.set(s, type as FileType);
}

export function fileTypeOf(suffix: string, isFolder: boolean): FileType {
  if (isFolder) return 'folder';
  return bySuffix.get(suffix) ?? 'other';
}

const contentTypes: Record<string, string> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  log: 'text/plain',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  m3u8: 'application/vnd.apple.mpegurl',
  ts: 'video/mp2t',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  opus: 'audio/opus',
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  mind: 'application/json',
  drawio: 'application/xml',
};

export function contentTypeOf(suffix: string, isFolder: boolean): string {
  if (isFolder) return 'folder';
  return contentTypes[suffix] ?? 'application/octet-stream';
}

/** What a row knows of its type from the name: suffix, content type and kind. */
export function typeFactsOf(
  name: string,
  isFolder: boolean,
): { suffix: string; contentType: string; fileType: FileType } {
  const suffix = isFolder ? '' : suffixOf(name);
  return {
    suffix,
    contentType: contentTypeOf(suffix, isFolder),
    fileType: fileTypeOf(suffix, isFolder),
  };
}

const DEFLATABLE = new Set([
  ...groups.text,
  'txt',
  'md',
  'csv',
  'htm',
  'svg',
  'mind',
  'drawio',
  'rtf',
  'bmp',
]);

/**
 * Whether a zip should deflate this type. Deflate runs at about 50 MB/s per core, and most of
 * a drive (media, archives, office files, unknown binaries) does not shrink: only text is worth it.
 */
export function isDeflatable(suffix: string): boolean {
  return DEFLATABLE.has(suffix);
}

const ACTIVE = new Set([
  'html',
  'htm',
  'shtml',
  'xhtml',
  'xht',
  'svg',
  'svgz',
  'xml',
  'xsl',
  'xslt',
  'drawio',
  'mht',
  'mhtml',
  'js',
  'mjs',
]);

/**
 * Names of types a browser could run as a page: served as attachments, never inline. The
 * content decides as well (`servingOf` in file-serve.ts): markup under any name is refused.
 */
export function isActiveContent(suffix: string): boolean {
  return ACTIVE.has(suffix.toLowerCase());
}

const TEXT_SUFFIXES = new Set([
  ...groups.text,
  'txt',
  'text',
  'md',
  'markdown',
  'csv',
  'tsv',
  'log',
  'mind',
  'srt',
  'vtt',
  'diff',
  'patch',
  'properties',
  'cfg',
  'env',
]);

/** Text by its name: shown as plain text (unless its content is markup). */
export function isTextSuffix(suffix: string): boolean {
  return TEXT_SUFFIXES.has(suffix.toLowerCase());
}
