import { readXml, sendXml } from './webdav-body.ts';
import { DavError } from './webdav-errors.ts';
import { answerRoot } from './webdav-headers.ts';
import { checkIf } from './webdav-if.ts';
import type { DavItem } from './webdav-item.ts';
import { LIVE_PROPS, MULTISTATUS_CLOSE, MULTISTATUS_OPEN } from './webdav-props.ts';
import type { DavRequest } from './webdav-request.ts';
import type { WebdavService } from './webdav.service.ts';
import {
  DAV_NS,
  elements,
  escapeXml,
  firstDav,
  isDav,
  propKey,
  serializeElement,
  XML_HEAD,
} from './webdav-xml.ts';

// PROPPATCH: the dead properties a client sets and removes, all or nothing

/** A dead property's value, as XML, at most. */
const MAX_PROP_VALUE = 64 * 1024;
const MAX_PROP_NAME = 1024;

export async function proppatch(ctx: DavRequest, dav: WebdavService): Promise<void> {
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

const hrefFor = (path: string, item: DavItem) =>
  `${answerRoot()}${
    path === '/'
      ? '/'
      : path
          .split('/')
          .map((s) => encodeURIComponent(s))
          .join('/')
  }${item.kind === 'row' && item.row.isFolder && path !== '/' ? '/' : ''}`;
