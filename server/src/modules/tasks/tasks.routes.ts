import type { FastifyInstance } from 'fastify';
import { tasksApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function tasksRoutes(app: FastifyInstance): Promise<void> {
  const { tasks } = app.services;
  serve(app, tasksApi.progress, async (request) => ok(await tasks.progress(actorOf(request))));
}
