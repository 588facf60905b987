import type { IncomingMessage, ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { contentDisposition, parseRange, servingOf, USER_BYTES_CSP } from '../files/file-serve.ts';
import { bytesGrant, requireDownload } from '../files/bytes-grant.ts';
import { davStatusOf, DavError, notFound, preconditionFailed } from './webdav-errors.ts';
import { tokenRefusal } from '../auth/token-scope.ts';
import type { DavAuthenticator } from './webdav-auth.ts';
import {
  DAV_ROOT,
  isWithin,
  parseDepth,
  parseIf,
  parseTimeout,
  treePathOf,
  type IfList,
} from './webdav-headers.ts';
import {
  activeLockXml,
  entryOf,
  etagOf,
  LIVE_PROPS,
  locksOn,
  MULTISTATUS_CLOSE,
  MULTISTATUS_OPEN,
  responseXml,
  type PropRequest,
} from './webdav-props.ts';
import { isFolderItem, type DavItem, type WebdavService } from './webdav.service.ts';
import type { PropertyRow } from './webdav.repo.ts';
import {
  DAV_NS,
  elements,
  escapeXml,
  firstDav,
  isDav,
  parseXml,
  propKey,
  serializeElement,
  XML_HEAD,
  type XmlElement,
} from './webdav-xml.ts';

/** XML bodies (PROPFIND, PROPPATCH, LOCK) are small; more than this is refused. */
const MAX_XML_BODY = 1024 * 1024;
/** A dead property's value, as XML, at most. */
const MAX_PROP_VALUE = 64 * 1024;
const MAX_PROP_NAME = 1024;

const ALLOW =
  'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, MKCOL, COPY, MOVE, LOCK, UNLOCK';

/** One request being answered: who, where, and the lock tokens it holds. */
interface DavRequest {
  req: IncomingMessage;
  res: ServerResponse;
  actor: Actor;
  path: string;
  ifLists: IfList[];
  /** Lock tokens the If header names (not negated): the locks this request may write through. */
  submitted: Set<string>;
}

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
    if (url !== DAV_ROOT && !url.startsWith(`${DAV_ROOT}/`) && !url.startsWith(`${DAV_ROOT}?`))
      return done();
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
    const ifLists = parseIf(header(req, 'if'));
    const submitted = new Set<string>();
    for (const list of ifLists)
      for (const c of list.conditions) if (c.token && !c.not) submitted.add(c.token);
    const ctx: DavRequest = {
      req,
      res: out,
      // the services let a change through a lock whose token the If header names
      actor: { ...actor, lockTokens: submitted },
      path: treePathOf(req.url ?? '/'),
      ifLists,
      submitted,
    };
    await dispatch(ctx, method, dav);
  } catch (err) {
    leaveBody(req, out);
    sendError(out, err, request);
  }
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

// ---- sign-in ------------------------------------------------------------------------------

async function signIn(request: FastifyRequest, authenticate: DavAuthenticator) {
  const auth = header(request.raw, 'authorization');
  if (!auth || !/^basic /i.test(auth)) return null;
  const decoded = Buffer.from(auth.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const actor = await authenticate({
    username: decoded.slice(0, colon),
    secret: decoded.slice(colon + 1),
    ip: request.ip,
  });
  // an access token does what its scope allows (the same rule as the API's)
  const refusal =
    actor?.accessToken &&
    tokenRefusal(actor.accessToken.scope, { surface: 'webdav', method: request.raw.method ?? '' });
  if (refusal) throw new DavError(403, refusal);
  return actor;
}

// ---- conditions and locks -----------------------------------------------------------------

/** The If header (RFC 4918 §10.4): one of its lists must hold, or 412. */
async function checkIf(ctx: DavRequest, dav: WebdavService): Promise<void> {
  if (ctx.ifLists.length === 0) return;
  const states = new Map<string, { tokens: Set<string>; etag: string | null }>();
  const stateOf = async (path: string) => {
    let state = states.get(path);
    if (!state) {
      const item = await dav.find(ctx.actor.id, path);
      const locks = await dav.locks.covering(ctx.actor.id, path);
      state = {
        tokens: new Set(locks.map((l) => l.token)),
        etag:
          item?.kind === 'row' && !item.row.isFolder ? etagOf(item.row, item.row.updateDate) : null,
      };
      states.set(path, state);
    }
    return state;
  };
  for (const list of ctx.ifLists) {
    let path = ctx.path;
    if (list.resource !== undefined) {
      try {
        path = treePathOf(list.resource);
      } catch {
        continue;
      }
    }
    const state = await stateOf(path);
    const holds = list.conditions.every((c) => {
      const match = c.token !== undefined ? state.tokens.has(c.token) : c.etag === state.etag;
      return c.not ? !match : match;
    });
    if (holds) return;
  }
  throw preconditionFailed('No list of the If header holds');
}

// ---- reading ------------------------------------------------------------------------------

async function get(ctx: DavRequest, dav: WebdavService, headOnly: boolean): Promise<void> {
  drain(ctx.req);
  await checkIf(ctx, dav);
  const item = await dav.mustFind(ctx.actor.id, ctx.path);
  const { res, req } = ctx;
  if (item.kind === 'root' || item.row.isFolder) {
    const text = 'This is a folder: open it with a WebDAV client.\n';
    res.writeHead(200, {
      'Content-Type': 'text/plain; charset=utf-8',
      'Content-Length': String(Buffer.byteLength(text)),
    });
    res.end(headOnly ? undefined : text);
    return;
  }
  const row = item.row;
  // a GET is a download; HEAD tells only what PROPFIND does
  // through a mount, the share's own rule (as the API's mounted downloads)
  if (!headOnly) requireDownload(bytesGrant(ctx.actor, item.mount?.open ?? null));
  const blobs = dav.blobs;
  const place = dav.placeOf(dav.ownerOf(ctx.actor, item), row);
  const stat = await blobs.stat(place);
  if (!stat || stat.isFolder) throw notFound('The file is missing on disk; rebuild the index');
  const head = await blobs.readHead(place, 1024);
  const serving = servingOf(row, head);
  // the same tag and date as the API's (file-serve.ts)
  const etag = etagOf(row, stat.mtimeMs);
  const size = stat.size;
  const headers: Record<string, string> = {
    'Accept-Ranges': 'bytes',
    ETag: etag,
    'Last-Modified': new Date(stat.mtimeMs).toUTCString(),
    'Cache-Control': 'private, max-age=0, must-revalidate',
    'Content-Type': serving.type,
    'Content-Disposition': contentDisposition(serving.inline ? 'inline' : 'attachment', row.name),
  };
  if (header(req, 'if-none-match') === etag) {
    res.writeHead(304, headers).end();
    return;
  }
  let start = 0;
  let end = size - 1;
  let status = 200;
  const range = header(req, 'range');
  const ifRange = header(req, 'if-range');
  if (range && size > 0 && (!ifRange || ifRange === etag)) {
    const parsed = parseRange(range, size);
    if (parsed === null) {
      res.writeHead(416, { ...headers, 'Content-Range': `bytes */${size}` }).end();
      return;
    }
    if (parsed !== 'ignore') {
      ({ start, end } = parsed);
      status = 206;
      headers['Content-Range'] = `bytes ${start}-${end}/${size}`;
    }
  }
  headers['Content-Length'] = String(size === 0 ? 0 : end - start + 1);
  res.writeHead(status, headers);
  if (headOnly || size === 0) {
    res.end();
    return;
  }
  await pipeline(blobs.read(place, { start, end }), res);
}

async function propfind(ctx: DavRequest, dav: WebdavService): Promise<void> {
  const depth = parseDepth(header(ctx.req, 'depth'), 'infinity');
  const body = await readXml(ctx.req);
  const request = propRequestOf(body);
  await checkIf(ctx, dav);
  if (depth === 'infinity')
    throw new DavError(
      403,
      'Depth infinity is not served: ask for depth 0 or 1',
      'propfind-finite-depth',
    );
  const userId = ctx.actor.id;
  const item = await dav.mustFind(userId, ctx.path);
  const listing = depth === '1' && isFolderItem(item);
  const [locks, props, childProps] = await Promise.all([
    listing ? dav.locks.around(userId, ctx.path) : dav.locks.covering(userId, ctx.path),
    dav.props(item),
    listing ? dav.childProps(userId, item) : Promise.resolve(new Map<string, PropertyRow[]>()),
  ]);
  const { res } = ctx;
  const gzip = /\bgzip\b/.test(header(ctx.req, 'accept-encoding') ?? '');
  res.writeHead(207, {
    'Content-Type': 'application/xml; charset=utf-8',
    ...(gzip ? { 'Content-Encoding': 'gzip', Vary: 'Accept-Encoding' } : {}),
  });
  const zipped = gzip ? createGzip({ level: 1 }) : null;
  const sink = zipped ?? res;
  const done = zipped ? pipeline(zipped, res) : Promise.resolve();
  const writer = new ChunkWriter(sink);
  await writer.write(XML_HEAD + MULTISTATUS_OPEN);
  await writer.write(responseXml(entryOf(item), request, locksOn(ctx.path, locks), props));
  if (listing) {
    const prefix = ctx.path === '/' ? '/' : `${ctx.path}/`;
    for await (const rows of dav.children(userId, item))
      for (const row of rows) {
        const path = `${prefix}${row.name}`;
        await writer.write(
          responseXml({ path, row }, request, locksOn(path, locks), childProps.get(row.id) ?? []),
        );
      }
    for (const mounted of await dav.mountsIn(userId, item))
      await writer.write(responseXml(entryOf(mounted), request, locksOn(mounted.path, locks), []));
  }
  await writer.write(MULTISTATUS_CLOSE);
  await writer.end();
  await done;
}

function propRequestOf(body: XmlElement | null): PropRequest {
  if (!body) return { kind: 'all', include: [] };
  if (!isDav(body, 'propfind')) throw new DavError(400, 'The body is not a propfind');
  const children = elements(body);
  if (children.some((c) => isDav(c, 'propname'))) return { kind: 'names' };
  const prop = children.find((c) => isDav(c, 'prop'));
  if (prop) return { kind: 'some', keys: elements(prop).map((p) => propKey(p.ns, p.local)) };
  if (children.some((c) => isDav(c, 'allprop'))) {
    const include = children.find((c) => isDav(c, 'include'));
    return {
      kind: 'all',
      include: include ? elements(include).map((p) => propKey(p.ns, p.local)) : [],
    };
  }
  throw new DavError(400, 'The propfind asks for nothing');
}

// ---- writing ------------------------------------------------------------------------------

async function put(ctx: DavRequest, dav: WebdavService): Promise<void> {
  const { req, res, actor } = ctx;
  if (header(req, 'content-range'))
    throw new DavError(400, 'Partial PUT is not supported: send the whole file');
  await checkIf(ctx, dav);
  const existing = await dav.find(actor.id, ctx.path);
  if (existing && isFolderItem(existing)) throw new DavError(405, 'A folder is at this address');
  await dav.locks.assertMayWrite(
    actor.id,
    { path: ctx.path, membership: !existing, below: false },
    ctx.submitted,
  );
  const length = header(req, 'content-length') ?? header(req, 'x-expected-entity-length');
  const expectedBytes =
    length !== undefined && /^\d{1,15}$/.test(length) ? Number(length) : undefined;
  const mtime = header(req, 'x-oc-mtime');
  const mtimeMs = mtime && /^\d{1,12}$/.test(mtime) ? Number(mtime) * 1000 : undefined;
  const { created, row } = await dav.writeFile(actor, ctx.path, req, { expectedBytes, mtimeMs });
  const headers: Record<string, string> = {
    ETag: etagOf(row, row.updateDate),
    'Content-Length': '0',
  };
  if (mtimeMs !== undefined) headers['X-OC-MTime'] = 'accepted';
  res.writeHead(created ? 201 : 204, headers).end();
}

async function mkcol(ctx: DavRequest, dav: WebdavService): Promise<void> {
  const { req, res, actor } = ctx;
  const length = header(req, 'content-length');
  if ((length && length !== '0') || header(req, 'transfer-encoding'))
    throw new DavError(415, 'MKCOL takes no body');
  await checkIf(ctx, dav);
  if (await dav.find(actor.id, ctx.path)) throw new DavError(405, 'Something is already here');
  await dav.locks.assertMayWrite(
    actor.id,
    { path: ctx.path, membership: true, below: false },
    ctx.submitted,
  );
  await dav.makeFolder(actor, ctx.path);
  res.writeHead(201, { 'Content-Length': '0' }).end();
}

async function remove(ctx: DavRequest, dav: WebdavService): Promise<void> {
  drain(ctx.req);
  const { actor } = ctx;
  const item = await dav.mustFind(actor.id, ctx.path);
  if (isFolderItem(item) && parseDepth(header(ctx.req, 'depth'), 'infinity') !== 'infinity')
    throw new DavError(400, 'A folder is deleted with everything in it (depth infinity)');
  await checkIf(ctx, dav);
  await dav.locks.assertMayWrite(
    actor.id,
    { path: ctx.path, membership: true, below: true },
    ctx.submitted,
  );
  await dav.remove(actor, item);
  ctx.res.writeHead(204).end();
}

async function copyOrMove(ctx: DavRequest, dav: WebdavService, isMove: boolean): Promise<void> {
  drain(ctx.req);
  const { req, res, actor } = ctx;
  const destination = header(req, 'destination');
  if (!destination) throw new DavError(400, 'A Destination header is needed');
  const to = treePathOf(destination);
  const item = await dav.mustFind(actor.id, ctx.path);
  const depth = parseDepth(header(req, 'depth'), 'infinity');
  if (depth === '1' || (isMove && depth !== 'infinity'))
    throw new DavError(400, 'Depth must be infinity (or 0 for a copy)');
  if (to === ctx.path) throw new DavError(403, 'The source and the destination are the same');
  if (to === '/' || (isFolderItem(item) && isWithin(to, ctx.path)))
    throw new DavError(409, 'A folder cannot go inside itself');
  // overwriting a folder the source is in would put the source in the trash first
  if (isWithin(ctx.path, to)) throw new DavError(409, 'The destination holds the source');
  const overwrite = (header(req, 'overwrite') ?? 'T').trim().toUpperCase() !== 'F';
  await checkIf(ctx, dav);
  const target = await dav.find(actor.id, to);
  if (target && !overwrite) throw preconditionFailed('The destination exists and Overwrite is F');
  await dav.parentOf(actor.id, to);
  if (isMove)
    await dav.locks.assertMayWrite(
      actor.id,
      { path: ctx.path, membership: true, below: true },
      ctx.submitted,
    );
  await dav.locks.assertMayWrite(
    actor.id,
    { path: to, membership: true, below: target !== null },
    ctx.submitted,
  );
  await dav.transfer(actor, item, to, {
    move: isMove,
    deep: depth === 'infinity',
    replacing: target,
  });
  res.writeHead(target ? 204 : 201, { 'Content-Length': '0' }).end();
}

async function proppatch(ctx: DavRequest, dav: WebdavService): Promise<void> {
  const body = await readXml(ctx.req);
  if (!body || !isDav(body, 'propertyupdate'))
    throw new DavError(400, 'The body is not a propertyupdate');
  await checkIf(ctx, dav);
  const item = await dav.mustFind(ctx.actor.id, ctx.path);
  await dav.locks.assertMayWrite(
    ctx.actor.id,
    { path: ctx.path, membership: false, below: false },
    ctx.submitted,
  );
  const changes: ({ name: string; value: string } | { name: string; value: null })[] = [];
  const results: { key: string; status: number }[] = [];
  for (const step of elements(body)) {
    const isSet = isDav(step, 'set');
    if (!isSet && !isDav(step, 'remove')) continue;
    const prop = firstDav(step, 'prop');
    if (!prop) throw new DavError(400, 'A set or remove without a prop');
    for (const p of elements(prop)) {
      const key = propKey(p.ns, p.local);
      let status = 200;
      if (p.ns === DAV_NS || LIVE_PROPS.includes(key)) status = 403;
      else if (item.kind === 'root') status = 403;
      else if (key.length > MAX_PROP_NAME) status = 400;
      const value = isSet ? serializeElement(p) : null;
      if (value !== null && value.length > MAX_PROP_VALUE) status = 507;
      results.push({ key, status });
      if (status === 200) changes.push({ name: key, value });
    }
  }
  const failed = results.some((r) => r.status !== 200);
  if (!failed && changes.length) await dav.updateProps(ctx.actor, item, changes);
  // all or nothing: when one fails, the others are "failed dependency"
  const byStatus = new Map<number, string[]>();
  for (const r of results) {
    const status = failed && r.status === 200 ? 424 : r.status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), r.key]);
  }
  let xml = `${XML_HEAD}${MULTISTATUS_OPEN}<D:response><D:href>${escapeXml(hrefFor(ctx.path, item))}</D:href>`;
  for (const [status, keys] of byStatus) {
    const props = keys
      .map((k) => {
        const end = k.indexOf('}');
        const ns = k.slice(1, end);
        const local = k.slice(end + 1);
        return ns === DAV_NS ? `<D:${local}/>` : `<${local} xmlns="${escapeXml(ns)}"/>`;
      })
      .join('');
    xml += `<D:propstat><D:prop>${props}</D:prop><D:status>HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}</D:status></D:propstat>`;
  }
  xml += `</D:response>${MULTISTATUS_CLOSE}`;
  sendXml(ctx.res, 207, xml);
}

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  403: 'Forbidden',
  424: 'Failed Dependency',
  507: 'Insufficient Storage',
};

async function lock(ctx: DavRequest, dav: WebdavService): Promise<void> {
  const { req, res, actor } = ctx;
  const body = await readXml(req);
  const timeoutSeconds = parseTimeout(header(req, 'timeout'));
  if (!body) {
    // a refresh: the lock named in the If header lives longer
    await checkIf(ctx, dav);
    const refreshed = await dav.locks.refresh(actor.id, ctx.path, ctx.submitted, timeoutSeconds);
    sendXml(res, 200, lockAnswer(refreshed));
    return;
  }
  if (!isDav(body, 'lockinfo')) throw new DavError(400, 'The body is not a lockinfo');
  const scope = firstDav(body, 'lockscope');
  const exclusive = scope ? elements(scope).some((e) => isDav(e, 'exclusive')) : true;
  if (scope && !exclusive && !elements(scope).some((e) => isDav(e, 'shared')))
    throw new DavError(400, 'The lock scope is neither exclusive nor shared');
  const type = firstDav(body, 'locktype');
  if (type && !elements(type).some((e) => isDav(e, 'write')))
    throw new DavError(400, 'Only write locks exist');
  const ownerEl = firstDav(body, 'owner');
  let owner: string | null = null;
  if (ownerEl) {
    owner = ownerEl.children
      .map((c) => (typeof c === 'string' ? escapeXml(c) : serializeElement(c)))
      .join('');
    if (owner.length > 4096) throw new DavError(400, 'The lock owner is too long');
  }
  const depth = parseDepth(header(req, 'depth'), 'infinity');
  if (depth === '1') throw new DavError(400, 'A lock has depth 0 or infinity');
  await checkIf(ctx, dav);
  const existing = await dav.find(actor.id, ctx.path);
  if (existing) await dav.mayLock(actor, existing);
  else {
    await dav.parentOf(actor.id, ctx.path);
    await dav.locks.assertMayWrite(
      actor.id,
      { path: ctx.path, membership: true, below: false },
      ctx.submitted,
    );
  }
  const taken = await dav.locks.lock(actor.id, ctx.path, {
    deep: depth === 'infinity',
    exclusive,
    owner,
    timeoutSeconds,
  });
  if (!existing) {
    try {
      // the new lock's own token lets its empty file through
      await dav.touch({ ...actor, lockTokens: new Set([...ctx.submitted, taken.token]) }, ctx.path);
    } catch (err) {
      await dav.repo.deleteLock(actor.id, taken.token);
      throw err;
    }
  }
  res.setHeader('Lock-Token', `<${taken.token}>`);
  sendXml(res, existing ? 200 : 201, lockAnswer(taken));
}

const lockAnswer = (lock: Parameters<typeof activeLockXml>[0]) =>
  `${XML_HEAD}<D:prop xmlns:D="DAV:"><D:lockdiscovery>${activeLockXml(lock)}</D:lockdiscovery></D:prop>`;

async function unlock(ctx: DavRequest, dav: WebdavService): Promise<void> {
  drain(ctx.req);
  const raw = header(ctx.req, 'lock-token');
  const token = raw ? /^\s*<([^>]+)>\s*$/.exec(raw)?.[1] : undefined;
  if (!token) throw new DavError(400, 'A Lock-Token header is needed');
  await dav.mustFind(ctx.actor.id, ctx.path);
  await dav.locks.unlock(ctx.actor.id, ctx.path, token);
  ctx.res.writeHead(204).end();
}

// ---- plumbing -----------------------------------------------------------------------------

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const hrefFor = (path: string, item: DavItem) =>
  `${DAV_ROOT}${
    path === '/'
      ? '/'
      : path
          .split('/')
          .map((s) => encodeURIComponent(s))
          .join('/')
  }${item.kind === 'row' && item.row.isFolder && path !== '/' ? '/' : ''}`;

/** Throw away a body nobody reads, so the connection stays usable. */
function drain(req: IncomingMessage): void {
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
function leaveBody(req: IncomingMessage, out: ServerResponse): void {
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
async function readXml(req: IncomingMessage): Promise<XmlElement | null> {
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

function sendXml(res: ServerResponse, status: number, xml: string): void {
  const body = Buffer.from(xml, 'utf8');
  res
    .writeHead(status, {
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Length': String(body.length),
    })
    .end(body);
}

function sendError(res: ServerResponse, err: unknown, request: FastifyRequest): void {
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
class ChunkWriter {
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
