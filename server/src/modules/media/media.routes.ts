import type { FastifyInstance, FastifyReply } from 'fastify';
import { transcodeApi, ErrorCode, mediaApi, mediaVisitorApi } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { markUserBytes, openedRead } from '../files/file-serve.ts';
import { credentialsOf } from '../share/share-request.ts';
import type { MediaPart } from './media-bytes.service.ts';

const noCover = () =>
  new AppError(ErrorCode.FILE_NOT_FOUND, 'This file has no cover', undefined, 404);
const fileIdOf = (q: { fileId?: string; id?: string }) => q.fileId ?? q.id ?? '';

/**
 * Audio and video (API-NOTES §1.12 transcode, §1.16 HLS): a file's media info, its cover, the
 * parts of its HLS rendition, for the owner, mounters and share visitors; the Video Transcoding
 * settings and the transcodes under way.
 */
export async function mediaRoutes(app: FastifyInstance): Promise<void> {
  const { media, mediaBytes, transcodes, blobs } = app.services;

  const sendPart = async (reply: FastifyReply, part: MediaPart, maxAge: number) => {
    // opened first: a rendition or cover the cache sweep removes meanwhile is a 404
    const bytes = await openedRead(blobs, part.place);
    markUserBytes(reply);
    reply.header('content-type', part.type);
    reply.header('cache-control', `private, max-age=${maxAge}`);
    return reply.send(bytes);
  };

  // ---- a file's info and cover --------------------------------------------------------------

  serve(app, mediaApi.info, async (request) =>
    ok(await media.info(actorOf(request), request.query.id)),
  );

  serve(app, mediaVisitorApi.info, async (request) =>
    ok(await media.publicInfo(credentialsOf(request), fileIdOf(request.query))),
  );

  serve(app, mediaApi.cover, async (request, reply) => {
    const cover = await mediaBytes.ownCover(actorOf(request), request.query.id);
    if (!cover) throw noCover();
    return sendPart(reply, cover, 86_400);
  });

  serve(app, mediaVisitorApi.cover, async (request, reply) => {
    const cover = await mediaBytes.publicCover(credentialsOf(request), fileIdOf(request.query));
    if (!cover) throw noCover();
    return sendPart(reply, cover, 3600);
  });

  // ---- HLS ----------------------------------------------------------------------------------

  serve(app, mediaApi.hls, async (request, reply) => {
    const { username, file } = request.params;
    return sendPart(reply, await mediaBytes.ownHls(actorOf(request), username, file), 3600);
  });

  // the share token rides in the address, so the playlist's relative parts carry it too
  serve(app, mediaVisitorApi.hls, async (request, reply) => {
    const { shareId, shareToken, username, file } = request.params;
    const creds = {
      share: shareId,
      token: shareToken === '-' ? null : shareToken,
      actor: request.actor,
    };
    return sendPart(reply, await mediaBytes.publicHls(creds, username, file), 600);
  });

  // ---- settings and status ------------------------------------------------------------------

  serve(app, transcodeApi.config, async (request) => ok(await transcodes.config(actorOf(request))));
  serve(app, transcodeApi.setConfig, async (request) =>
    ok(await transcodes.setConfig(actorOf(request), request.body), { message: 'Saved' }),
  );
  serve(app, transcodeApi.cancel, async (request) =>
    ok({ cancelled: await transcodes.cancel(actorOf(request), request.body ?? undefined) }),
  );
  serve(app, transcodeApi.status, async (request) =>
    ok(await transcodes.status(actorOf(request), request.query)),
  );
}
