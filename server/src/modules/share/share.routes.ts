import type { FastifyInstance } from 'fastify';
import { shareApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { shareTokenOf } from './share-request.ts';

/** The owner's side of sharing, and mounts (signed in). */
export async function shareRoutes(app: FastifyInstance): Promise<void> {
  const { shares, mounts } = app.services;

  serve(app, shareApi.generate, async (request) =>
    ok(await shares.generate(actorOf(request), request.body)),
  );
  serve(app, shareApi.token, async (request) =>
    ok(await shares.tokenFor(actorOf(request), request.query.fileId)),
  );
  serve(app, shareApi.get, async (request) =>
    ok(await shares.get(actorOf(request), request.query.shareId)),
  );
  // the file's own share (data, or null), and in props the shared folder around it, if any
  serve(app, shareApi.byFile, async (request) => {
    const found = await shares.byFile(actorOf(request), request.query.fileId);
    return { ...ok(found.share), data: found.share, props: { parent: found.parent } };
  });
  serve(app, shareApi.hasSubShare, async (request) =>
    ok(await shares.hasSubShare(actorOf(request), request.query.shareIds)),
  );
  serve(app, shareApi.folderHasShares, async (request) =>
    ok(await shares.folderHasShares(actorOf(request), request.query.fileId)),
  );
  serve(app, shareApi.list, async (request) => {
    const { items, total } = await shares.list(actorOf(request), request.query);
    return ok(items, { count: total });
  });
  serve(app, shareApi.cancel, async (request) => {
    const ids = [...request.query.shareId, ...request.query.shareIds];
    const removed = await shares.cancel(actorOf(request), ids);
    return ok(removed, { message: 'Share cancelled' });
  });

  // ---- mounts -------------------------------------------------------------------------------

  serve(app, shareApi.mount, async (request) => {
    const mount = await mounts.mount(actorOf(request), {
      shareId: request.body.shareId,
      fileId: request.body.fileId,
      name: request.body.name,
      token: shareTokenOf(request),
    });
    return ok(mount, { message: 'Mounted' });
  });
  serve(app, shareApi.mounts, async (request) => {
    const items = await mounts.list(actorOf(request));
    return ok(items, { count: items.length });
  });
  serve(app, shareApi.unmount, async (request) => {
    await mounts.unmount(actorOf(request), request.query.mountId);
    return ok(undefined, { message: 'Removed' });
  });
  serve(app, shareApi.mountFileInfo, async (request) =>
    ok(await mounts.fileInfo(actorOf(request), request.query.fileId)),
  );
  serve(app, shareApi.mountFolderId, async (request) =>
    ok(await mounts.folderId(actorOf(request), request.query.otherFileId, request.query.path)),
  );
}
