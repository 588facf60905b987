import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { davStatusOf, DavError } from './webdav-errors.ts';
import { header } from './webdav-request.ts';
import { parseXml, XML_HEAD, type XmlElement } from './webdav-xml.ts';

/** XML bodies (PROPFIND, PROPPATCH, LOCK) are small; more than this is refused. */
export const MAX_XML_BODY = 1024 * 1024;

/** Throw away a body nobody reads, so the connection stays usable. */
export function drain(req: IncomingMessage): void {
  if (!req.readableEnded) req.resume();
}

/** How long a connection closed under an unread body still takes in what was already sent. */
const LINGER_MS = 2000;

/**
 * An answer given before the request's body was read. A short body is read and dropped, and
 * the connection serves the next request; a long or unbounded one (an upload refused part way,
 * or sent by a stranger) is not read to its end: the answer says `Connection: close`, the
 * connection is half-closed once it is sent, and what still arrives is dropped for a moment
 * before it ends, so the client reads the answer instead of a reset.
 */
export function leaveBody(req: IncomingMessage, out: ServerResponse): void {
  if (req.readableEnded) return;
  const length = header(req, 'content-length');
  const bounded = length !== undefined && header(req, 'transfer-encoding') === undefined;
  if (bounded && Number(length) <= MAX_XML_BODY) return drain(req);
  if (out.headersSent) return;
  out.setHeader('Connection', 'close');
  out.once('finish', () => {
    const socket = req.socket;
    socket.end();
    req.resume();
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  });
}

/** A request's XML body, or null when it has none. */
export async function readXml(req: IncomingMessage): Promise<XmlElement | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_XML_BODY) throw new DavError(413, 'The XML body is too large');
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return null;
  return parseXml(text);
}

export function sendXml(res: ServerResponse, status: number, xml: string): void {
  const body = Buffer.from(xml, 'utf8');
  res
    .writeHead(status, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Length': String(body.length),
    })
    .end(body);
}

export function sendError(res: ServerResponse, err: unknown, request: FastifyRequest): void {
  if (res.headersSent) {
    request.log.warn({ err }, 'webdav answer broken off');
    res.destroy();
    return;
  }
  let status = 500;
  let message = 'Internal server error';
  let condition: string | undefined;
  const headers: Record<string, string> = {};
  if (err instanceof DavError) {
    ({ status, message, condition } = err);
    Object.assign(headers, err.headers);
  } else if (err instanceof AppError) {
    status = davStatusOf(err);
    message = err.message;
    const retry = (err.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
    if (retry) headers['Retry-After'] = String(retry);
  } else request.log.error({ err }, 'webdav request failed');
  if (condition) {
    sendXml(res, status, `${XML_HEAD}<D:error xmlns:D="DAV:"><D:${condition}/></D:error>`);
    return;
  }
  const body = Buffer.from(`${message}\n`, 'utf8');
  res
    .writeHead(status, {
      ...headers,
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(body.length),
    })
    .end(body);
}

/** Text gathered into large writes; waits only when much is queued for a slow receiver. */
export class ChunkWriter {
  private parts: string[] = [];
  private length = 0;

  constructor(private readonly out: NodeJS.WritableStream & { writableLength?: number }) {}

  async write(text: string): Promise<void> {
    this.parts.push(text);
    this.length += text.length;
    if (this.length >= 256 * 1024) await this.flush();
  }

  private async flush(): Promise<void> {
    const chunk = this.parts.join('');
    this.parts = [];
    this.length = 0;
    const out = this.out as NodeJS.WritableStream & {
      writableLength: number;
      destroyed: boolean;
    };
    if (out.destroyed) throw new Error('The client went away');
    out.write(chunk);
    if (out.writableLength > 4 * 1024 * 1024) await drained(out);
  }

  async end(): Promise<void> {
    await this.flush();
    this.out.end();
  }
}

/** The stream has room again, or is gone. */
function drained(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
