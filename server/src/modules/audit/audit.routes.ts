import type { FastifyInstance, FastifyRequest } from 'fastify';
import { auditApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { auditActionOf, auditTargetOf, SIGN_IN_ROUTES } from './audit-rules.ts';

/** `GET /audit/list`: the audit log, newest first, for administrators. */
export async function auditRoutes(app: FastifyInstance): Promise<void> {
  const { audit } = app.services;
  serve(app, auditApi.list, async (request) => {
    const { items, total } = await audit.list(actorOf(request), request.query);
    return ok(items, { count: total });
  });
}

/** The route a request matched, without the API prefix. */
const routeOf = (request: FastifyRequest) =>
  (request.routeOptions.url ?? '').replace(/^\/api(?=\/)/, '');

/** An answer's `data` when it is a small JSON envelope that succeeded; else null. */
function succeededWith(payload: unknown): Record<string, unknown> | null {
  if (typeof payload !== 'string' || payload.length > 64 * 1024) return null;
  try {
    const envelope = JSON.parse(payload) as { code?: number; data?: unknown };
    if (envelope.code !== 0) return null;
    return envelope.data && typeof envelope.data === 'object'
      ? (envelope.data as Record<string, unknown>)
      : {};
  } catch {
    return null;
  }
}

/**
 * Record what the audit log keeps, as each answer leaves: sign-ins with the name tried and
 * whether they worked, and administrative and security changes with who made them. Writing an
 * entry never fails the request (a failure is logged).
 */
export function installAudit(api: FastifyInstance): void {
  api.addHook('onSend', async (request, reply, payload) => {
    const route = routeOf(request);
    let action = auditActionOf(request.method, route);
    if (!action) return payload;
    const data = succeededWith(payload);
    const body = request.body as Record<string, unknown> | undefined;
    let username = request.actor?.username ?? '';
    let userId = request.actor?.id ?? null;
    let target = auditTargetOf(route, request.query, body);
    if (SIGN_IN_ROUTES.has(route)) {
      username = typeof body?.username === 'string' ? body.username.trim() : username;
      if (typeof data?.userId === 'string') userId = data.userId;
      // the log keeps no words of its own: the web names the action in the reader's language
      if (data?.mfaToken || data?.mfaForceEnable) action = 'signInSecondFactorNext';
      target = route;
    }
    await api.services.audit
      .record({
        userId,
        username: username || '?',
        action,
        target,
        ip: request.ip,
        ok: reply.statusCode < 400 && data !== null,
      })
      .catch((err: unknown) => request.log.warn({ err }, 'audit entry not written'));
    return payload;
  });
}
