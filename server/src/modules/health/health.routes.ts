import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { answers, PRODUCT_VERSION } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { settings } = app.services;

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
}
