import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TOKEN_HEADER } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { ByteBudget } from '../../lib/byte-budget.ts';
import { forbidden, notLoggedIn } from '../../lib/errors.ts';
import { tokenRefusal } from './token-scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
  interface FastifyContextConfig {
    /** Reachable without signing in (the actor is still resolved when a token is sent). */
    public?: boolean;
    /**
     * A GET that only reads bytes for the browser (file URLs, the event stream): the token may
     * also come from the cookie or the `nimbus-token` query, which the browser sends by itself.
     */
    cookieAuth?: boolean;
    /**
     * A POST that the browser sends as a form and whose answer it downloads (a zip of a long
     * selection): the token may also come from the form's `nimbus-token` field. A page on
     * another site cannot know it, so it can make no such request.
     */
    formAuth?: boolean;
    /** A GET that changes something (the compatible API's `/move`): not for read-only tokens. */
    changes?: boolean;
    /** A POST that only reads (a check, a form's download): read-only tokens may send it. */
    readsOnly?: boolean;
    /** The account's security (password, two-factor sign-in, access tokens): a session only. */
    sessionOnly?: boolean;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD']);
/** Bodies of requests without an account read into memory at once, all together. */
export const ANONYMOUS_BODIES_IN_FLIGHT = 32 * 1024 * 1024;

/**
 * The token comes in the `nimbus-token` header. The cookie and the `nimbus-token` query are
 * honoured only on GET/HEAD routes that read bytes for the browser and opt in (`cookieAuth`:
 * file URLs, the event stream), so a page on another site can make a signed-in browser neither
 * change anything nor read API answers.
 */
function tokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header) return header;
  if (!SAFE_METHODS.has(request.method) || request.routeOptions.config.cookieAuth !== true)
    return undefined;
  const fromCookie = request.cookies?.[TOKEN_HEADER];
  if (fromCookie) return fromCookie;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.[TOKEN_HEADER];
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : undefined;
}

/** The signed-in actor of a request that requires one. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw notLoggedIn();
  return request.actor;
}

/**
 * The actor of a request, once its access token (if it came with one) may do it: every API
 * request with a token passes here, so a token's scope is kept in this one place.
 */
function admit(request: FastifyRequest, actor: Actor): Actor {
  if (actor.accessToken) {
    const { config } = request.routeOptions;
    const refusal = tokenRefusal(actor.accessToken.scope, {
      surface: 'api',
      method: request.method,
      changes: config.changes,
      readsOnly: config.readsOnly,
      sessionOnly: config.sessionOnly,
    });
    if (refusal) throw forbidden(refusal);
  }
  return actor;
}

export function installAuth(api: FastifyInstance): void {
  api.decorateRequest('actor', null);
  api.addHook('onRequest', async (request, reply) => {
    const token = tokenOf(request);
    if (token) {
      const found = await api.services.auth.authenticate(token);
      if (found) {
        request.actor = admit(request, found.actor);
        if (found.refreshedToken) reply.header(TOKEN_HEADER, found.refreshedToken);
      }
    }
    const { config } = request.routeOptions;
    // a form's token is read once its body is parsed (below)
    if (!request.actor && !config.public && !(config.formAuth && !token)) {
      throw notLoggedIn(token ? 'Login has expired, please log in again' : 'Not logged in');
    }
  });
  // without an account, the bodies read into memory are bounded together: a flood of large
  // bodies gets "try again" instead of the server's memory (uploads stream to disk, bounded
  // per share and address)
  const anonymousBodies = new ByteBudget(ANONYMOUS_BODIES_IN_FLIGHT);
  const holdAnonymous = anonymousBodies.hook();
  api.addHook('preParsing', async (request, reply) => {
    if (request.actor || SAFE_METHODS.has(request.method)) return;
    if (String(request.headers['content-type'] ?? '').startsWith('multipart/')) return;
    await holdAnonymous(request, reply);
  });
  api.addHook('preHandler', async (request) => {
    if (request.actor || request.routeOptions.config.formAuth !== true) return;
    const field = (request.body as Record<string, unknown> | undefined)?.[TOKEN_HEADER];
    const token = typeof field === 'string' && field ? field : undefined;
    const found = token ? await api.services.auth.authenticate(token) : null;
    if (!found)
      throw notLoggedIn(token ? 'Login has expired, please log in again' : 'Not logged in');
    request.actor = admit(request, found.actor);
  });
}
