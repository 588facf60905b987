import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  bytesQuery,
  chosenIdsBody,
  chosenIdsQuery,
  downloadPermit,
  fileByIdParams,
  ownFileParams,
  packageDownloadForm,
} from '@nimbus/contract';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { sendFileBytes, sendZip } from './file-serve.ts';

/** Bytes of files (by path, by id) and zips of a selection (API-NOTES §1.6). */
export async function downloadRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { downloads } = app.services;

  // /api/file/{user}{path}{name}: the owner's own bytes by path
  api.get(
    '/file/:username/*',
    { config: { cookieAuth: true }, schema: { params: ownFileParams, querystring: bytesQuery } },
    async (request, reply) => {
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
    },
  );

  // /api/pre-file/{id}/{name}: bytes by id, of one's own files or of files in a mounted share
  api.get(
    '/pre-file/:id/:name',
    { config: { cookieAuth: true }, schema: { params: fileByIdParams, querystring: bytesQuery } },
    async (request, reply) => {
      const { id } = request.params;
      const download = request.query.o === 'download';
      const bytes = await downloads.fileById(actorOf(request), id, download);
      return sendFileBytes(request, reply, bytes, bytes.row, {
        download,
        previewOnly: bytes.previewOnly,
      });
    },
  );

  const permitted = { querystring: chosenIdsQuery, response: answers(downloadPermit) };
  api.get('/isAllowDownload', { schema: permitted }, async (request) =>
    ok(await downloads.permit(actorOf(request), request.query.fileIds)),
  );
  api.get('/isAllowPackageDownload', { schema: permitted }, async (request) =>
    ok(await downloads.permit(actorOf(request), request.query.fileIds)),
  );
  // the same for a selection too long for a query string
  api.post(
    '/isAllowPackageDownload',
    {
      config: { readsOnly: true },
      schema: { body: chosenIdsBody, response: answers(downloadPermit) },
    },
    async (request) => ok(await downloads.permit(actorOf(request), request.body.fileIds)),
  );

  api.get(
    '/packageDownload',
    { config: { cookieAuth: true }, schema: { querystring: chosenIdsQuery } },
    async (request, reply) =>
      sendZip(reply, await downloads.zipOf(actorOf(request), request.query.fileIds)),
  );
  // a long selection: the browser posts a form (ids and token) and downloads the answer
  api.post(
    '/packageDownload',
    { config: { formAuth: true, readsOnly: true }, schema: { body: packageDownloadForm } },
    async (request, reply) =>
      sendZip(reply, await downloads.zipOf(actorOf(request), request.body.fileIds)),
  );
}
