import { createHash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { ErrorCode } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';

/** Bytes written to a staging place, counted and hashed on the way, ready to be put in place. */
export interface StagedBytes {
  staged: Place;
  size: number;
  hash: string;
}

/**
 * Write `content` to a new staging place of the store, counting and hashing it (sha256) as
 * it goes; more than `max` bytes are refused, and a stream's partial bytes removed.
 */
export async function stageBytes(
  blobs: BlobStore,
  content: Buffer | Readable,
  max: number,
): Promise<StagedBytes> {
  const staged = blobs.staging();
  const hash = createHash('sha256');
  let size = 0;
  if (Buffer.isBuffer(content)) {
    if (content.length > max)
      throw new AppError(ErrorCode.BAD_PARAMETER, 'The content is too large');
    hash.update(content);
    size = content.length;
    await blobs.write(staged, content);
  } else {
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        if (size > max)
          return done(new AppError(ErrorCode.BAD_PARAMETER, 'The content is too large'));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    content.once('error', (err) => counter.destroy(err));
    try {
      await blobs.write(staged, content.pipe(counter));
    } catch (err) {
      await blobs.remove(staged);
      throw err;
    }
  }
  return { staged, size, hash: hash.digest('hex') };
}
