import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOKEN_HEADER } from '@nimbus/contract';
import { forbidden, notLoggedIn } from '../../lib/errors.ts';
import { tokenRefusal } from '../auth/token-scope.ts';
import type { Metrics } from './metrics.ts';

/** Equal strings, compared in constant time (their digests, so lengths leak nothing either). */
function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** The bearer value of the Authorization header, if any. */
function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Who may scrape: the scrape token (NIMBUS_METRICS_TOKEN) as a bearer token, or an
 * administrator's session or access token (in the `nimbus-token` header, or as the bearer).
 */
async function admitScrape(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const bearer = bearerOf(request);
  const scrapeToken = app.config.metricsToken;
  if (bearer && scrapeToken && sameSecret(bearer, scrapeToken)) return;
  const header = request.headers[TOKEN_HEADER];
  const token = typeof header === 'string' && header ? header : bearer;
  const found = token ? await app.services.auth.authenticate(token) : null;
  if (!found) throw notLoggedIn(token ? 'Login has expired, please log in again' : 'Not logged in');
  const { actor } = found;
  if (actor.accessToken) {
    const refusal = tokenRefusal(actor.accessToken.scope, { surface: 'api', method: 'GET' });
    if (refusal) throw forbidden(refusal);
  }
  if (!actor.isAdmin) throw forbidden('Only an administrator or the scrape token reads metrics');
}

/** GET /metrics: Prometheus' text exposition format. */
export function metricsRoute(app: FastifyInstance, metrics: Metrics): void {
  app.get('/metrics', async (request, reply) => {
    await admitScrape(app, request);
    return reply
      .header('cache-control', 'no-store')
      .type('text/plain; version=0.0.4; charset=utf-8')
      .send(await metrics.render());
  });
}
