import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  confirms,
  historyListQuery,
  historyPathListQuery,
  historyRetention,
  historyText,
  historyVersion,
  historyVersionQuery,
  savedContent,
} from '@nimbus/contract';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { contentDisposition, markUserBytes } from '../files/file-serve.ts';

/** Earlier versions of files (API-NOTES §1.8). */
export async function historyRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { history } = app.services;
  const page = answers(z.array(historyVersion));

  api.get(
    '/history/list',
    { schema: { querystring: historyListQuery, response: page } },
    async (request) => {
      const q = request.query;
      const { items, total } = await history.list(
        actorOf(request),
        q.fileId,
        q.pageIndex,
        q.pageSize,
      );
      return ok(items, { count: total });
    },
  );

  api.get(
    '/history/path/list',
    { schema: { querystring: historyPathListQuery, response: page } },
    async (request) => {
      const q = request.query;
      const { items, total } = await history.listAt(
        actorOf(request),
        q.path,
        q.pageIndex,
        q.pageSize,
      );
      return ok(items, { count: total });
    },
  );

  api.get('/history/retention', { schema: { response: answers(historyRetention) } }, async () =>
    ok(await history.retention()),
  );

  api.get(
    '/history/preview/text',
    { schema: { querystring: historyVersionQuery, response: answers(historyText) } },
    async (request) =>
      ok(await history.text(actorOf(request), request.query.id, request.query.fileId)),
  );

  // a version's bytes: always a download, never shown inline from this origin (an OnlyOffice
  // document server fetches a version by a signed `/office/file` address instead)
  const sendVersion = (asText: boolean) =>
    api.get(
      asText ? '/history/preview/text/stream' : '/history/preview/file',
      {
        ...(asText ? {} : { config: { cookieAuth: true } }),
        schema: { querystring: historyVersionQuery },
      },
      async (request, reply) => {
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
      },
    );
  sendVersion(true);
  sendVersion(false);

  api.put(
    '/history/recovery',
    { schema: { querystring: historyVersionQuery, response: answers(savedContent) } },
    async (request) =>
      ok(await history.recover(actorOf(request), request.query.id, request.query.fileId), {
        message: 'Restored',
      }),
  );

  api.delete(
    '/history/delete',
    { schema: { querystring: historyVersionQuery, response: confirms } },
    async (request) => {
      await history.remove(actorOf(request), request.query.id, request.query.fileId);
      return ok(undefined, { message: 'Deleted' });
    },
  );
}
