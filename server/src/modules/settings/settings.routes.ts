import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuthority } from '../../lib/access.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

// spec §5: not empty; only Chinese characters, digits, letters, underscore.
const driveName = z
  .string()
  .trim()
  .min(1, 'enter a drive name')
  .max(32, 'the drive name is too long')
  .regex(/^[\p{Script=Han}A-Za-z0-9_]+$/u, 'use only Chinese characters, letters, digits and "_"');

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { settings } = app.services;

  api.get('/public/website/record', { config: { public: true } }, async () => {
    const drive = await settings.drive();
    return ok({
      netdiskName: drive.netdiskName,
      netdiskLogo: drive.netdiskLogo,
      version: settings.version(),
    });
  });

  api.put(
    '/user/setting/update_netdisk_name',
    { schema: { querystring: z.object({ netdiskName: driveName }) } },
    async (request) => {
      requireAuthority(actorOf(request), 'cloud:set:update');
      await settings.set('netdiskName', request.query.netdiskName);
      return ok(undefined, { message: 'Saved' });
    },
  );
}
