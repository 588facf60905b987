import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { formatLimit, LOGO_MAX_BYTES, settingsApi } from '@nimbus/contract';
import { badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

export async function settingsRoutes(app: FastifyInstance): Promise<void> {
  const { settings } = app.services;
  // the disk logo is the one form of this module: a single small file
  await app.register(multipart, {
    limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1, fields: 5, fieldSize: 1024 },
  });

  serve(app, settingsApi.record, async () => ok(await settings.record()));
  serve(app, settingsApi.dynamicAddress, async () => ok(settings.dynamicAddress()));
  serve(app, settingsApi.website, async (request) => ok(await settings.website(actorOf(request))));
  serve(app, settingsApi.updateWebsite, async (request) =>
    ok(await settings.updateWebsite(actorOf(request), request.body), { message: 'Saved' }),
  );

  serve(app, settingsApi.rename, async (request) => {
    await settings.rename(actorOf(request), request.query.netdiskName);
    return ok(undefined, { message: 'Saved' });
  });

  serve(app, settingsApi.uploadLogo, async (request) => {
    const actor = actorOf(request);
    if (!request.isMultipart()) throw badParameter('Send the logo as multipart/form-data');
    // one byte past the limit tells a file that is too large from one that fits exactly
    const part = await request.file({ limits: { fileSize: LOGO_MAX_BYTES + 1, files: 1 } });
    if (!part || part.fieldname !== 'file') throw badParameter('file: required, the logo image');
    const bytes = await part.toBuffer().catch(() => {
      throw badParameter(`file: the logo must be ${formatLimit(LOGO_MAX_BYTES)} at most`);
    });
    return ok(await settings.setLogo(actor, bytes, part.filename), { message: 'Saved' });
  });
}
