import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  answers,
  documentQuery,
  documentSaveBody,
  documentSaveByPathBody,
  documentView,
  draftQuery,
  confirms,
  markdownImage,
  markdownImageTarget,
  markdownLinkImageBody,
  MAX_MARKDOWN_IMAGE_BYTES,
  MAX_MARKDOWN_IMAGES,
  savedContent,
  type MarkdownImage,
} from '@nimbus/contract';
import { z } from 'zod';
import { ByteBudget } from '../../lib/byte-budget.ts';
import { badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** What one save may send: the largest document as JSON, escapes included. */
const SAVE_BODY_LIMIT = 24 * 1024 * 1024;
/** Save bodies held in memory at once, all users together (a few of the largest). */
const SAVE_BODIES_IN_FLIGHT = 4 * SAVE_BODY_LIMIT;

/** The document editors: reading a document and saving it (API-NOTES §1.6, §1.9). */
export async function markdownRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { markdown } = app.services;
  const saving = new ByteBudget(SAVE_BODIES_IN_FLIGHT);
  const saveLimits = { bodyLimit: SAVE_BODY_LIMIT, preParsing: saving.hook(SAVE_BODY_LIMIT) };
  await app.register(multipart, {
    limits: {
      fileSize: MAX_MARKDOWN_IMAGE_BYTES + 1,
      files: MAX_MARKDOWN_IMAGES,
      fields: 10,
      fieldSize: 4096,
    },
  });

  api.get(
    '/markdown/p',
    { schema: { querystring: documentQuery, response: answers(documentView) } },
    async (request) => ok(await markdown.document(actorOf(request), request.query.fileId)),
  );

  api.post(
    '/markdown/edit',
    {
      schema: { body: documentSaveBody, response: answers(savedContent) },
      ...saveLimits,
    },
    async (request) =>
      ok(await markdown.save(actorOf(request), request.body), { message: 'Saved' }),
  );

  api.post(
    '/markdown/edit1',
    {
      schema: { body: documentSaveByPathBody, response: answers(savedContent) },
      ...saveLimits,
    },
    async (request) =>
      ok(await markdown.saveAt(actorOf(request), request.body), { message: 'Saved' }),
  );

  api.delete(
    '/markdown/deleteDraft',
    { schema: { querystring: draftQuery, response: confirms } },
    async (request) => {
      await markdown.dropDraft(actorOf(request), request.query.fileId);
      return ok(undefined, { message: 'Draft discarded' });
    },
  );

  // the form's fields (fileId or currentDirectory) come before its files
  api.post(
    '/upload-markdown-image',
    { schema: { response: answers(z.array(markdownImage)) } },
    async (request) => {
      const actor = actorOf(request);
      if (!request.isMultipart()) throw badParameter('Send the images as multipart/form-data');
      const fields: Record<string, string> = {};
      const added: MarkdownImage[] = [];
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (typeof part.value === 'string') fields[part.fieldname] = part.value;
          continue;
        }
        if (
          part.fieldname !== 'files' &&
          part.fieldname !== 'file[]' &&
          part.fieldname !== 'file'
        ) {
          part.file.resume();
          continue;
        }
        const target = markdownImageTarget.safeParse(fields);
        if (!target.success) throw badParameter('fileId or currentDirectory: not a valid place');
        added.push(await markdown.addImage(actor, target.data, part.filename, part.file));
      }
      if (added.length === 0) throw badParameter('files: required, one image or more');
      return ok(added, { message: 'Uploaded' });
    },
  );

  api.post(
    '/upload-markdown-link-image',
    {
      schema: {
        // the editor names the document in the address; the body carries the image's address
        querystring: markdownImageTarget,
        body: markdownLinkImageBody,
        response: answers(markdownImage),
      },
    },
    async (request) => {
      const { url, ...fromBody } = request.body;
      const target = { ...request.query, ...fromBody };
      return ok(await markdown.importImage(actorOf(request), target, url), {
        message: 'Uploaded',
      });
    },
  );
}
