import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { answers, confirms, driveNameQuery, websiteRecord } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { settings } = app.services;

  api.get(
    '/public/website/record',
    { config: { public: true }, schema: { response: answers(websiteRecord) } },
    async () => ok(await settings.record()),
  );

  api.put(
    '/user/setting/update_netdisk_name',
    { schema: { querystring: driveNameQuery, response: confirms } },
    async (request) => {
      await settings.rename(actorOf(request), request.query.netdiskName);
      return ok(undefined, { message: 'Saved' });
    },
  );
}
