import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { chunkParams, describeIssues, type ChunkParams } from '@nimbus/contract';
import { AppError, badParameter } from '../../lib/errors.ts';

// Reading a chunk upload (multipart form): shared by the user's own upload route and the
// share visitors' one.

function parseChunk(fields: Record<string, unknown>): ChunkParams {
  const parsed = chunkParams.safeParse(fields);
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

/**
 * Reads a chunk request and hands its fields and bytes to `write`; a chunk over the size limit
 * is refused, and whatever `write` left unread is drained so the connection stays usable.
 */
export async function receiveChunk<T>(
  request: FastifyRequest,
  write: (params: ChunkParams, bytes: Readable) => Promise<T>,
): Promise<T> {
  const { params, file } = await readChunkRequest(request);
  try {
    const result = await write(params, file);
    if (file.truncated) throw badParameter('The chunk is larger than the server accepts');
    return result;
  } finally {
    file.resume();
  }
}
