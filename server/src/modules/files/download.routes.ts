import type { FastifyInstance } from 'fastify';
import { downloadApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { sendFileBytes, sendZip } from './file-serve.ts';

/** Bytes of files (by path, by id) and zips of a selection (API-NOTES §1.6). */
export async function downloadRoutes(app: FastifyInstance): Promise<void> {
  const { downloads } = app.services;

  // /api/file/{user}{path}{name}: the owner's own bytes by path
  serve(app, downloadApi.ownFile, async (request, reply) => {
    const params = request.params;
    const download = request.query.o === 'download';
    const bytes = await downloads.ownFile(
      actorOf(request),
      params.username,
      `/${params['*']}`,
      download,
    );
    return sendFileBytes(request, reply, bytes, bytes.row, {
      download,
      previewOnly: bytes.previewOnly,
    });
  });

  // /api/pre-file/{id}/{name}: bytes by id, of one's own files or of files in a mounted share
  serve(app, downloadApi.fileById, async (request, reply) => {
    const download = request.query.o === 'download';
    const bytes = await downloads.fileById(actorOf(request), request.params.id, download);
    return sendFileBytes(request, reply, bytes, bytes.row, {
      download,
      previewOnly: bytes.previewOnly,
    });
  });

  serve(app, downloadApi.isAllowDownload, async (request) =>
    ok(await downloads.permit(actorOf(request), request.query.fileIds)),
  );
  serve(app, downloadApi.isAllowPackageDownload, async (request) =>
    ok(await downloads.permit(actorOf(request), request.query.fileIds)),
  );
  // the same for a selection too long for a query string
  serve(app, downloadApi.isAllowPackageDownloadOf, async (request) =>
    ok(await downloads.permit(actorOf(request), request.body.fileIds)),
  );

  serve(app, downloadApi.packageDownload, async (request, reply) =>
    sendZip(reply, await downloads.zipOf(actorOf(request), request.query.fileIds)),
  );
  // a long selection: the browser posts a form (ids and token) and downloads the answer
  serve(app, downloadApi.packageDownloadForm, async (request, reply) =>
    sendZip(reply, await downloads.zipOf(actorOf(request), request.body.fileIds)),
  );
}
