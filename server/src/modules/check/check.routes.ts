import type { FastifyInstance } from 'fastify';
import { checkApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Cloud management → Check the drive (administrators): start a check, follow it, cancel it. */
export async function checkRoutes(app: FastifyInstance): Promise<void> {
  const { driveCheck } = app.services;
  serve(app, checkApi.start, async (request) =>
    ok(await driveCheck.start(actorOf(request), request.body)),
  );
  serve(app, checkApi.cancel, async (request) => ok(await driveCheck.cancel(actorOf(request))));
  serve(app, checkApi.status, async (request) => ok(await driveCheck.status(actorOf(request))));
}
