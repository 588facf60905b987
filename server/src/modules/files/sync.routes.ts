import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuthority } from '../../lib/access.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { JOB_FOLDER_SIZE, JOB_SYNC } from './files.jobs.ts';

/** Index rebuild and folder sizes (spec §1 General settings, API-NOTES §1.12). */
export async function syncRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { files, jobs, db } = app.services;

  // whole drive: every user's tree (administrators)
  api.get('/cloud/setting/sync', async (request) => {
    const actor = actorOf(request);
    requireAuthority(actor, 'cloud:set:sync');
    const users = await db.selectFrom('user').select(['id', 'username']).execute();
    const taskIds: string[] = [];
    for (const user of users) {
      taskIds.push(
        await jobs.enqueue(
          JOB_SYNC,
          { folderId: '0' },
          { userId: user.id, name: user.username, path: '/' },
        ),
      );
    }
    return ok({ taskIds }, { message: 'Index rebuild started' });
  });

  // one folder of one's own tree
  api.get(
    '/user/setting/sync',
    {
      schema: {
        querystring: z.object({
          path: z.string().max(4096).optional(),
          folder: z.string().max(64).optional(),
        }),
      },
    },
    async (request) => {
      const actor = actorOf(request);
      requireAuthority(actor, 'cloud:file:upload');
      const folder = request.query.folder
        ? await files.folderById(actor.id, request.query.folder)
        : await files.resolveFolder(actor.id, request.query.path);
      const taskId = await jobs.enqueue(
        JOB_SYNC,
        { folderId: folder.id },
        { userId: actor.id, name: folder.prefix, path: folder.prefix },
      );
      return ok({ taskId }, { message: 'Index rebuild started' });
    },
  );

  api.get('/user/setting/isSync', async (request) => {
    const actor = actorOf(request);
    const running = (await jobs.running(actor.id)).filter((t) => t.type === JOB_SYNC);
    const percent = running.length === 0 ? 100 : Math.min(...running.map((t) => t.progress ?? 0));
    return ok({ syncPercent: percent, indexingPercent: percent, running: running.length > 0 });
  });

  api.get('/cloud/setting/recalculateFolderSize', async (request) => {
    const actor = actorOf(request);
    requireAuthority(actor, 'cloud:set:sync');
    const taskId = await jobs.enqueue(
      JOB_FOLDER_SIZE,
      {},
      { userId: actor.id, name: 'folder sizes', path: '/' },
    );
    return ok({ taskId }, { message: 'Folder sizes are being recalculated' });
  });
}
