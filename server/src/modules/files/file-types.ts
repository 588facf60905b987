import { contentTypeOf, fileTypeOf, isTextSuffix, type FileType } from '@nimbus/contract';
import { suffixOf } from './names.ts';

// the one table of suffixes (kinds, types, media types) is the contract's, which the web app
// reads as well
export { contentTypeOf, fileTypeOf, isTextSuffix, type FileType };

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
