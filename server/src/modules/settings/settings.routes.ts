import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  confirms,
  driveNameQuery,
  websiteRecord,
  websiteSetting,
  dynamicAddress,
  websiteSettingBody,
  LOGO_MAX_BYTES,
} from '@nimbus/contract';
import { z } from 'zod';
import { badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { settings } = app.services;
  // the disk logo is the one form of this module: a single small file
  await app.register(multipart, {
    limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1, fields: 5, fieldSize: 1024 },
  });

  api.get(
    '/public/website/record',
    { config: { public: true }, schema: { response: answers(websiteRecord) } },
    async () => ok(await settings.record()),
  );

  // the original client asks on every page; nothing to keep here (docs/API.md)
  api.get(
    '/website/setting/dynamic-address',
    { schema: { response: answers(dynamicAddress) } },
    async () => ok(settings.dynamicAddress()),
  );

  api.get('/website/setting', { schema: { response: answers(websiteSetting) } }, async (request) =>
    ok(await settings.website(actorOf(request))),
  );

  api.put(
    '/website/setting/update',
    { schema: { body: websiteSettingBody, response: answers(websiteSetting) } },
    async (request) =>
      ok(await settings.updateWebsite(actorOf(request), request.body), { message: 'Saved' }),
  );

  api.put(
    '/user/setting/update_netdisk_name',
    { schema: { querystring: driveNameQuery, response: confirms } },
    async (request) => {
      await settings.rename(actorOf(request), request.query.netdiskName);
      return ok(undefined, { message: 'Saved' });
    },
  );

  api.post(
    '/user/setting/upload_logo',
    { schema: { response: answers(z.string()) } },
    async (request) => {
      const actor = actorOf(request);
      if (!request.isMultipart()) throw badParameter('Send the logo as multipart/form-data');
      // one byte past the limit tells a file that is too large from one that fits exactly
      const part = await request.file({ limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1 } });
      if (!part || part.fieldname !== 'file') throw badParameter('file: required, the logo image');
      const bytes = await part.toBuffer().catch(() => {
        throw badParameter('file: the logo must be 128 KB at most');
      });
      return ok(await settings.setLogo(actor, bytes, part.filename), { message: 'Saved' });
    },
  );
}
