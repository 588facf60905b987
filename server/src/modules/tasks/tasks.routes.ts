import type { FastifyInstance } from 'fastify';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function tasksRoutes(app: FastifyInstance): Promise<void> {
  const { tasks } = app.services;

  // API-NOTES §1.12: [{taskId, taskType, type, name, path, progress, username}]
  app.get('/cloud/task/progress', async (request) => ok(await tasks.progress(actorOf(request))));
}
