import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { imagesApi, imagesVisitorApi, MAX_AVATAR_BYTES, webpApi } from '@nimbus/contract';
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
  const { images, avatars, webpStorage } = app.services;
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
  serve(app, imagesApi.thumbnail, async (request, reply) =>
    send(request, reply, images.thumbnail({ actor: actorOf(request), id: request.query.id })),
  );
  // the original image viewer's strip names the file after the path; the id decides
  serve(app, imagesApi.namedThumbnail, async (request, reply) =>
    send(request, reply, images.thumbnail({ actor: actorOf(request), id: request.query.id })),
  );
  serve(app, imagesApi.cover, async (request, reply) =>
    send(request, reply, images.cover({ actor: actorOf(request), id: request.query.id })),
  );
  serve(app, imagesApi.image, async (request, reply) =>
    send(request, reply, images.viewable({ actor: actorOf(request), id: request.query.id })),
  );
  serve(app, imagesApi.imageInfo, async (request) =>
    ok(await images.info({ actor: actorOf(request), id: request.query.id })),
  );

  // General settings: uploaded photos stored as WebP
  serve(app, webpApi.setting, async () => ok(await webpStorage.setting()));
  serve(app, webpApi.setSetting, async (request) => {
    await webpStorage.setSetting(actorOf(request), request.body.enable);
    return ok(undefined, { message: 'Saved' });
  });

  // avatars show on share pages too: anyone may see them
  serve(app, imagesApi.avatar, async (request, reply) =>
    send(request, reply, avatars.avatar(request.params.username)),
  );

  // ---- the visitors' twins ------------------------------------------------------------------

  serve(app, imagesVisitorApi.thumbnail, async (request, reply) =>
    send(
      request,
      reply,
      images.thumbnail({ creds: credentialsOf(request), target: targetOf(request.query) }),
    ),
  );
  serve(app, imagesVisitorApi.cover, async (request, reply) =>
    send(
      request,
      reply,
      images.cover({ creds: credentialsOf(request), target: targetOf(request.query) }),
    ),
  );
  serve(app, imagesVisitorApi.image, async (request, reply) =>
    send(
      request,
      reply,
      images.viewable({ creds: credentialsOf(request), target: targetOf(request.query) }),
    ),
  );
  serve(app, imagesVisitorApi.imageInfo, async (request) =>
    ok(await images.info({ creds: credentialsOf(request), target: targetOf(request.query) })),
  );

  serve(app, imagesApi.chooseAvatar, async (request) =>
    ok(await avatars.chooseAvatar(actorOf(request), request.query.fileId), { message: 'Saved' }),
  );

  serve(app, imagesApi.uploadAvatar, async (request) => {
    const actor = actorOf(request);
    if (!request.isMultipart()) throw badParameter('Send the picture as multipart/form-data');
    const part = await request.file();
    if (!part || part.fieldname !== 'file') throw badParameter('file: required, a picture');
    return ok(await avatars.uploadAvatar(actor, part.filename, part.file), { message: 'Saved' });
  });
}
