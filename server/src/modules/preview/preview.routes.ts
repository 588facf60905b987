import type { FastifyInstance, FastifyReply } from 'fastify';
import { previewApi, previewConfigApi, shareVisitorApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { markUserBytes } from '../files/file-serve.ts';
import type { ShareTarget } from '../share/share-access.ts';
import { credentialsOf } from '../share/share-request.ts';
import type { TextStream } from './preview.service.ts';

const targetOf = (q: { fileId?: string; id?: string; path?: string }): ShareTarget => ({
  fileId: q.fileId ?? q.id,
  path: q.path,
});

/** The full path the path variants name: `path` alone, or `path` (the folder) and `fileName`. */
const fullPathOf = (q: { path: string; fileName?: string }) =>
  q.fileName ? `${q.path.replace(/\/?$/, '/')}${q.fileName}` : q.path;

/** A text as it is read: plain UTF-8 that runs nothing, the charset it came in beside it. */
const sendText = (reply: FastifyReply, text: TextStream) => {
  markUserBytes(reply);
  reply.header('content-type', 'text/plain; charset=utf-8');
  reply.header('cache-control', 'private, no-cache');
  reply.header('x-text-decoder', text.charset.name);
  reply.header('x-file-size', String(text.row.size));
  return reply.send(text.body);
};

/** Text previews, archive listings and the Preview Config (API-NOTES §1.6, §1.12). */
export async function previewRoutes(app: FastifyInstance): Promise<void> {
  const { preview } = app.services;

  // ---- the owner's (and a mounter's) files --------------------------------------------------

  serve(app, previewApi.text, async (request) =>
    ok(await preview.text(await preview.byId(actorOf(request), request.query.id))),
  );
  serve(app, previewApi.textStream, async (request, reply) =>
    sendText(
      reply,
      await preview.textStream(await preview.byId(actorOf(request), request.query.id)),
    ),
  );
  serve(app, previewApi.pathText, async (request) =>
    ok(
      await preview.text(
        await preview.byPath(actorOf(request), fullPathOf(request.query), request.query.username),
      ),
    ),
  );
  serve(app, previewApi.pathTextStream, async (request, reply) =>
    sendText(
      reply,
      await preview.textStream(
        await preview.byPath(actorOf(request), fullPathOf(request.query), request.query.username),
      ),
    ),
  );
  serve(app, previewApi.archive, async (request) =>
    ok(await preview.archive(await preview.byId(actorOf(request), request.query.id))),
  );

  // ---- the visitors' twins (`/public/s/preview/text` is the share module's) -----------------

  serve(app, shareVisitorApi.previewTextStream, async (request, reply) =>
    sendText(
      reply,
      await preview.textStream(
        await preview.shared(credentialsOf(request), targetOf(request.query)),
      ),
    ),
  );
  serve(app, shareVisitorApi.previewArchive, async (request) =>
    ok(
      await preview.archive(await preview.shared(credentialsOf(request), targetOf(request.query))),
    ),
  );

  // ---- the Preview Config -------------------------------------------------------------------

  serve(app, previewConfigApi.config, async (request) =>
    ok(await preview.config(actorOf(request))),
  );
  serve(app, previewConfigApi.setConfig, async (request) =>
    ok(await preview.setConfig(actorOf(request), request.body.iframe), { message: 'Saved' }),
  );
}
