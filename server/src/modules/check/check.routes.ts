import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answers, driveCheckStart, driveCheckView } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function checkRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { driveCheck } = app.services;

  // Cloud management → Check the drive (administrators): start a check, and follow it
  api.post(
    '/cloud/check',
    { schema: { body: driveCheckStart, response: answers(driveCheckView) } },
    async (request) => ok(await driveCheck.start(actorOf(request), request.body)),
  );
  api.get('/cloud/check', { schema: { response: answers(driveCheckView) } }, async (request) =>
    ok(await driveCheck.status(actorOf(request))),
  );
}
