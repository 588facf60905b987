import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import {
  markdownApi,
  markdownImageTarget,
  MAX_MARKDOWN_IMAGE_BYTES,
  MAX_MARKDOWN_IMAGES,
  SAVE_BODY_LIMIT,
  type MarkdownImage,
} from '@nimbus/contract';
import { ByteBudget } from '../../lib/byte-budget.ts';
import { badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { serve } from '../../lib/serve.ts';
import { actorOf } from '../auth/auth.plugin.ts';

/** Save bodies held in memory at once, all users together (a few of the largest). */
const SAVE_BODIES_IN_FLIGHT = 4 * SAVE_BODY_LIMIT;

/** The document editors: reading a document and saving it (API-NOTES §1.6, §1.9). */
export async function markdownRoutes(app: FastifyInstance): Promise<void> {
  const { markdown } = app.services;
  const saving = new ByteBudget(SAVE_BODIES_IN_FLIGHT);
  const budgeted = { preParsing: saving.hook(SAVE_BODY_LIMIT) };
  await app.register(multipart, {
    limits: {
      fileSize: MAX_MARKDOWN_IMAGE_BYTES + 1,
      files: MAX_MARKDOWN_IMAGES,
      fields: 10,
      fieldSize: 4096,
    },
  });

  serve(app, markdownApi.document, async (request) =>
    ok(await markdown.document(actorOf(request), request.query.fileId)),
  );
  serve(
    app,
    markdownApi.save,
    async (request) =>
      ok(await markdown.save(actorOf(request), request.body), { message: 'Saved' }),
    budgeted,
  );
  serve(
    app,
    markdownApi.saveAt,
    async (request) =>
      ok(await markdown.saveAt(actorOf(request), request.body), { message: 'Saved' }),
    budgeted,
  );
  serve(app, markdownApi.dropDraft, async (request) => {
    await markdown.dropDraft(actorOf(request), request.query.fileId);
    return ok(undefined, { message: 'Draft discarded' });
  });

  // the form's fields (fileId or currentDirectory) come before its files
  serve(app, markdownApi.addImages, async (request) => {
    const actor = actorOf(request);
    if (!request.isMultipart()) throw badParameter('Send the images as multipart/form-data');
    const fields: Record<string, string> = {};
    const added: MarkdownImage[] = [];
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== 'files' && part.fieldname !== 'file[]' && part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      const target = markdownImageTarget.safeParse(fields);
      if (!target.success) throw badParameter('fileId or currentDirectory: not a valid place');
      added.push(await markdown.addImage(actor, target.data, part.filename, part.file));
    }
    if (added.length === 0) throw badParameter('files: required, one image or more');
    return ok(added, { message: 'Uploaded' });
  });

  serve(app, markdownApi.importImage, async (request) => {
    const { url, ...fromBody } = request.body;
    const target = { ...request.query, ...fromBody };
    return ok(await markdown.importImage(actorOf(request), target, url), {
      message: 'Uploaded',
    });
  });
}
