import type { FastifyInstance } from 'fastify';
import { eventsApi } from '@nimbus/contract';
import { serve } from '../lib/serve.ts';
import { actorOf } from '../modules/auth/auth.plugin.ts';

/**
 * spec §7 GET /api/events?username&uuid: the live event stream (API-NOTES §2). EventSource
 * cannot send headers, so the token comes from the cookie or the `nimbus-token` query.
 */
export async function eventsRoutes(app: FastifyInstance): Promise<void> {
  const { eventStreams } = app.services;

  // Open streams never finish on their own: end them before the server waits for requests.
  app.addHook('preClose', async () => {
    eventStreams.closeAll();
  });

  serve(app, eventsApi.stream, async (request, reply) => {
    const actor = actorOf(request);
    // Headers set so far (a refreshed token) go out with the stream's own.
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value : String(value);
    }
    reply.hijack();
    eventStreams.open(
      {
        userId: actor.id,
        username: actor.username,
        clientId: request.query.uuid,
        response: reply.raw,
      },
      headers,
    );
    return reply;
  });
}
