import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { DEFAULT_CHUNK_SIZE, MAX_LIST_PAGE_SIZE } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { idArray, idList, idsBody, idsOf } from './id-lists.ts';
import { BACKGROUND_COPY_BYTES, BACKGROUND_COPY_ITEMS, JOB_COPY } from './files.jobs.ts';

const moveBody = z.object({
  froms: idArray,
  to: z.string().max(64).default('0'),
  isOverride: z.boolean().default(false),
});

const flag = z.preprocess((v) => v === true || v === 'true' || v === '1', z.boolean());
const optionalFlag = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : v === true || v === 'true' || v === '1'),
  z.boolean().optional(),
);

export const listQuery = z.object({
  currentDirectory: z.string().max(4096).optional(),
  folder: z.string().max(64).optional(),
  queryFileType: z.string().max(16).optional(),
  sortableProp: z.enum(['name', 'size', 'updateDate', 'uploadDate']).optional().catch(undefined),
  order: z.enum(['ascending', 'descending']).optional().catch(undefined),
  isFolder: optionalFlag,
  isFavorite: optionalFlag,
  tagId: z.string().max(64).optional(),
  pageIndex: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_LIST_PAGE_SIZE).default(50),
});

export async function filesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { files, fileOps } = app.services;

  api.get('/list', { schema: { querystring: listQuery } }, async (request) => {
    const actor = actorOf(request);
    const q = request.query;
    const { items, total } = await files.list(actor, {
      currentDirectory: q.currentDirectory,
      folderId: q.folder,
      queryFileType: q.queryFileType,
      isFavorite: q.isFavorite,
      tagId: q.tagId || undefined,
      isFolder: q.isFolder,
      sortableProp: q.sortableProp,
      order: q.order,
      pageIndex: q.pageIndex,
      pageSize: q.pageSize,
      withMounts: true,
    });
    if (q.pageIndex === 1 && !q.queryFileType) {
      // the uploader learns the preferred chunk size (spec §7 received messages, §9)
      files.notify(actor.id, 'uploaderChunkSize', {
        chunkSize: DEFAULT_CHUNK_SIZE,
        proxyEnabled: false,
      });
    }
    return ok(items, { count: total });
  });

  api.get(
    '/search-file-open',
    { schema: { querystring: listQuery.extend({ id: z.string().max(64).optional() }) } },
    async (request) => {
      const actor = actorOf(request);
      const q = request.query;
      const { items, total } = await files.list(actor, {
        folderId: q.id ?? q.folder,
        sortableProp: q.sortableProp,
        order: q.order,
        pageIndex: q.pageIndex,
        pageSize: q.pageSize,
        withMounts: true,
      });
      return ok(items, { count: total });
    },
  );

  api.get(
    '/file_info',
    { schema: { querystring: z.object({ id: z.string().max(64) }) } },
    async (request) => ok(await files.info(actorOf(request), request.query.id)),
  );

  api.get(
    '/query-file-tree',
    { schema: { querystring: z.object({ fileId: z.string().max(64).optional() }) } },
    async (request) => ok(await files.childFolders(actorOf(request), request.query.fileId)),
  );

  const pathListing = z.object({
    path: z.string().max(4096).optional(),
    pageSize: z.coerce.number().int().min(1).max(1000).default(500),
  });
  api.get('/listfiles', { schema: { querystring: pathListing } }, async (request) => {
    const { items, total } = await files.list(actorOf(request), {
      currentDirectory: request.query.path,
      pageIndex: 1,
      pageSize: request.query.pageSize,
    });
    return ok(items, { count: total });
  });
  api.get('/upper-level-list', { schema: { querystring: pathListing } }, async (request) => {
    const segments = (request.query.path ?? '').split('/').filter(Boolean);
    const { items, total } = await files.list(actorOf(request), {
      currentDirectory: `/${segments.slice(0, -1).join('/')}`,
      pageIndex: 1,
      pageSize: request.query.pageSize,
    });
    return ok(items, { count: total });
  });

  api.post(
    '/new_folder',
    {
      schema: {
        querystring: z.object({
          filename: z.string().optional(),
          currentDirectory: z.string().max(4096).optional(),
          folder: z.string().max(64).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await files.newFolder(actorOf(request), q.currentDirectory, q.filename, q.folder));
    },
  );

  api.post(
    '/addfile',
    {
      schema: {
        querystring: z.object({
          fileName: z.string().optional(),
          parentPath: z.string().max(4096).optional(),
          folder: z.string().max(64).optional(),
        }),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await fileOps.addFile(actorOf(request), q.parentPath, q.fileName, q.folder));
    },
  );

  api.get(
    '/rename',
    {
      schema: {
        querystring: z.object({ id: z.string().max(64), newFileName: z.string().optional() }),
      },
    },
    async (request) =>
      ok(await fileOps.rename(actorOf(request), request.query.id, request.query.newFileName)),
  );

  api.get(
    '/rename/path',
    {
      schema: {
        querystring: z.object({ path: z.string().max(4096), newFileName: z.string().optional() }),
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const row = await files.byPath(actor.id, request.query.path);
      return ok(await fileOps.rename(actor, row.id, request.query.newFileName));
    },
  );

  api.delete(
    '/delFile',
    { schema: { querystring: z.object({ path: z.string().max(4096) }) } },
    async (request) => {
      const actor = actorOf(request);
      const row = await files.byPath(actor.id, request.query.path);
      await fileOps.trash(actor, [row.id]);
      return ok();
    },
  );

  const moveQuery = z.object({
    froms: idList,
    to: z.string().max(64).default('0'),
    isOverride: flag.default(false),
  });
  type MoveArgs = { froms: string[]; to: string; isOverride: boolean };

  const conflicts = async (request: FastifyRequest, q: MoveArgs) => {
    const found = await fileOps.conflicts(actorOf(request), q.froms, q.to);
    return ok(found, { count: found.length });
  };
  const move = async (request: FastifyRequest, q: MoveArgs) =>
    ok(await fileOps.move(actorOf(request), q.froms, q.to, q.isOverride));
  const copy = async (request: FastifyRequest, q: MoveArgs) => {
    const actor = actorOf(request);
    // a big tree copies in the background; its result arrives as an operationFile event
    const size = await fileOps.measure(actor, q.froms);
    if (size.items > BACKGROUND_COPY_ITEMS || size.bytes > BACKGROUND_COPY_BYTES) {
      await files.assertSpace(actor.id, size.bytes);
      const taskId = await app.services.jobs.enqueue(
        JOB_COPY,
        { froms: q.froms, to: q.to, override: q.isOverride },
        {
          userId: actor.id,
          name: size.name,
          path: size.path,
        },
      );
      return ok({ taskId }, { message: 'Copying in the background' });
    }
    return ok(await fileOps.copy(actor, q.froms, q.to, q.isOverride));
  };
  // the original client's GETs, and the same with the ids in a JSON body for long selections
  api.get('/check-move-copy', { schema: { querystring: moveQuery } }, (request) =>
    conflicts(request, request.query),
  );
  api.post('/check-move-copy', { schema: { body: moveBody } }, (request) =>
    conflicts(request, request.body),
  );
  api.get('/move', { schema: { querystring: moveQuery } }, (request) =>
    move(request, request.query),
  );
  api.post('/move', { schema: { body: moveBody } }, (request) => move(request, request.body));
  api.get('/copy', { schema: { querystring: moveQuery } }, (request) =>
    copy(request, request.query),
  );
  api.post('/copy', { schema: { body: moveBody } }, (request) => copy(request, request.body));

  api.get(
    '/duplicate',
    {
      schema: {
        querystring: z.object({ fileId: z.string().max(64), newFilename: z.string().optional() }),
      },
    },
    async (request) =>
      ok(
        await fileOps.duplicate(actorOf(request), request.query.fileId, request.query.newFilename),
      ),
  );

  const ids = z.object({ fileIds: idList });

  api.delete(
    '/delete',
    {
      schema: {
        querystring: z.object({ fileIds: idList, sweep: flag.default(false) }),
        body: idsBody,
      },
    },
    async (request) => {
      const actor = actorOf(request);
      const fileIds = idsOf(request.query, request.body);
      if (request.query.sweep) {
        await fileOps.trash(actor, fileIds);
        await fileOps.sweep(actor, fileIds);
        return ok(undefined, { message: 'Deleted' });
      }
      await fileOps.trash(actor, fileIds);
      return ok(undefined, { message: 'Moved to the trash' });
    },
  );

  api.post('/restore', { schema: { querystring: ids, body: idsBody } }, async (request) =>
    ok(await fileOps.restore(actorOf(request), idsOf(request.query, request.body)), {
      message: 'Restored',
    }),
  );

  api.delete('/sweep', { schema: { querystring: ids, body: idsBody } }, async (request) => {
    await fileOps.sweep(actorOf(request), idsOf(request.query, request.body));
    return ok(undefined, { message: 'Deleted' });
  });

  api.delete('/clear-trash', async (request) => {
    await fileOps.clearTrash(actorOf(request));
    return ok(undefined, { message: 'Trash emptied' });
  });

  api.get(
    '/unzip',
    {
      schema: {
        querystring: z.object({
          fileId: z.string().max(64),
          destFileId: z.string().max(64).optional(),
        }),
      },
    },
    async (request) =>
      ok(
        await fileOps.unzip(
          actorOf(request),
          request.query.fileId,
          request.query.destFileId || undefined,
        ),
        { message: 'Extracted' },
      ),
  );

  api.post('/favorite', { schema: { querystring: ids, body: idsBody } }, async (request) => {
    await fileOps.setFavorite(actorOf(request), idsOf(request.query, request.body), true);
    return ok();
  });

  api.post('/unFavorite', { schema: { querystring: ids, body: idsBody } }, async (request) => {
    await fileOps.setFavorite(actorOf(request), idsOf(request.query, request.body), false);
    return ok();
  });
}
