import { drain, readXml, sendXml } from './webdav-body.ts';
import { DavError } from './webdav-errors.ts';
import { parseDepth, parseTimeout } from './webdav-headers.ts';
import { checkIf } from './webdav-if.ts';
import { activeLockXml } from './webdav-props.ts';
import { header, type DavRequest } from './webdav-request.ts';
import type { WebdavService } from './webdav.service.ts';
import { elements, escapeXml, firstDav, isDav, serializeElement, XML_HEAD } from './webdav-xml.ts';

// LOCK and UNLOCK: taking, refreshing and giving back write locks

export async function lock(ctx: DavRequest, dav: WebdavService): Promise<void> {
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

export async function unlock(ctx: DavRequest, dav: WebdavService): Promise<void> {
  drain(ctx.req);
  const raw = header(ctx.req, 'lock-token');
  const token = raw ? /^\s*<([^>]+)>\s*$/.exec(raw)?.[1] : undefined;
  if (!token) throw new DavError(400, 'A Lock-Token header is needed');
  await dav.mustFind(ctx.actor.id, ctx.path);
  await dav.locks.unlock(ctx.actor.id, ctx.path, token);
  ctx.res.writeHead(204).end();
}
