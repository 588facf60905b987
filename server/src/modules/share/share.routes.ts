import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { generateShareBody, mountFolderBody } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { idList, shareTokenOf } from './share-request.ts';

const id = z.string().min(1).max(128);

/** The owner's side of sharing, and mounts (signed in). */
export async function shareRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { shares, mounts } = app.services;

  api.post('/share/generate', { schema: { body: generateShareBody } }, async (request) =>
    ok(await shares.generate(actorOf(request), request.body)),
  );

  api.get(
    '/share/generate/share-token',
    { schema: { querystring: z.object({ fileId: id }) } },
    async (request) => ok(await shares.tokenFor(actorOf(request), request.query.fileId)),
  );

  api.get('/get/share', { schema: { querystring: z.object({ shareId: id }) } }, async (request) =>
    ok(await shares.get(actorOf(request), request.query.shareId)),
  );

  // the file's own share (data, or null), and in props the shared folder around it, if any
  api.get(
    '/get/share/by/fileId',
    { schema: { querystring: z.object({ fileId: id }) } },
    async (request) => {
      const found = await shares.byFile(actorOf(request), request.query.fileId);
      return { ...ok(found.share), data: found.share, props: { parent: found.parent } };
    },
  );

  api.get(
    '/share/has-sub-share',
    { schema: { querystring: z.object({ shareIds: idList }) } },
    async (request) => ok(await shares.hasSubShare(actorOf(request), request.query.shareIds)),
  );

  api.get(
    '/share/folder-sub-share',
    { schema: { querystring: z.object({ fileId: id }) } },
    async (request) => ok(await shares.folderHasShares(actorOf(request), request.query.fileId)),
  );

  api.get(
    '/share/list',
    {
      schema: {
        querystring: z.object({
          pageIndex: z.coerce.number().int().min(1).default(1),
          pageSize: z.coerce.number().int().min(1).max(500).default(20),
          sortableProp: z
            .enum(['createDate', 'expireDate', 'fileName', 'views', 'downloads'])
            .optional()
            .catch(undefined),
          order: z.enum(['ascending', 'descending']).optional().catch(undefined),
        }),
      },
    },
    async (request) => {
      const { items, total } = await shares.list(actorOf(request), request.query);
      return ok(items, { count: total });
    },
  );

  api.delete(
    '/share/cancel',
    { schema: { querystring: z.object({ shareId: idList, shareIds: idList }) } },
    async (request) => {
      const ids = [...request.query.shareId, ...request.query.shareIds];
      const removed = await shares.cancel(actorOf(request), ids);
      return ok(removed, { message: 'Share cancelled' });
    },
  );

  // ---- mounts -------------------------------------------------------------------------------

  api.put('/share/mount-folder', { schema: { body: mountFolderBody } }, async (request) => {
    const mount = await mounts.mount(actorOf(request), {
      shareId: request.body.shareId,
      fileId: request.body.fileId,
      name: request.body.name,
      token: shareTokenOf(request),
    });
    return ok(mount, { message: 'Mounted' });
  });

  api.get('/mount/list', async (request) => {
    const items = await mounts.list(actorOf(request));
    return ok(items, { count: items.length });
  });

  api.delete(
    '/mount/remove',
    { schema: { querystring: z.object({ mountId: id }) } },
    async (request) => {
      await mounts.unmount(actorOf(request), request.query.mountId);
      return ok(undefined, { message: 'Removed' });
    },
  );

  api.get(
    '/mount/file_info',
    { schema: { querystring: z.object({ fileId: id }).passthrough() } },
    async (request) => ok(await mounts.fileInfo(actorOf(request), request.query.fileId)),
  );

  api.get(
    '/mount/folder/id',
    {
      schema: {
        querystring: z
          .object({ otherFileId: id, path: z.string().max(4096).optional() })
          .passthrough(),
      },
    },
    async (request) =>
      ok(await mounts.folderId(actorOf(request), request.query.otherFileId, request.query.path)),
  );
}
