import fs from 'node:fs';
import fsp from 'node:fs/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { isActiveContent } from './file-types.ts';
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

/**
 * Send a file's bytes with plain HTTP semantics: Range (206/416), ETag and If-None-Match,
 * Content-Type and Content-Disposition. Types a browser would run (HTML, SVG…) always download.
 */
export async function sendFileBytes(
  request: FastifyRequest,
  reply: FastifyReply,
  diskPath: string,
  row: Pick<FileRow, 'name' | 'contentType' | 'hash' | 'size' | 'updateDate' | 'suffix'>,
  options: { download: boolean },
): Promise<FastifyReply> {
  let stat: fs.Stats;
  try {
    stat = await fsp.stat(diskPath);
  } catch {
    throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file is missing on disk; rebuild the index');
  }
  if (!stat.isFile()) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Not a file');
  const size = stat.size;
  const etag = `"${row.hash ? row.hash.slice(0, 32) : `${size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}`}"`;
  const active = isActiveContent(row.suffix);
  reply.header('accept-ranges', 'bytes');
  reply.header('etag', etag);
  reply.header('last-modified', stat.mtime.toUTCString());
  reply.header('cache-control', 'private, max-age=0, must-revalidate');
  reply.header('x-content-type-options', 'nosniff');
  reply.header(
    'content-type',
    active
      ? 'application/octet-stream'
      : row.contentType === 'folder'
        ? 'application/octet-stream'
        : row.contentType,
  );
  reply.header(
    'content-disposition',
    contentDisposition(options.download || active ? 'attachment' : 'inline', row.name),
  );
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();

  let start = 0;
  let end = size - 1;
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
      reply.status(206);
      reply.header('content-range', `bytes ${start}-${end}/${size}`);
    }
  }
  reply.header('content-length', String(size === 0 ? 0 : end - start + 1));
  if (request.method === 'HEAD' || size === 0) return reply.send();
  // 1 MiB reads: a bare Node stream needs them to come close to nginx (ARCHITECTURE §8)
  return reply.send(fs.createReadStream(diskPath, { start, end, highWaterMark: 1024 * 1024 }));
}
