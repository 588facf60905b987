import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answers, taskList } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function tasksRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { tasks } = app.services;

  // API-NOTES §1.12: [{taskId, taskType, type, name, path, progress, username}]
  api.get('/cloud/task/progress', { schema: { response: answers(taskList) } }, async (request) =>
    ok(await tasks.progress(actorOf(request))),
  );
}
