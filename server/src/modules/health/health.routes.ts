import type { FastifyInstance } from 'fastify';
import { PRODUCT_VERSION } from '@nimbus/contract';
import { sql } from 'kysely';
import { ok } from '../../lib/reply.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/public/health', { config: { public: true } }, async (_request, reply) => {
    await sql`select 1`.execute(app.services.db);
    return reply.type('text/plain').send('ok');
  });
  app.get('/version', { config: { public: true } }, async () => ok(PRODUCT_VERSION));
}
