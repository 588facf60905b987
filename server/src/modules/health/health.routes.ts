import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers, PRODUCT_VERSION, versionStatus } from '@nimbus/contract';
import { actorOf } from '../auth/auth.plugin.ts';
import { ok } from '../../lib/reply.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { settings, updates } = app.services;

  // plain text for load balancers: "ok" once the database answers
  api.get('/public/health', { config: { public: true } }, async (_request, reply) => {
    await settings.databaseReachable();
    return reply.type('text/plain').send('ok');
  });
  api.get(
    '/version',
    { config: { public: true }, schema: { response: answers(z.string()) } },
    async () => ok(PRODUCT_VERSION),
  );
  api.get('/version/latest', { schema: { response: answers(versionStatus) } }, async (request) =>
    ok(updates.status(actorOf(request))),
  );
}
