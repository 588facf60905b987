import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  TOKEN_HEADER,
  officeApi,
  officeConfigApi,
  officeVisitorApi,
  shareVisitorApi,
} from '@nimbus/contract';
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

/**
 * Office documents (API-NOTES §1.6, §1.12, §1.15): the PDF a document is viewed as, for the
 * owner and for share visitors, and the OnlyOffice settings, signatures and save callback.
 */
export async function officeRoutes(app: FastifyInstance): Promise<void> {
  const { office } = app.services;

  // the PDF leaves like stored bytes: Range for pdf.js, ETag, nosniff, a policy that runs nothing
  const send = async (request: FastifyRequest, reply: FastifyReply, pdf: OfficePdf) =>
    sendFileBytes(request, reply, pdf, pdf.row, { download: false, previewOnly: pdf.previewOnly });

  serve(app, officeApi.pdf, async (request, reply) =>
    send(request, reply, await office.ownPdf(actorOf(request), fileIdOf(request.query))),
  );

  serve(app, shareVisitorApi.previewOffice, async (request, reply) => {
    const q = request.query;
    const pdf = await office.publicPdf(credentialsOf(request), {
      fileId: q.fileId ?? q.id,
      path: q.path,
    });
    return send(request, reply, pdf);
  });

  // ---- OnlyOffice -----------------------------------------------------------------------------

  serve(app, officeConfigApi.config, async (request) => ok(await office.config(actorOf(request))));
  serve(app, officeConfigApi.setConfig, async (request) =>
    ok(await office.setConfig(actorOf(request), request.body), { message: 'Saved' }),
  );

  serve(app, officeVisitorApi.config, async (request) =>
    ok(await office.publicConfig(credentialsOf(request))),
  );

  serve(app, officeApi.signature, async (request) =>
    ok(await office.signature(actorOf(request), request.body)),
  );

  serve(app, officeVisitorApi.signature, async (request) =>
    ok(await office.publicSignature(credentialsOf(request), request.body)),
  );

  // the editor's configuration, its addresses signed for this file and user (office-links.ts)
  serve(app, officeApi.editor, async (request) =>
    ok(
      await office.editor(actorOf(request), request.query.fileId, {
        api: apiAddressOf(request),
        lang: request.query.lang,
      }),
    ),
  );

  serve(app, officeApi.version, async (request) =>
    ok(
      await office.versionData(actorOf(request), request.query.fileId, {
        id: request.query.id,
        version: request.query.version,
        api: apiAddressOf(request),
      }),
    ),
  );

  // the document server fetches a document (or a version) here, by a signed address
  serve(app, officeApi.file, async (request, reply) => {
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
  });

  // the document server calls this, by the signed address of the editor's configuration
  serve(app, officeApi.track, async (request) =>
    office.track({
      fileId: request.query.fileId,
      link: linkOf(request.query),
      nimbusToken: request.query[TOKEN_HEADER],
      body: request.body,
      authorization: request.headers.authorization,
    }),
  );

  serve(app, officeApi.history, async (request) =>
    ok(await office.history(actorOf(request), request.query.fileId)),
  );
}
