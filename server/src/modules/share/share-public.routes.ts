import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ErrorCode, MAX_CHUNK_SIZE, shareVisitorApi, type AnswerOf } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { sendFileBytes, sendZip } from '../files/file-serve.ts';
import { receiveChunk } from '../upload/chunk-request.ts';
import type { ShareCredentials, ShareTarget } from './share-access.ts';
import type { SharedBytes } from './share-visitor.service.ts';
import { credentialsOf, shareAddressOf } from './share-request.ts';

const targetOf = (q: { fileId?: string; id?: string; path?: string }): ShareTarget => ({
  fileId: q.fileId ?? q.id,
  path: q.path,
});

/** Whether this request starts a download (a resumed range or a HEAD does not count again). */
const isFresh = (request: FastifyRequest) => {
  const range = request.headers.range;
  return request.method === 'GET' && (!range || /^bytes=0-/.test(range));
};

/** Visitors of shares (and mounters, through the same gate): no sign-in needed. */
export async function sharePublicRoutes(app: FastifyInstance): Promise<void> {
  const { shareBrowse: browse, shareVisitors: visitors } = app.services;
  const visitorOf = (request: FastifyRequest) => ({
    creds: credentialsOf(request),
    address: request.ip,
  });

  await app.register(multipart, {
    limits: { fileSize: 2 * MAX_CHUNK_SIZE + 1, files: 1, fields: 40, fieldSize: 64 * 1024 },
  });

  // ---- opening a share ----------------------------------------------------------------------

  serve(app, shareVisitorApi.validCode, async (request) => {
    const { token } = await browse.validCode(
      request.body.shareId,
      request.body.shareCode,
      request.ip,
    );
    return ok(token);
  });
  serve(app, shareVisitorApi.access, async (request) => {
    const result = await browse.accessShare(credentialsOf(request), request.query);
    // a private share not yet open answers with its public facts only (API-NOTES §1.7)
    const body = result.items
      ? ok<AnswerOf<typeof shareVisitorApi.access>>(result.items, { count: result.total })
      : ok<AnswerOf<typeof shareVisitorApi.access>>(result.facts, { count: 0 });
    return { ...body, props: { share: result.facts } };
  });
  serve(app, shareVisitorApi.openFolder, async (request) => {
    const { items, total, folder } = await browse.openFolder(
      credentialsOf(request),
      targetOf(request.query),
      request.query,
    );
    return { ...ok(items, { count: total }), props: { folder } };
  });
  serve(app, shareVisitorApi.sharer, async (request) =>
    ok(await browse.sharer(shareAddressOf(request))),
  );
  serve(app, shareVisitorApi.fileInfo, async (request) =>
    ok(await browse.fileInfo(credentialsOf(request), targetOf(request.query))),
  );
  serve(app, shareVisitorApi.previewText, async (request) =>
    ok(await browse.previewText(credentialsOf(request), targetOf(request.query))),
  );

  // ---- bytes --------------------------------------------------------------------------------

  const send = (
    request: FastifyRequest,
    reply: FastifyReply,
    bytes: SharedBytes,
    download: boolean,
  ) =>
    sendFileBytes(request, reply, bytes, bytes.row, {
      download,
      previewOnly: bytes.previewOnly,
    });

  const sendShared = async (
    request: FastifyRequest,
    reply: FastifyReply,
    creds: ShareCredentials,
    target: ShareTarget,
    download: boolean,
  ) =>
    send(
      request,
      reply,
      await visitors.bytes(creds, target, { download, fresh: isFresh(request) }),
      download,
    );

  serve(app, shareVisitorApi.preview, async (request, reply) =>
    sendShared(
      request,
      reply,
      credentialsOf(request),
      targetOf(request.query),
      request.query.o === 'download',
    ),
  );
  serve(app, shareVisitorApi.download, async (request, reply) =>
    sendShared(request, reply, credentialsOf(request), targetOf(request.query), true),
  );
  // /share-file/{id}/{token}/{name}: the token says which share; /share-file/{id}/{name} for
  // a public share takes `shareId` from the query
  serve(app, shareVisitorApi.fileByToken, async (request, reply) => {
    const { id, token } = request.params;
    const download = request.query.o === 'download';
    const found = await visitors.bytesByToken(token, request.actor, id, {
      download,
      fresh: isFresh(request),
    });
    return send(request, reply, found, download);
  });
  serve(app, shareVisitorApi.fileById, async (request, reply) =>
    sendShared(
      request,
      reply,
      credentialsOf(request),
      { fileId: request.params.id },
      request.query.o === 'download',
    ),
  );

  serve(app, shareVisitorApi.zip, async (request, reply) =>
    sendZip(reply, await visitors.zip(credentialsOf(request), request.query.fileIds)),
  );

  // ---- changes by visitors, within the share's permissions ----------------------------------

  serve(app, shareVisitorApi.checkExist, async (request) =>
    ok(
      await visitors.checkExist(
        credentialsOf(request),
        request.body.filenames,
        request.body.currentDirectory,
      ),
    ),
  );
  serve(app, shareVisitorApi.testChunk, async (request) =>
    ok(await visitors.testChunk(visitorOf(request), request.query)),
  );
  serve(app, shareVisitorApi.writeChunk, async (request) =>
    ok(await visitors.writeChunk(visitorOf(request), (write) => receiveChunk(request, write))),
  );
  serve(app, shareVisitorApi.merge, async (request) =>
    ok(await visitors.merge(visitorOf(request), request.query)),
  );
  serve(app, shareVisitorApi.uploadFolder, async (request) =>
    ok(await visitors.uploadFolder(credentialsOf(request), request.query)),
  );
  serve(app, shareVisitorApi.newFolder, async (request) =>
    ok(
      await visitors.newFolder(
        credentialsOf(request),
        request.query.currentDirectory,
        request.query.filename,
      ),
    ),
  );
  serve(app, shareVisitorApi.rename, async (request) =>
    ok(
      await visitors.rename(
        credentialsOf(request),
        targetOf(request.query),
        request.query.newFileName,
      ),
    ),
  );
  serve(app, shareVisitorApi.remove, async (request) => {
    await visitors.remove(credentialsOf(request), request.query.fileIds);
    return ok(undefined, { message: 'Deleted' });
  });

  app.addHook('onError', async (_request, _reply, error) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(ErrorCode.BAD_PARAMETER, 'The chunk is larger than the server accepts');
    }
  });
}
