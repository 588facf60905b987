import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  startedTask,
  startedTasks,
  syncFolderQuery,
  syncProgress,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Index rebuild and folder sizes (spec §1 General settings, API-NOTES §1.12). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { fileSync } = app.services;

  // whole drive: every user's tree (administrators)
  // these GETs start work: not for tokens that only read
  const changes = { changes: true };
  api.get(
    '/cloud/setting/sync',
    { config: changes, schema: { response: answers(startedTasks) } },
    async (request) =>
      ok(
        { taskIds: await fileSync.rebuildAll(actorOf(request)) },
        { message: 'Index rebuild started' },
      ),
  );

  // one folder of one's own tree
  api.get(
    '/user/setting/sync',
    { config: changes, schema: { querystring: syncFolderQuery, response: answers(startedTask) } },
    async (request) =>
      ok(
        { taskId: await fileSync.rebuildFolder(actorOf(request), request.query) },
        { message: 'Index rebuild started' },
      ),
  );

  api.get(
    '/user/setting/isSync',
    { schema: { response: answers(syncProgress) } },
    async (request) => ok(await fileSync.progress(actorOf(request))),
  );

  api.get(
    '/cloud/setting/recalculateFolderSize',
    { config: changes, schema: { response: answers(startedTask) } },
    async (request) =>
      ok(
        { taskId: await fileSync.recalculateFolderSizes(actorOf(request)) },
        { message: 'Folder sizes are being recalculated' },
      ),
  );
}
