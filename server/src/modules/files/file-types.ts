import { fileTypeOf, isTextSuffix, type FileType } from '@nimbus/contract';
import { suffixOf } from './names.ts';

// the one table of suffixes is the contract's, which the web app reads as well
export { fileTypeOf, isTextSuffix, type FileType };

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
  jfif: 'image/jpeg',
  png: 'image/png',
  apng: 'image/apng',
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
  rmvb: 'application/vnd.rn-realmedia-vbr',
  // TypeScript (docs/DECISIONS.md), not an MPEG transport stream
  ts: 'text/plain',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  opus: 'audio/opus',
  mid: 'audio/midi',
  midi: 'audio/midi',
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

const DEFLATABLE = new Set(['svg', 'rtf', 'bmp', 'drawio']);

/**
 * Whether a zip should deflate this type. Deflate runs at about 50 MB/s per core, and most of
 * a drive (media, archives, office files, unknown binaries) does not shrink: only text is worth it.
 */
export function isDeflatable(suffix: string): boolean {
  return isTextSuffix(suffix) || DEFLATABLE.has(suffix);
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
