import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, TOKEN_HEADER } from '@nimbus/contract';
import { requireAuthority } from '../../lib/access.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { zipStream, type ZipEntry } from '../../lib/zip.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { shareErrors } from '../share/share-access.ts';
import { isDeflatable } from './file-types.ts';
import { contentDisposition, markUserBytes, sendFileBytes } from './file-serve.ts';
import { idArray, idList } from './id-lists.ts';
import { prefixOf, type FilesService, type Owner } from './files.service.ts';
import type { FileRow } from './files.repo.ts';

/** At least one id, in the query string. */
const chosenIds = idList.pipe(z.array(z.string()).min(1, 'Choose at least one file'));

/** Zip entries of the chosen items: files, and folders with everything below them. */
export async function* zipEntriesOf(
  files: FilesService,
  owner: Owner,
  rows: FileRow[],
): AsyncGenerator<ZipEntry> {
  const used = new Set<string>();
  for (const row of rows) {
    // two chosen items with one name (from different folders) keep both
    let top = row.name;
    for (let n = 1; used.has(top); n++) top = `${row.name} (${n})`;
    used.add(top);
    const disk = files.diskPathOf(owner, row);
    if (!row.isFolder) {
      yield {
        name: top,
        isFolder: false,
        mtime: new Date(row.updateDate),
        compress: isDeflatable(row.suffix),
        open: () => fs.createReadStream(disk, { highWaterMark: 1024 * 1024 }),
      };
      continue;
    }
    yield { name: `${top}/`, isFolder: true, mtime: new Date(row.updateDate) };
    const base = prefixOf(row);
    const below = await files.repo.descendants(owner.id, base);
    below.sort((a, b) =>
      a.path === b.path ? a.name.localeCompare(b.name) : a.path < b.path ? -1 : 1,
    );
    for (const d of below) {
      const relative = `${top}/${d.path.slice(base.length)}${d.name}`;
      const diskPath = files.diskPathOf(owner, d);
      if (d.isFolder) yield { name: `${relative}/`, isFolder: true, mtime: new Date(d.updateDate) };
      else
        yield {
          name: relative,
          isFolder: false,
          mtime: new Date(d.updateDate),
          compress: isDeflatable(d.suffix),
          open: () => fs.createReadStream(diskPath, { highWaterMark: 1024 * 1024 }),
        };
    }
  }
}

export async function downloadRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { files } = app.services;

  // /api/file/{user}{path}{name}: the owner's own bytes by path
  api.get(
    '/file/:username/*',
    {
      config: { cookieAuth: true },
      schema: { querystring: z.object({ o: z.string().optional() }).passthrough() },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const params = request.params as { username: string; '*': string };
      if (params.username !== actor.username) throw forbidden('This file belongs to another user');
      const row = await files.byPath(actor.id, `/${params['*']}`);
      if (row.isFolder)
        throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no bytes; download it as a zip');
      const download = request.query.o === 'download';
      if (download) requireAuthority(actor, 'cloud:file:download');
      return sendFileBytes(request, reply, files.diskPathOf(actor, row), row, { download });
    },
  );

  // /api/pre-file/{id}/{name}: bytes by id, of one's own files or of files in a mounted share
  api.get(
    '/pre-file/:id/:name',
    {
      config: { cookieAuth: true },
      schema: { querystring: z.object({ o: z.string().optional() }).passthrough() },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const { id } = request.params as { id: string };
      const { owner, row, open } = await app.services.shareAccess.fileForActor(actor, id);
      if (row.isFolder)
        throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no bytes; download it as a zip');
      const download = request.query.o === 'download';
      if (open && download) app.services.shareAccess.require(open, 'download');
      // a mounted share without downloads: only what a preview shows
      const previewOnly =
        open && !open.settings.allowDownload ? () => shareErrors.previewOnly() : undefined;
      return sendFileBytes(request, reply, files.diskPathOf(owner, row), row, {
        download,
        previewOnly,
      });
    },
  );

  const allowed = async (request: Parameters<typeof actorOf>[0], ids: string[]) => {
    const actor = actorOf(request);
    requireAuthority(actor, 'cloud:file:download');
    const rows = await files.repo.liveMany(actor.id, [...new Set(ids)]);
    if (rows.length !== new Set(ids).size)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Some of these files no longer exist');
    return ok({ allowDownload: true, isRedirect: false, redirectUrl: null });
  };
  api.get(
    '/isAllowDownload',
    { schema: { querystring: z.object({ fileIds: chosenIds }) } },
    (request) => allowed(request, request.query.fileIds),
  );
  api.get(
    '/isAllowPackageDownload',
    { schema: { querystring: z.object({ fileIds: chosenIds }) } },
    (request) => allowed(request, request.query.fileIds),
  );
  // the same for a selection too long for a query string
  api.post(
    '/isAllowPackageDownload',
    { schema: { body: z.object({ fileIds: idArray.min(1, 'Choose at least one file') }) } },
    (request) => allowed(request, request.body.fileIds),
  );

  const packageDownload = async (request: FastifyRequest, reply: FastifyReply, ids: string[]) => {
    const actor = actorOf(request);
    requireAuthority(actor, 'cloud:file:download');
    const unique = [...new Set(ids)];
    const found = await files.repo.liveMany(actor.id, unique);
    if (found.length !== unique.length)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Some of these files no longer exist');
    const order = new Map(unique.map((id, i) => [id, i]));
    found.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
    const name = found.length === 1 ? `${found[0]!.name}.zip` : 'download.zip';
    markUserBytes(reply);
    reply.header('content-type', 'application/zip');
    reply.header('content-disposition', contentDisposition('attachment', name));
    reply.header('cache-control', 'no-store');
    return reply.send(
      Readable.from(zipStream(zipEntriesOf(files, actor, found)), {
        objectMode: false,
        highWaterMark: 1024 * 1024,
      }),
    );
  };
  api.get(
    '/packageDownload',
    { config: { cookieAuth: true }, schema: { querystring: z.object({ fileIds: chosenIds }) } },
    (request, reply) => packageDownload(request, reply, request.query.fileIds),
  );
  // a long selection: the browser posts a form (ids and token) and downloads the answer
  api.post(
    '/packageDownload',
    {
      config: { formAuth: true },
      schema: {
        body: z.object({ fileIds: chosenIds, [TOKEN_HEADER]: z.string().max(512).optional() }),
      },
    },
    (request, reply) => packageDownload(request, reply, request.body.fileIds),
  );
}
