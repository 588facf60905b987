import type { FastifyInstance, FastifyReply } from 'fastify';
import { historyApi } from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { serve, type EndpointRequest } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { contentDisposition, markUserBytes } from '../files/file-serve.ts';

/** Earlier versions of files (API-NOTES §1.8). */
export async function historyRoutes(app: FastifyInstance): Promise<void> {
  const { history } = app.services;

  serve(app, historyApi.list, async (request) => {
    const q = request.query;
    const { items, total } = await history.list(
      actorOf(request),
      q.fileId,
      q.pageIndex,
      q.pageSize,
    );
    return ok(items, { count: total });
  });
  serve(app, historyApi.listAt, async (request) => {
    const q = request.query;
    const { items, total } = await history.listAt(
      actorOf(request),
      q.path,
      q.pageIndex,
      q.pageSize,
    );
    return ok(items, { count: total });
  });
  serve(app, historyApi.retention, async () => ok(await history.retention()));
  serve(app, historyApi.text, async (request) =>
    ok(await history.text(actorOf(request), request.query.id, request.query.fileId)),
  );

  // a version's bytes: always a download, never shown inline from this origin
  const sendVersion =
    (asText: boolean) =>
    async (
      request: EndpointRequest<typeof historyApi.file>,
      reply: FastifyReply,
    ): Promise<FastifyReply> => {
      const { version, body } = await history.bytes(
        actorOf(request),
        request.query.id,
        request.query.fileId,
      );
      markUserBytes(reply);
      reply.header(
        'content-type',
        asText ? 'text/plain; charset=utf-8' : 'application/octet-stream',
      );
      reply.header('content-disposition', contentDisposition('attachment', version.filename));
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-store');
      return reply.send(body);
    };
  serve(app, historyApi.textBytes, sendVersion(true));
  serve(app, historyApi.file, sendVersion(false));

  serve(app, historyApi.recover, async (request) =>
    ok(await history.recover(actorOf(request), request.query.id, request.query.fileId), {
      message: 'Restored',
    }),
  );
  serve(app, historyApi.remove, async (request) => {
    await history.remove(actorOf(request), request.query.id, request.query.fileId);
    return ok(undefined, { message: 'Deleted' });
  });
}
