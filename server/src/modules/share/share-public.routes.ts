import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, MAX_CHUNK_SIZE, validShareCodeBody, type Envelope } from '@nimbus/contract';
import { AppError, badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { zipStream } from '../../lib/zip.ts';
import { zipEntriesOf } from '../files/download.service.ts';
import { contentDisposition, markUserBytes, sendFileBytes } from '../files/file-serve.ts';
import type { FileRow } from '../files/files.repo.ts';
import { checkName } from '../files/names.ts';
import { chunkSchema, mergeSchema, readChunkRequest } from '../upload/upload.routes.ts';
import type { ChunkParams, UploadPolicy } from '../upload/upload.service.ts';
import { isWithin, shareErrors, type OpenShare, type ShareTarget } from './share-access.ts';
import { toPublicView } from './share.service.ts';
import { credentialsOf, idList, shareAddressOf } from './share-request.ts';

const pageQuery = {
  pageIndex: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(1000).default(50),
  sortableProp: z.enum(['name', 'size', 'updateDate', 'uploadDate']).optional().catch(undefined),
  order: z.enum(['ascending', 'descending']).optional().catch(undefined),
};

const targetQuery = {
  fileId: z.string().max(128).optional(),
  id: z.string().max(128).optional(),
  path: z.string().max(4096).optional(),
};

const shareQuery = z
  .object({ share: z.string().max(128).optional(), shareId: z.string().max(128).optional() })
  .passthrough();

const targetOf = (q: { fileId?: string; id?: string; path?: string }): ShareTarget => ({
  fileId: q.fileId ?? q.id,
  path: q.path,
});

/** Visitors of shares (and mounters, through the same gate): no sign-in needed. */
export async function sharePublicRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { shares, shareAccess: access, uploads, files, fileOps, trash, auth } = app.services;
  const open = { config: { public: true } } as const;

  await app.register(multipart, {
    limits: { fileSize: 2 * MAX_CHUNK_SIZE + 1, files: 1, fields: 40, fieldSize: 64 * 1024 },
  });

  // ---- opening a share ----------------------------------------------------------------------

  api.post(
    '/public/valid-share-code',
    { ...open, schema: { body: validShareCodeBody } },
    async (request) => {
      const { token } = await shares.validCode(
        request.body.shareId,
        request.body.shareCode,
        request.ip,
      );
      return ok(token);
    },
  );

  api.get(
    '/public/access-share',
    { ...open, schema: { querystring: shareQuery.extend(pageQuery) } },
    async (request) => {
      const result = await shares.accessShare(credentialsOf(request), request.query);
      // a private share not yet open answers with its public facts only (API-NOTES §1.7)
      const body: Envelope = result.items
        ? ok(result.items, { count: result.total })
        : ok(result.facts, { count: 0 });
      body.props = { share: result.facts };
      return body;
    },
  );

  api.get(
    '/public/access-share/open',
    { ...open, schema: { querystring: shareQuery.extend({ ...pageQuery, ...targetQuery }) } },
    async (request) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      const { items, total } = await shares.listFolder(share, row, request.query);
      const body: Envelope = ok(items, { count: total });
      body.props = { folder: toPublicView(share.root, row) };
      return body;
    },
  );

  api.get('/public/get/sharer', { ...open, schema: { querystring: shareQuery } }, async (request) =>
    ok(await shares.sharer(await access.locate(shareAddressOf(request)))),
  );

  api.get(
    '/public/file_info',
    { ...open, schema: { querystring: shareQuery.extend(targetQuery) } },
    async (request) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      return ok(toPublicView(share.root, row));
    },
  );

  api.get(
    '/public/s/preview/text',
    { ...open, schema: { querystring: shareQuery.extend(targetQuery) } },
    async (request) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      return ok(await shares.previewText(share, row));
    },
  );

  // ---- bytes --------------------------------------------------------------------------------

  /** Whether this request starts a download (a resumed range does not count again). */
  const isFreshDownload = (request: FastifyRequest) => {
    const range = request.headers.range;
    return !range || /^bytes=0-/.test(range);
  };

  const sendShared = async (
    request: FastifyRequest,
    reply: FastifyReply,
    share: OpenShare,
    row: FileRow,
    download: boolean,
  ) => {
    if (row.isFolder === 1)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'A folder has no bytes; download it as a zip');
    if (download) {
      access.require(share, 'download');
      if (isFreshDownload(request) && request.method === 'GET') await shares.countDownload(share);
    }
    // without downloads, only what a preview shows, and only inline
    const previewOnly = share.settings.allowDownload ? undefined : () => shareErrors.previewOnly();
    return sendFileBytes(request, reply, files.diskPathOf(share.owner, row), row, {
      download,
      previewOnly,
    });
  };

  const bytesQuery = shareQuery.extend({ ...targetQuery, o: z.string().optional() });

  api.get(
    '/public/s/preview/:name',
    { ...open, schema: { querystring: bytesQuery } },
    async (request, reply) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      return sendShared(request, reply, share, row, request.query.o === 'download');
    },
  );

  api.get(
    '/public/s/download/:name',
    { ...open, schema: { querystring: bytesQuery } },
    async (request, reply) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      return sendShared(request, reply, share, row, true);
    },
  );

  // /share-file/{id}/{token}/{name}: the token says which share; /share-file/{id}/{name} for
  // a public share takes `shareId` from the query
  api.get(
    '/share-file/:id/:token/:name',
    { ...open, schema: { querystring: bytesQuery } },
    async (request, reply) => {
      const params = request.params as { id: string; token: string };
      const claims = await access.tokens.verify(params.token);
      if (!claims) throw shareErrors.codeRequired();
      const { open: share, row } = await access.access(
        { share: claims.shareId, token: params.token, actor: request.actor },
        { fileId: params.id },
      );
      return sendShared(request, reply, share, row, request.query.o === 'download');
    },
  );

  api.get(
    '/share-file/:id/:name',
    { ...open, schema: { querystring: bytesQuery } },
    async (request, reply) => {
      const params = request.params as { id: string };
      const { open: share, row } = await access.access(credentialsOf(request), {
        fileId: params.id,
      });
      return sendShared(request, reply, share, row, request.query.o === 'download');
    },
  );

  api.get(
    '/public/s/view/thumbnail',
    { ...open, schema: { querystring: bytesQuery } },
    async (request, reply) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      // no thumbnail service yet: an image is its own thumbnail
      if (row.isFolder === 1 || row.fileType !== 'image')
        throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This file has no thumbnail');
      return sendShared(request, reply, share, row, false);
    },
  );

  api.get(
    '/public/s/packageDownload',
    { ...open, schema: { querystring: shareQuery.extend({ fileIds: idList }) } },
    async (request, reply) => {
      const creds = credentialsOf(request);
      const share = await access.open(creds);
      access.require(share, 'download');
      const ids = [...new Set(request.query.fileIds)];
      if (ids.length === 0) throw badParameter('Choose at least one file');
      const rows: FileRow[] = [];
      for (const fileId of ids) rows.push(await access.resolve(share, { fileId }));
      await shares.countDownload(share);
      const name = rows.length === 1 ? `${rows[0]!.name}.zip` : `${share.root.name}.zip`;
      markUserBytes(reply);
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', contentDisposition('attachment', name));
      reply.header('cache-control', 'no-store');
      return reply.send(
        Readable.from(zipStream(zipEntriesOf(files, share.owner, rows)), {
          objectMode: false,
          highWaterMark: 1024 * 1024,
        }),
      );
    },
  );

  // ---- changes by visitors, within the share's permissions ----------------------------------

  /** The owner, acting for a visitor: the owner's grants and quota apply. */
  const ownerActor = async (share: OpenShare) => {
    const actor = await auth.actorFor(share.owner.id);
    if (!actor) throw shareErrors.gone();
    return actor;
  };

  // visitor uploads never complete from the owner's other files (that would reveal them),
  // replace a same-named file only with the edit permission, and reserve bounded space per
  // share and address (the owner uploading through their own share is no visitor)
  const policyOf = (share: OpenShare, request?: FastifyRequest): UploadPolicy => ({
    instantCopy: false,
    replace: share.settings.canEdit,
    ...(request && share.via !== 'owner'
      ? { visitor: { shareId: share.share.id, address: request.ip } }
      : {}),
  });

  const uploadGate = async (request: FastifyRequest) => {
    const share = await access.open(credentialsOf(request));
    access.require(share, 'upload');
    return share;
  };

  /** Chunk fields with the folder made absolute inside the share. */
  const ownerParams = <T extends Pick<ChunkParams, 'currentDirectory'>>(
    share: OpenShare,
    p: T,
  ): T => ({
    ...p,
    currentDirectory: access.ownerFolderPath(share, p.currentDirectory),
  });

  /** Refuse before any byte is sent when the upload would have to replace a file. */
  const assertPlaceable = async (share: OpenShare, p: ChunkParams) => {
    if (policyOf(share).replace) return;
    const segments = uploads.targetSegments(p);
    const folder = await files
      .resolveFolder(share.owner.id, `/${segments.join('/')}`)
      .catch(() => null);
    if (folder && (await files.repo.childNamed(share.owner.id, folder.id, checkName(p.filename))))
      throw new AppError(ErrorCode.EXISTS, `"${p.filename}" already exists in this share`);
  };

  const publicFile = async (share: OpenShare, id: string | undefined) => {
    if (!id) return undefined;
    const row = await files.repo.live(share.owner.id, id);
    return row && isWithin(share.root, row) ? toPublicView(share.root, row) : undefined;
  };

  api.post(
    '/public/checkExist',
    {
      ...open,
      schema: {
        body: z
          .object({
            filenames: z.array(z.string().max(1024)).max(10_000).default([]),
            currentDirectory: z.string().max(4096).optional(),
          })
          .passthrough(),
      },
    },
    async (request) => {
      const share = await uploadGate(request);
      const exist = await uploads.checkExist(
        await ownerActor(share),
        request.body.filenames,
        access.ownerFolderPath(share, request.body.currentDirectory),
      );
      return ok({
        exist,
        replace: share.settings.canEdit,
        pass: false,
        resume: [],
        upload: false,
        merge: false,
      });
    },
  );

  api.get(
    '/public/upload',
    { ...open, schema: { querystring: chunkSchema.passthrough() } },
    async (request) => {
      const share = await uploadGate(request);
      const params = ownerParams(share, request.query);
      await assertPlaceable(share, params);
      const { file, ...result } = await uploads.test(
        await ownerActor(share),
        params,
        policyOf(share, request),
      );
      return ok({ ...result, file: await publicFile(share, file?.id) });
    },
  );

  api.post('/public/upload', open, async (request) => {
    const share = await uploadGate(request);
    const { params, file } = await readChunkRequest(request);
    try {
      const absolute = ownerParams(share, params);
      await assertPlaceable(share, absolute);
      const result = await uploads.writeChunk(
        await ownerActor(share),
        absolute,
        file,
        policyOf(share, request),
      );
      if (file.truncated) throw badParameter('The chunk is larger than the server accepts');
      return ok(result);
    } finally {
      file.resume();
    }
  });

  api.post(
    '/public/merge',
    { ...open, schema: { querystring: mergeSchema.passthrough() } },
    async (request) => {
      const share = await uploadGate(request);
      const q = ownerParams(share, request.query);
      const totalChunks = q.totalChunks ?? Math.max(1, Math.floor(q.totalSize / q.chunkSize));
      const outcome = await uploads.merge(
        await ownerActor(share),
        { ...q, totalChunks },
        policyOf(share, request),
      );
      if (outcome.merging) return ok({ upload: true, merging: true, progress: outcome.progress });
      return ok({ upload: true, file: await publicFile(share, outcome.file.id) });
    },
  );

  api.post(
    '/public/upload-folder',
    {
      ...open,
      schema: {
        querystring: z
          .object({
            filename: z.string().max(1024),
            folderPath: z.string().max(4096).optional(),
            currentDirectory: z.string().max(4096).optional(),
          })
          .passthrough(),
      },
    },
    async (request) => {
      const share = await uploadGate(request);
      const view = await uploads.createFolder(
        await ownerActor(share),
        ownerParams(share, request.query),
      );
      return ok(await publicFile(share, view.id));
    },
  );

  api.post(
    '/public/new_folder',
    {
      ...open,
      schema: {
        querystring: shareQuery.extend({
          filename: z.string().max(1024),
          currentDirectory: z.string().max(4096).optional(),
        }),
      },
    },
    async (request) => {
      const share = await uploadGate(request);
      const view = await files.newFolder(
        await ownerActor(share),
        access.ownerFolderPath(share, request.query.currentDirectory),
        request.query.filename,
      );
      return ok(await publicFile(share, view.id));
    },
  );

  api.get(
    '/public/rename',
    {
      ...open,
      schema: {
        querystring: shareQuery.extend({ ...targetQuery, newFileName: z.string().max(1024) }),
      },
    },
    async (request) => {
      const { open: share, row } = await access.access(
        credentialsOf(request),
        targetOf(request.query),
      );
      access.require(share, 'edit');
      if (row.id === share.root.id)
        throw new AppError(
          ErrorCode.PERMISSION_DENIED,
          'The shared folder itself cannot be renamed',
        );
      const view = await fileOps.rename(await ownerActor(share), row.id, request.query.newFileName);
      return ok(await publicFile(share, view.id));
    },
  );

  api.delete(
    '/public/delete',
    { ...open, schema: { querystring: shareQuery.extend({ fileIds: idList }) } },
    async (request) => {
      const share = await access.open(credentialsOf(request));
      access.require(share, 'delete');
      const ids = [...new Set(request.query.fileIds)];
      if (ids.length === 0) throw badParameter('Choose at least one file');
      for (const fileId of ids) {
        const row = await access.resolve(share, { fileId });
        if (row.id === share.root.id)
          throw new AppError(
            ErrorCode.PERMISSION_DENIED,
            'The shared folder itself cannot be deleted',
          );
      }
      await trash.trash(await ownerActor(share), ids);
      return ok(undefined, { message: 'Deleted' });
    },
  );

  app.addHook('onError', async (_request, _reply, error) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(ErrorCode.BAD_PARAMETER, 'The chunk is larger than the server accepts');
    }
  });
}
