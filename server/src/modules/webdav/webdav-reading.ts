import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { bytesGrant, requireDownload } from '../files/bytes-grant.ts';
import { contentDisposition, parseRange, servingOf } from '../files/file-serve.ts';
import { ChunkWriter, drain, readXml } from './webdav-body.ts';
import { DavError, notFound } from './webdav-errors.ts';
import { parseDepth } from './webdav-headers.ts';
import { checkIf } from './webdav-if.ts';
import { isFolderItem } from './webdav-item.ts';
import {
  entryOf,
  etagOf,
  locksOn,
  MULTISTATUS_CLOSE,
  MULTISTATUS_OPEN,
  responseXml,
  type PropRequest,
} from './webdav-props.ts';
import { header, type DavRequest } from './webdav-request.ts';
import type { WebdavService } from './webdav.service.ts';
import type { PropertyRow } from './webdav.repo.ts';
import { elements, isDav, propKey, XML_HEAD, type XmlElement } from './webdav-xml.ts';

// GET, HEAD and PROPFIND: a file's bytes, an item's properties and a folder's listing

export async function get(ctx: DavRequest, dav: WebdavService, headOnly: boolean): Promise<void> {
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

export async function propfind(ctx: DavRequest, dav: WebdavService): Promise<void> {
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
