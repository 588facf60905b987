import type { FastifyInstance } from 'fastify';
import { syncApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Index rebuild and folder sizes (spec §1 General settings, API-NOTES §1.12). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const { fileSync } = app.services;

  serve(app, syncApi.rebuildAll, async (request) =>
    ok(
      { taskIds: await fileSync.rebuildAll(actorOf(request)) },
      { message: 'Index rebuild started' },
    ),
  );

  serve(app, syncApi.rebuildFolder, async (request) =>
    ok(
      { taskId: await fileSync.rebuildFolder(actorOf(request), request.query) },
      { message: 'Index rebuild started' },
    ),
  );

  serve(app, syncApi.progress, async (request) => ok(await fileSync.progress(actorOf(request))));

  serve(app, syncApi.recalculateFolderSizes, async (request) =>
    ok(
      { taskId: await fileSync.recalculateFolderSizes(actorOf(request)) },
      { message: 'Folder sizes are being recalculated' },
    ),
  );
}
