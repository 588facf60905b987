import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../lib/access.ts';
import { USER_BYTES_CSP } from '../files/file-serve.ts';
import { signIn, type DavAuthenticator } from './webdav-auth.ts';
import { drain, leaveBody, sendError } from './webdav-body.ts';
import { DavError } from './webdav-errors.ts';
import { answerAt, davRootOf, parseIf, treePathOf } from './webdav-headers.ts';
import { lock, unlock } from './webdav-locking.ts';
import { proppatch } from './webdav-proppatch.ts';
import { get, propfind } from './webdav-reading.ts';
import { header, type DavRequest } from './webdav-request.ts';
import { copyOrMove, mkcol, put, remove } from './webdav-writing.ts';
import type { WebdavService } from './webdav.service.ts';

const ALLOW =
  'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/**
 * WebDAV at `/webdav/` (RFC 4918, class 1 and 2), owning the protocol: requests leave Fastify
 * before routing and body parsing (methods, bodies and streaming are WebDAV's own), and every
 * change goes through WebdavService, which works through the same services as the web API.
 */
export function installWebdav(
  app: FastifyInstance,
  dav: WebdavService,
  authenticate: DavAuthenticator,
): void {
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.raw.url ?? '';
    if (!davRootOf(url.split('?')[0]!)) return done();
    reply.hijack();
    void handle(request, reply.raw, dav, authenticate).catch((err: unknown) => {
      request.log.error({ err }, 'webdav request failed');
      if (!reply.raw.headersSent) reply.raw.writeHead(500).end();
      else reply.raw.destroy();
    });
  });
}

async function handle(
  request: FastifyRequest,
  out: ServerResponse,
  dav: WebdavService,
  authenticate: DavAuthenticator,
): Promise<void> {
  const req = request.raw;
  out.setHeader('DAV', '1, 2');
  out.setHeader('MS-Author-Via', 'DAV');
  out.setHeader('x-content-type-options', 'nosniff');
  out.setHeader('content-security-policy', USER_BYTES_CSP);
  out.setHeader('referrer-policy', 'no-referrer');
  const method = (req.method ?? 'GET').toUpperCase();
  try {
    if (method === 'OPTIONS') {
      drain(req);
      out.writeHead(200, { Allow: ALLOW, 'Content-Length': '0' }).end();
      return;
    }
    const actor = await signIn(request, authenticate);
    if (!actor) {
      // a stranger's upload is not read: the connection ends after the answer
      leaveBody(req, out);
      out
        .writeHead(401, {
          'WWW-Authenticate': 'Basic realm="Nimbus", charset="UTF-8"',
          'Content-Type': 'text/plain; charset=utf-8',
        })
        .end('Sign in with your username and password or an access token');
      return;
    }
    // the original client's address names the drive: only its owner reaches it
    const where = davRootOf((req.url ?? '/').split('?')[0]!)!;
    if (where.username !== undefined && where.username !== actor.username)
      throw new DavError(403, `This address is the drive of ${where.username}`);
    // treePathOf reads the request's root: the context is made inside the answer
    await answerAt(where.root, actor.username, () =>
      dispatch(contextOf(request, out, actor), method, dav),
    );
  } catch (err) {
    leaveBody(req, out);
    sendError(out, err, request);
  }
}

/** The request's context: who asks, for which path, through which locks. */
function contextOf(request: FastifyRequest, out: ServerResponse, actor: Actor): DavRequest {
  const req = request.raw;
  const ifLists = parseIf(header(req, 'if'));
  const submitted = new Set<string>();
  for (const list of ifLists)
    for (const c of list.conditions) if (c.token && !c.not) submitted.add(c.token);
  return {
    req,
    res: out,
    // the services let a change through a lock whose token the If header names
    actor: { ...actor, lockTokens: submitted },
    path: treePathOf(req.url ?? '/'),
    ifLists,
    submitted,
  };
}

async function dispatch(ctx: DavRequest, method: string, dav: WebdavService): Promise<void> {
  // a change inside a mounted share is the share's to allow: WebdavService asks its gate
  switch (method) {
    case 'GET':
    case 'HEAD':
      return get(ctx, dav, method === 'HEAD');
    case 'PUT':
      return put(ctx, dav);
    case 'PROPFIND':
      return propfind(ctx, dav);
    case 'PROPPATCH':
      return proppatch(ctx, dav);
    case 'MKCOL':
      return mkcol(ctx, dav);
    case 'DELETE':
      return remove(ctx, dav);
    case 'COPY':
    case 'MOVE':
      return copyOrMove(ctx, dav, method === 'MOVE');
    case 'LOCK':
      return lock(ctx, dav);
    case 'UNLOCK':
      return unlock(ctx, dav);
    default:
      throw new DavError(405, 'This method is not supported here', undefined, { Allow: ALLOW });
  }
}
