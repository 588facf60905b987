import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ErrorCode, MAX_CHUNK_SIZE, uploadApi } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { receiveChunk } from './chunk-request.ts';

export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const { uploads } = app.services;
  await app.register(multipart, {
    limits: { fileSize: 2 * MAX_CHUNK_SIZE + 1, files: 1, fields: 40, fieldSize: 64 * 1024 },
  });

  serve(app, uploadApi.checkExist, async (request) => {
    const exist = await uploads.checkExist(
      actorOf(request),
      request.body.filenames,
      request.body.currentDirectory,
    );
    return ok({ exist, pass: false, resume: [], upload: false, merge: false });
  });

  serve(app, uploadApi.test, async (request) =>
    ok(await uploads.test(actorOf(request), request.query)),
  );

  serve(app, uploadApi.chunk, async (request) => {
    const actor = actorOf(request);
    return ok(
      await receiveChunk(request, (params, bytes) => uploads.writeChunk(actor, params, bytes)),
    );
  });

  serve(app, uploadApi.merge, async (request) => {
    const outcome = await uploads.merge(actorOf(request), request.query);
    // a large file may still be merging: the client asks again until the file is there
    if (outcome.merging)
      return ok({
        upload: true as const,
        merging: true as const,
        progress: outcome.progress,
        taskId: outcome.taskId,
      });
    return ok({ upload: true as const, file: outcome.file });
  });

  // the uploads under way into the user's drive (their own and their shares' visitors'), to
  // follow and to cancel
  serve(app, uploadApi.sessions, async (request) => {
    const sessions = await uploads.sessions(actorOf(request));
    return ok(sessions, { count: sessions.length });
  });

  serve(app, uploadApi.cancelSession, async (request) => {
    await uploads.cancel(actorOf(request), request.params.id);
    return ok();
  });

  serve(app, uploadApi.folder, async (request) =>
    ok(await uploads.createFolder(actorOf(request), request.query)),
  );

  app.addHook('onError', async (_request, _reply, error) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(ErrorCode.BAD_PARAMETER, 'The chunk is larger than the server accepts');
    }
  });
}
