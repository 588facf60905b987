import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { BROWSER_IMAGE_SUFFIXES, contentTypeOf, ErrorCode } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { zipStream, type ZipEntry } from '../../lib/zip.ts';
import type { BlobStat, BlobStore, Place } from '../../storage/blob-store.ts';
import { isActiveContent, isTextSuffix } from './file-types.ts';
import type { FileRow } from './files.repo.ts';

/** RFC 6266 / 5987: an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

interface Range {
  start: number;
  end: number;
}

/** One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n`; null when unsatisfiable. */
export function parseRange(header: string, size: number): Range | null | 'ignore' {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m) return 'ignore'; // several ranges or another unit: answer with the whole file
  const [, a, b] = m;
  if (a === '' && b === '') return 'ignore';
  let start: number;
  let end: number;
  if (a === '') {
    const suffix = Number(b);
    if (suffix === 0) return null;
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(a);
    end = b === '' ? size - 1 : Math.min(Number(b), size - 1);
  }
  if (start >= size || start > end) return null;
  return { start, end };
}

/** The policy of every response that carries stored bytes: nothing in them may run or load. */
export const USER_BYTES_CSP = "sandbox; default-src 'none'";

/** Headers every response carrying stored bytes gets, whatever route sends it. */
export function markUserBytes(reply: FastifyReply): void {
  reply.header('x-content-type-options', 'nosniff');
  reply.header('content-security-policy', USER_BYTES_CSP);
}

/** Where bytes to send are: a store and a place in it. */
export interface StoredBytes {
  blobs: BlobStore;
  place: Place;
  /** What the caller already read of the place (a cache entry it just looked at): not read again. */
  stat?: BlobStat;
  /**
   * Bytes this server made itself (a thumbnail it drew): their type is the row's, so their first
   * bytes are not read to decide how they may be shown.
   */
  made?: boolean;
}

/** How much of a file the serving decision looks at. */
const HEAD_BYTES = 1024;

/** How stored bytes may leave the server, decided by `servingOf`. */
export interface Serving {
  /** The Content-Type sent. */
  type: string;
  /** Shown in the browser; otherwise a download (attachment). */
  inline: boolean;
  /**
   * What a preview may show of it when downloads are not allowed: `media` whole (images, audio,
   * video, PDF), `text` its first `TEXT_PREVIEW_BYTES`; null for anything else.
   */
  preview: 'media' | 'text' | null;
}

/** At most this much of a text file is a preview of it (when downloads are not allowed). */
export const TEXT_PREVIEW_BYTES = 2 * 1024 * 1024;

/**
 * Serving decision made on the content: the first bytes (after any byte-order mark and
 * whitespace) open markup, or markup a browser would act on appears near the start of text.
 */
export function looksLikeMarkup(head: Buffer, asText: boolean): boolean {
  let text: string;
  if (head[0] === 0xff && head[1] === 0xfe) text = head.subarray(2).toString('utf16le');
  else if (head[0] === 0xfe && head[1] === 0xff) {
    const swapped = Buffer.from(head.subarray(2, 2 + ((head.length - 2) & ~1)));
    text = swapped.swap16().toString('utf16le');
  } else {
    const start = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
    // NULs dropped: UTF-16 without a byte-order mark reads as the same characters
    text = head.subarray(start).toString('latin1').replace(/\0/g, '');
  }
  text = text.replace(/^\ufeff/, '');
  if (/^[\s\0]*</.test(text)) return true;
  return (
    asText &&
    /<(?:!doctype|\?xml|html|head|body|script|svg|iframe|frame|object|embed|meta|link|style|base|form|math|xsl:)[\s/>:]/i.test(
      text,
    )
  );
}

/**
 * Types shown inline as what they are: they run nothing in a browser. The images are those a
 * browser draws from their own bytes (the contract's list, which the web app views them by).
 */
const INERT_MEDIA = new Set([
  ...BROWSER_IMAGE_SUFFIXES.map((suffix) => contentTypeOf(suffix, false)),
  'image/tiff',
  'image/heic',
  'video/mp4',
  'video/webm',
  'video/x-matroska',
  'video/quicktime',
  'video/x-msvideo',
  'audio/mpeg',
  'audio/wav',
  'audio/flac',
  'audio/aac',
  'audio/ogg',
  'audio/mp4',
  'audio/opus',
]);

/** Text types shown inline as plain text. Markup (HTML, XML, SVG) is never among them. */
const INERT_TEXT = new Set([
  'text/plain',
  'text/markdown',
  'text/csv',
  'text/yaml',
  'text/css',
  'text/javascript',
  'application/json',
]);

/**
 * The one decision of how stored bytes leave the server, made on what they are rather than on
 * their name: inert media inline as their type, text inline as plain text, and anything else,
 * above all anything that looks like markup (HTML, XHTML, SVG, XML of any name), as a download.
 */
export function servingOf(row: Pick<FileRow, 'contentType' | 'suffix'>, head: Buffer): Serving {
  const declared = row.contentType;
  const download: Serving = { type: 'application/octet-stream', inline: false, preview: null };
  const asText = INERT_TEXT.has(declared) || isTextSuffix(row.suffix);
  if (isActiveContent(row.suffix) || looksLikeMarkup(head, asText)) return download;
  if (INERT_MEDIA.has(declared)) return { type: declared, inline: true, preview: 'media' };
  // a browser's own PDF viewer runs a document's scripts whatever the CSP says: a PDF is shown
  // only by the app's bundled viewer (which fetches it) and otherwise goes out as a download
  if (declared === 'application/pdf') return { type: declared, inline: false, preview: 'media' };
  if (asText && !head.includes(0))
    return { type: 'text/plain; charset=utf-8', inline: true, preview: 'text' };
  if (declared === 'folder' || /(^|[/+])(x?html|xml)$/.test(declared)) return download;
  return { type: declared, inline: false, preview: null };
}

export interface SendOptions {
  /** Asked for as a download (`?o=download`). */
  download: boolean;
  /**
   * Downloads are not allowed (a share without the permission): only what a preview shows is
   * sent, inline; anything else is refused with this error.
   */
  previewOnly?: () => Error;
}

/**
 * Send a file's bytes with plain HTTP semantics: Range (206/416), ETag and If-None-Match,
 * Content-Type and Content-Disposition. Every route that sends a stored file's bytes goes
 * through here: the type and disposition come from `servingOf`, and the response always carries
 * `nosniff` and a sandboxing Content-Security-Policy.
 */
export async function sendFileBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  source: StoredBytes,
  row: Pick<FileRow, 'name' | 'contentType' | 'hash' | 'size' | 'updateDate' | 'suffix'>,
  options: SendOptions,
): Promise<FastifyReply> {
  const { blobs, place } = source;
  let stat: BlobStat | null;
  let head: Buffer;
  try {
    stat = source.stat ?? (await blobs.stat(place));
    head =
      stat && !stat.isFolder && !source.made
        ? await blobs.readHead(place, HEAD_BYTES)
        : Buffer.alloc(0);
  } catch {
    stat = null;
    head = Buffer.alloc(0);
  }
  if (!stat)
    throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk; rebuild the index');
  if (stat.isFolder) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Not a file');
  const size = stat.size;
  const serving = servingOf(row, head);
  let limit = size;
  if (options.previewOnly) {
    if (options.download || !serving.preview) throw options.previewOnly();
    if (serving.preview === 'text') limit = Math.min(size, TEXT_PREVIEW_BYTES);
  }
  const etag = `"${row.hash ? row.hash.slice(0, 32) : `${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`}"`;
  markUserBytes(reply);
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', etag);
  reply.header('last-modified', new Date(stat.mtimeMs).toUTCString());
  reply.header('cache-control', 'private, max-age=0, must-revalidate');
  reply.header('content-type', serving.type);
  reply.header(
    'content-disposition',
    contentDisposition(serving.inline && !options.download ? 'inline' : 'attachment', row.name),
  );
  if (request.headers['if-none-match'] === etag && limit === size) return reply.status(304).send();

  let start = 0;
  let end = size - 1;
  let ranged = false;
  const rangeHeader = request.headers.range;
  const ifRange = request.headers['if-range'];
  if (rangeHeader && (!ifRange || ifRange === etag)) {
    const range = parseRange(rangeHeader, size);
    if (range === null) {
      reply.header('content-range', `bytes */${size}`);
      return reply.status(416).send();
    }
    if (range !== 'ignore') {
      ({ start, end } = range);
      ranged = true;
    }
  }
  // a text preview is its beginning: a request for more than that is a download
  if (end >= limit && size > 0) {
    if (!ranged || start >= limit) throw options.previewOnly!();
    end = limit - 1;
  }
  if (ranged) {
    reply.status(206);
    reply.header('content-range', `bytes ${start}-${end}/${size}`);
  }
  reply.header('content-length', String(size === 0 ? 0 : end - start + 1));
  if (request.method === 'HEAD' || size === 0) return reply.send();
  // 1 MiB reads: a bare Node stream needs them to come close to nginx (ARCHITECTURE §8)
  return reply.send(await openedRead(blobs, place, { start, end }));
}

/**
 * A read of bytes that may go at any time (a cache entry the sweep removes): the file is open
 * before the answer starts, so a removal after that cannot break it, and one before is a 404.
 */
export async function openedRead(
  blobs: BlobStore,
  place: Place,
  range?: { start: number; end: number },
): Promise<Readable> {
  const stream = blobs.read(place, range) as Readable & { pending?: boolean };
  // a file stream says whether it is still opening; other streams are ready as they come
  if (stream.pending !== true) return stream;
  try {
    await new Promise<void>((resolve, reject) => {
      const onReady = () => {
        stream.off('error', onError);
        resolve();
      };
      const onError = (err: unknown) => {
        stream.off('ready', onReady);
        reject(err instanceof Error ? err : new Error(String(err)));
      };
      stream.once('ready', onReady);
      stream.once('error', onError);
    });
  } catch {
    stream.destroy();
    throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk');
  }
  return stream;
}

/** Send a zip, written as it is read: no temporary file, the first byte leaves at once. */
export function sendZip(
  reply: FastifyReply,
  zip: { name: string; entries: AsyncIterable<ZipEntry> },
): FastifyReply {
  markUserBytes(reply);
  reply.header('content-type', 'application/zip');
  reply.header('content-disposition', contentDisposition('attachment', zip.name));
  reply.header('cache-control', 'no-store');
  return reply.send(
    Readable.from(zipStream(zip.entries), { objectMode: false, highWaterMark: 1024 * 1024 }),
  );
}
