import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answers, driveCheckStart, driveCheckView } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** The largest body `POST /cloud/check` reads. */
const START_BODY_LIMIT = 1024;

export async function checkRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { driveCheck } = app.services;

  // Cloud management → Check the drive (administrators): start a check, and follow it
  api.post(
    '/cloud/check',
    // the body is two options: anything near a kilobyte is not a start of the check (413)
    {
      bodyLimit: START_BODY_LIMIT,
      schema: { body: driveCheckStart, response: answers(driveCheckView) },
    },
    async (request) => ok(await driveCheck.start(actorOf(request), request.body)),
  );
  // cancels the check under way; answers once it has stopped, with what it found until then
  api.delete('/cloud/check', { schema: { response: answers(driveCheckView) } }, async (request) =>
    ok(await driveCheck.cancel(actorOf(request))),
  );
  api.get('/cloud/check', { schema: { response: answers(driveCheckView) } }, async (request) =>
    ok(await driveCheck.status(actorOf(request))),
  );
}
