import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  TOKEN_HEADER,
  answers,
  officeConfigApi,
  officeEditorConfig,
  officeEditorQuery,
  officeFileQuery,
  officeHistory,
  officeHistoryQuery,
  officeQuery,
  officeTrackAnswer,
  officeTrackBody,
  officeTrackQuery,
  officeVersionQuery,
  publicOfficeConfigView,
  publicOfficeQuery,
  publicOfficeShareQuery,
} from '@nimbus/contract';
import { z } from 'zod';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import { contentDisposition, markUserBytes, sendFileBytes } from '../files/file-serve.ts';
import { credentialsOf } from '../share/share-request.ts';
import type { OfficePdf } from './office.service.ts';

const fileIdOf = (q: { fileId?: string; id?: string }) => q.fileId ?? q.id ?? '';

/** Where the document server reaches this API when no callback server is set: as the browser did. */
const apiAddressOf = (request: FastifyRequest) => `${request.protocol}://${request.host}/api`;

const linkOf = (q: { user?: string; expires?: number; signature?: string }) => ({
  user: q.user,
  expires: q.expires,
  signature: q.signature,
});

/** A DocsAPI configuration to sign: any JSON object, checked by the service. */
const signatureBody = z.record(z.string(), z.unknown());

/**
 * Office documents (API-NOTES §1.6, §1.12, §1.15): the PDF a document is viewed as, for the
 * owner and for share visitors, and the OnlyOffice settings, signatures and save callback.
 */
export async function officeRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { office } = app.services;
  const open = { public: true } as const;

  // the PDF leaves like stored bytes: Range for pdf.js, ETag, nosniff, a policy that runs nothing
  const send = async (request: FastifyRequest, reply: FastifyReply, pdf: OfficePdf) =>
    sendFileBytes(request, reply, pdf, pdf.row, { download: false, previewOnly: pdf.previewOnly });

  api.get(
    '/preview/office',
    { config: { cookieAuth: true }, schema: { querystring: officeQuery } },
    async (request, reply) =>
      send(request, reply, await office.ownPdf(actorOf(request), fileIdOf(request.query))),
  );

  api.get(
    '/public/s/preview/office',
    { config: open, schema: { querystring: publicOfficeQuery } },
    async (request, reply) => {
      const q = request.query;
      const pdf = await office.publicPdf(credentialsOf(request), {
        fileId: q.fileId ?? q.id,
        path: q.path,
      });
      return send(request, reply, pdf);
    },
  );

  // ---- OnlyOffice -----------------------------------------------------------------------------

  serve(app, officeConfigApi.config, async (request) => ok(await office.config(actorOf(request))));
  serve(app, officeConfigApi.setConfig, async (request) =>
    ok(await office.setConfig(actorOf(request), request.body), { message: 'Saved' }),
  );

  api.get(
    '/public/office/config',
    {
      config: open,
      schema: { querystring: publicOfficeShareQuery, response: answers(publicOfficeConfigView) },
    },
    async (request) => ok(await office.publicConfig(credentialsOf(request))),
  );

  api.post(
    '/office/signature',
    { schema: { body: signatureBody, response: answers(z.string()) } },
    async (request) => ok(await office.signature(actorOf(request), request.body)),
  );

  api.post(
    '/public/office/signature',
    {
      config: open,
      schema: {
        querystring: publicOfficeShareQuery,
        body: signatureBody,
        response: answers(z.string()),
      },
    },
    async (request) => ok(await office.publicSignature(credentialsOf(request), request.body)),
  );

  // the editor's configuration, its addresses signed for this file and user (office-links.ts)
  api.get(
    '/office/editor',
    { schema: { querystring: officeEditorQuery, response: answers(officeEditorConfig) } },
    async (request) =>
      ok(
        await office.editor(actorOf(request), request.query.fileId, {
          api: apiAddressOf(request),
          lang: request.query.lang,
        }),
      ),
  );

  api.get(
    '/office/version',
    { schema: { querystring: officeVersionQuery, response: answers(officeEditorConfig) } },
    async (request) =>
      ok(
        await office.versionData(actorOf(request), request.query.fileId, {
          id: request.query.id,
          version: request.query.version,
          api: apiAddressOf(request),
        }),
      ),
  );

  // the document server fetches a document (or a version) here, by a signed address
  api.get(
    '/office/file',
    { config: open, schema: { querystring: officeFileQuery } },
    async (request, reply) => {
      const q = request.query;
      const found = await office.signedFile({ fileId: q.fileId, id: q.id }, linkOf(q));
      if (found.kind === 'current')
        return sendFileBytes(request, reply, found.bytes, found.bytes.row, {
          download: false,
          previewOnly: found.bytes.previewOnly,
        });
      markUserBytes(reply);
      reply.header('content-type', 'application/octet-stream');
      reply.header('content-disposition', contentDisposition('attachment', found.filename));
      reply.header('x-content-type-options', 'nosniff');
      reply.header('cache-control', 'private, no-store');
      return reply.send(found.body);
    },
  );

  // the document server calls this, by the signed address of the editor's configuration
  api.post(
    '/office/track',
    {
      config: open,
      schema: {
        querystring: officeTrackQuery,
        body: officeTrackBody,
        response: { 200: officeTrackAnswer },
      },
    },
    async (request) =>
      office.track({
        fileId: request.query.fileId,
        link: linkOf(request.query),
        nimbusToken: request.query[TOKEN_HEADER],
        body: request.body,
        authorization: request.headers.authorization,
      }),
  );

  api.get(
    '/history/office/list',
    { schema: { querystring: officeHistoryQuery, response: answers(officeHistory) } },
    async (request) => ok(await office.history(actorOf(request), request.query.fileId)),
  );
}
