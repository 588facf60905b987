import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  avatarChoiceQuery,
  avatarParams,
  namedThumbnailParams,
  MAX_AVATAR_BYTES,
  webpApi,
  imageInfoAnswer,
  imageQuery,
  publicImageQuery,
} from '@nimbus/contract';
import { z } from 'zod';
import { badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { sendFileBytes } from '../files/file-serve.ts';
import type { ShareTarget } from '../share/share-access.ts';
import { credentialsOf } from '../share/share-request.ts';
import type { ImageBytes } from './image-work.ts';

const targetOf = (q: { fileId?: string; id?: string; path?: string }): ShareTarget => ({
  fileId: q.fileId ?? q.id,
  path: q.path,
});

/** Thumbnails, covers, images for viewing and avatars (API-NOTES §1.6, §1.7). */
export async function imagesRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { images, avatars, webpStorage } = app.services;
  const open = { config: { public: true } } as const;
  // the avatar upload is this module's one form: a single picture
  await app.register(multipart, {
    limits: { fileSize: MAX_AVATAR_BYTES + 1, files: 1, fields: 2, fieldSize: 256 },
  });

  // an address that names the content's version (`v`, as thumbnailUrl builds it) never shows
  // other bytes: the browser keeps the picture instead of asking again for every grid page
  app.addHook('onSend', async (request, reply, payload) => {
    const { v } = (request.query ?? {}) as { v?: unknown };
    if (reply.statusCode === 200 && typeof v === 'string' && v !== '')
      reply.header('cache-control', 'private, max-age=604800, immutable');
    return payload;
  });

  // derived images leave like stored bytes: ETag, nosniff, a policy that runs nothing
  const send = async (request: FastifyRequest, reply: FastifyReply, bytes: Promise<ImageBytes>) => {
    const found = await bytes;
    return sendFileBytes(request, reply, found, found.row, {
      download: false,
      previewOnly: found.previewOnly,
    });
  };

  // `<img>` sends no header: the session may come from the cookie or the query here
  const own = { config: { cookieAuth: true }, schema: { querystring: imageQuery } };
  api.get('/view/thumbnail', own, async (request, reply) =>
    send(request, reply, images.thumbnail({ actor: actorOf(request), id: request.query.id })),
  );
  // the original image viewer's strip names the file after the path; the id decides
  api.get(
    '/view/thumbnail/:name',
    { ...own, schema: { ...own.schema, params: namedThumbnailParams } },
    async (request, reply) =>
      send(request, reply, images.thumbnail({ actor: actorOf(request), id: request.query.id })),
  );
  api.get('/view/cover', own, async (request, reply) =>
    send(request, reply, images.cover({ actor: actorOf(request), id: request.query.id })),
  );
  api.get('/view/image', own, async (request, reply) =>
    send(request, reply, images.viewable({ actor: actorOf(request), id: request.query.id })),
  );
  api.get(
    '/view/image/info',
    { schema: { querystring: imageQuery, response: answers(imageInfoAnswer) } },
    async (request) => ok(await images.info({ actor: actorOf(request), id: request.query.id })),
  );

  // General settings: uploaded photos stored as WebP
  serve(app, webpApi.setting, async () => ok(await webpStorage.setting()));
  serve(app, webpApi.setSetting, async (request) => {
    await webpStorage.setSetting(actorOf(request), request.body.enable);
    return ok(undefined, { message: 'Saved' });
  });

  // avatars show on share pages too: anyone may see them
  api.get(
    '/view/thumbnail/user/:username',
    { ...open, schema: { params: avatarParams } },
    async (request, reply) => send(request, reply, avatars.avatar(request.params.username)),
  );

  // ---- the visitors' twins ------------------------------------------------------------------

  const shared = { ...open, schema: { querystring: publicImageQuery } };
  api.get('/public/s/view/thumbnail', shared, async (request, reply) =>
    send(
      request,
      reply,
      images.thumbnail({ creds: credentialsOf(request), target: targetOf(request.query) }),
    ),
  );
  api.get('/public/s/view/cover', shared, async (request, reply) =>
    send(
      request,
      reply,
      images.cover({ creds: credentialsOf(request), target: targetOf(request.query) }),
    ),
  );
  api.get('/public/s/view/image', shared, async (request, reply) =>
    send(
      request,
      reply,
      images.viewable({ creds: credentialsOf(request), target: targetOf(request.query) }),
    ),
  );
  api.get(
    '/public/s/view/image/info',
    { ...open, schema: { querystring: publicImageQuery, response: answers(imageInfoAnswer) } },
    async (request) =>
      ok(await images.info({ creds: credentialsOf(request), target: targetOf(request.query) })),
  );

  api.put(
    '/user/avatar',
    { schema: { querystring: avatarChoiceQuery, response: answers(z.string().nullable()) } },
    async (request) =>
      ok(await avatars.chooseAvatar(actorOf(request), request.query.fileId), {
        message: 'Saved',
      }),
  );

  api.post(
    '/user/avatar/upload',
    { schema: { response: answers(z.string()) } },
    async (request) => {
      const actor = actorOf(request);
      if (!request.isMultipart()) throw badParameter('Send the picture as multipart/form-data');
      const part = await request.file();
      if (!part || part.fieldname !== 'file') throw badParameter('file: required, a picture');
      return ok(await avatars.uploadAvatar(actor, part.filename, part.file), {
        message: 'Saved',
      });
    },
  );
}
