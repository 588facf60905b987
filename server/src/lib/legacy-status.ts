import type { FastifyInstance } from 'fastify';

/**
 * `NIMBUS_LEGACY_STATUS=1`: a client written for the original product reads the envelope only on
 * an HTTP 2xx answer, and shows any other status as a bare "server error". Under this setting
 * every API error goes out as 200 with its envelope unchanged (`code` still says what failed:
 * 5 still asks to sign in again). WebDAV, answers that are not JSON and everything outside
 * `/api/` keep their statuses.
 */
export function installLegacyStatus(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 400 || !request.url.startsWith('/api/')) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json'))
      return payload;
    reply.code(200);
    return payload;
  });
}
