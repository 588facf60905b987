import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  answers,
  confirms,
  fileIdOfShareQuery,
  generateShareBody,
  hasSubShareQuery,
  mountFileInfo,
  mountFileInfoQuery,
  mountFolderBody,
  mountFolderIdQuery,
  mountIdQuery,
  mountList,
  mountView,
  shareCancelQuery,
  shareIdQuery,
  shareList,
  shareListQuery,
  shareOrNone,
  shareView,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { shareTokenOf } from './share-request.ts';

/** The owner's side of sharing, and mounts (signed in). */
export async function shareRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { shares, mounts } = app.services;

  api.post(
    '/share/generate',
    { schema: { body: generateShareBody, response: answers(shareView) } },
    async (request) => ok(await shares.generate(actorOf(request), request.body)),
  );

  api.get(
    '/share/generate/share-token',
    {
      config: { changes: true },
      schema: { querystring: fileIdOfShareQuery, response: answers(z.string()) },
    },
    async (request) => ok(await shares.tokenFor(actorOf(request), request.query.fileId)),
  );

  api.get(
    '/get/share',
    { schema: { querystring: shareIdQuery, response: answers(shareView) } },
    async (request) => ok(await shares.get(actorOf(request), request.query.shareId)),
  );

  // the file's own share (data, or null), and in props the shared folder around it, if any
  api.get(
    '/get/share/by/fileId',
    { schema: { querystring: fileIdOfShareQuery, response: answers(shareOrNone) } },
    async (request) => {
      const found = await shares.byFile(actorOf(request), request.query.fileId);
      return { ...ok(found.share), data: found.share, props: { parent: found.parent } };
    },
  );

  api.get(
    '/share/has-sub-share',
    { schema: { querystring: hasSubShareQuery, response: answers(z.boolean()) } },
    async (request) => ok(await shares.hasSubShare(actorOf(request), request.query.shareIds)),
  );

  api.get(
    '/share/folder-sub-share',
    { schema: { querystring: fileIdOfShareQuery, response: answers(z.boolean()) } },
    async (request) => ok(await shares.folderHasShares(actorOf(request), request.query.fileId)),
  );

  api.get(
    '/share/list',
    { schema: { querystring: shareListQuery, response: answers(shareList) } },
    async (request) => {
      const { items, total } = await shares.list(actorOf(request), request.query);
      return ok(items, { count: total });
    },
  );

  api.delete(
    '/share/cancel',
    { schema: { querystring: shareCancelQuery, response: answers(z.number().int()) } },
    async (request) => {
      const ids = [...request.query.shareId, ...request.query.shareIds];
      const removed = await shares.cancel(actorOf(request), ids);
      return ok(removed, { message: 'Share cancelled' });
    },
  );

  // ---- mounts -------------------------------------------------------------------------------

  api.put(
    '/share/mount-folder',
    { schema: { body: mountFolderBody, response: answers(mountView) } },
    async (request) => {
      const mount = await mounts.mount(actorOf(request), {
        shareId: request.body.shareId,
        fileId: request.body.fileId,
        name: request.body.name,
        token: shareTokenOf(request),
      });
      return ok(mount, { message: 'Mounted' });
    },
  );

  api.get('/mount/list', { schema: { response: answers(mountList) } }, async (request) => {
    const items = await mounts.list(actorOf(request));
    return ok(items, { count: items.length });
  });

  api.delete(
    '/mount/remove',
    { schema: { querystring: mountIdQuery, response: confirms } },
    async (request) => {
      await mounts.unmount(actorOf(request), request.query.mountId);
      return ok(undefined, { message: 'Removed' });
    },
  );

  api.get(
    '/mount/file_info',
    { schema: { querystring: mountFileInfoQuery, response: answers(mountFileInfo) } },
    async (request) => ok(await mounts.fileInfo(actorOf(request), request.query.fileId)),
  );

  api.get(
    '/mount/folder/id',
    { schema: { querystring: mountFolderIdQuery, response: answers(z.string()) } },
    async (request) =>
      ok(await mounts.folderId(actorOf(request), request.query.otherFileId, request.query.path)),
  );
}
