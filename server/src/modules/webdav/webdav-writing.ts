import { drain } from './webdav-body.ts';
import { DavError, preconditionFailed } from './webdav-errors.ts';
import { isWithin, parseDepth, treePathOf } from './webdav-headers.ts';
import { checkIf } from './webdav-if.ts';
import { isFolderItem } from './webdav-item.ts';
import { etagOf } from './webdav-props.ts';
import { header, type DavRequest } from './webdav-request.ts';
import type { WebdavService } from './webdav.service.ts';

// PUT, MKCOL, DELETE, COPY and MOVE: the changes of the tree

export async function put(ctx: DavRequest, dav: WebdavService): Promise<void> {
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

export async function mkcol(ctx: DavRequest, dav: WebdavService): Promise<void> {
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

export async function remove(ctx: DavRequest, dav: WebdavService): Promise<void> {
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

export async function copyOrMove(
  ctx: DavRequest,
  dav: WebdavService,
  isMove: boolean,
): Promise<void> {
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
