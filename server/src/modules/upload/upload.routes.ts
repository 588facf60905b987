import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorCode,
  MAX_CHUNK_SIZE,
  describeIssues,
  queryNumber,
  wholeNumber,
} from '@nimbus/contract';
import { AppError, badParameter } from '../../lib/errors.ts';
import { ok } from '../../lib/reply.ts';
import { actorOf } from '../auth/auth.plugin.ts';
import type { ChunkParams } from './upload.service.ts';

const text = z.string().max(4096);
// names and paths are stored in NFC whatever form the client sent (macOS sends NFD)
const nameText = z.string().normalize('NFC').max(1024);
const pathText = z.string().normalize('NFC').max(4096);

export const chunkSchema = z.object({
  chunkNumber: wholeNumber(),
  chunkSize: wholeNumber(),
  currentChunkSize: wholeNumber(),
  totalSize: wholeNumber(),
  identifier: z.string().max(128),
  filename: nameText,
  relativePath: pathText.optional(),
  totalChunks: wholeNumber(),
  currentDirectory: pathText.optional(),
  folderPath: pathText.optional(),
  lastModified: queryNumber(z.number()).optional(),
});

export const mergeSchema = chunkSchema.omit({ chunkNumber: true, currentChunkSize: true }).extend({
  totalChunks: wholeNumber().optional(),
});

function parseChunk(fields: Record<string, unknown>): ChunkParams {
  const parsed = chunkSchema.safeParse(fields);
  if (!parsed.success) throw badParameter(describeIssues(parsed.error.issues));
  return parsed.data;
}

/** The chunk's fields (query and form, form first) and its bytes, read in one pass. */
export async function readChunkRequest(request: FastifyRequest) {
  const fields: Record<string, unknown> = { ...(request.query as Record<string, unknown>) };
  if (!request.isMultipart()) throw badParameter('Send the chunk as multipart/form-data');
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
        continue;
      }
      // the bytes come last; everything needed to place them has arrived
      return { params: parseChunk(fields), file: part.file };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    // a form cut off or malformed on its way: the client's to send again
    throw badParameter(`The chunk's form could not be read: ${(err as Error).message}`);
  }
  throw badParameter('The chunk has no file part');
}

export async function uploadRoutes(app: FastifyInstance): Promise<void> {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const { uploads } = app.services;
  await app.register(multipart, {
    limits: { fileSize: 2 * MAX_CHUNK_SIZE + 1, files: 1, fields: 40, fieldSize: 64 * 1024 },
  });

  api.post(
    '/checkExist',
    {
      schema: {
        body: z
          .object({
            filenames: z.array(nameText).max(10_000).default([]),
            currentDirectory: text.optional(),
          })
          .passthrough(),
      },
    },
    async (request) => {
      const exist = await uploads.checkExist(
        actorOf(request),
        request.body.filenames,
        request.body.currentDirectory,
      );
      return ok({ exist, pass: false, resume: [], upload: false, merge: false });
    },
  );

  api.get('/upload', { schema: { querystring: chunkSchema.passthrough() } }, async (request) =>
    ok(await uploads.test(actorOf(request), request.query)),
  );

  api.post('/upload', async (request) => {
    const actor = actorOf(request);
    const { params, file } = await readChunkRequest(request);
    try {
      const result = await uploads.writeChunk(actor, params, file);
      if (file.truncated) throw badParameter('The chunk is larger than the server accepts');
      return ok(result);
    } finally {
      file.resume();
    }
  });

  api.post('/merge', { schema: { querystring: mergeSchema.passthrough() } }, async (request) => {
    const q = request.query;
    const totalChunks = q.totalChunks ?? Math.max(1, Math.floor(q.totalSize / q.chunkSize));
    const outcome = await uploads.merge(actorOf(request), { ...q, totalChunks });
    // a large file may still be merging: the client asks again until the file is there
    if (outcome.merging)
      return ok({
        upload: true,
        merging: true,
        progress: outcome.progress,
        taskId: outcome.taskId,
      });
    return ok({ upload: true, file: outcome.file });
  });

  // the uploads under way into the user's drive (their own and their shares' visitors'), to
  // follow and to cancel
  api.get('/upload/sessions', async (request) => {
    const sessions = await uploads.sessions(actorOf(request));
    return ok(sessions, { count: sessions.length });
  });

  api.delete(
    '/upload/sessions/:id',
    { schema: { params: z.object({ id: z.string().max(64) }) } },
    async (request) => {
      await uploads.cancel(actorOf(request), request.params.id);
      return ok();
    },
  );

  api.post(
    '/upload-folder',
    {
      schema: {
        querystring: z
          .object({
            filename: nameText,
            folderPath: pathText.optional(),
            currentDirectory: pathText.optional(),
          })
          .passthrough(),
      },
    },
    async (request) => {
      const q = request.query;
      return ok(await uploads.createFolder(actorOf(request), q));
    },
  );

  app.addHook('onError', async (_request, _reply, error) => {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(ErrorCode.BAD_PARAMETER, 'The chunk is larger than the server accepts');
    }
  });
}
