import type { FastifyInstance } from 'fastify';
import { ErrorCode, healthApi, PRODUCT_VERSION } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { databaseReady, notReady, READINESS_TIMEOUT_MS } from './readiness.ts';

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { settings, updates } = app.services;

  // plain text for load balancers: "ok" once the database answers, and 503 when it does not
  // answer in time (a stuck database must not hold the check open)
  serve(app, healthApi.health, async (_request, reply) => {
    if (!(await databaseReady(() => settings.databaseReachable())))
      throw new AppError(
        ErrorCode.OFFLINE,
        `Not alive: the database did not answer within ${READINESS_TIMEOUT_MS} ms`,
        { notReady: ['database'] },
        503,
      );
    return reply.type('text/plain').send('ok');
  });
  // readiness, for load balancers and orchestrators: 200 when the database answers and the
  // store can write, else 503 naming what is not ready (liveness stays /public/health)
  serve(app, healthApi.ready, async (_request, reply) => {
    const parts = await notReady(() => settings.databaseReachable(), app.services.blobs);
    if (parts.length > 0)
      throw new AppError(
        ErrorCode.OFFLINE,
        `Not ready: ${parts.join(', ')} cannot be reached`,
        { notReady: parts },
        503,
      );
    reply.header('cache-control', 'no-store');
    return ok('ready' as const);
  });
  serve(app, healthApi.version, async () => ok(PRODUCT_VERSION));
  serve(app, healthApi.latestVersion, async (request) => ok(updates.status(actorOf(request))));
}
