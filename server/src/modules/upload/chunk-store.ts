import type { Readable } from 'node:stream';
import { ErrorCode } from '@nimbus/contract';
import { AppError, badParameter } from '../../lib/errors.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import type { UploadRepo } from './upload.repo.ts';

/** Bytes of a chunk gathered before they are written. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * The bytes of the uploads under way: one preallocated file per upload, each chunk claimed
 * before it is written (so two requests never write the same chunk) and written once, at its
 * own offset, with vectored writes.
 */
export class ChunkStore {
  constructor(
    private readonly repo: UploadRepo,
    private readonly blobs: BlobStore,
  ) {}

  /** The upload's file, at its full size: every chunk lands at its own offset. */
  async allocate(sessionId: string, size: number): Promise<void> {
    try {
      await this.blobs.allocate(this.blobs.upload(sessionId), size);
    } catch (err) {
      throw diskError(err);
    }
  }

  /**
   * Chunk `n` of a session, `expected` bytes at `offset`: written once. A chunk that is there
   * already is read and dropped (what was written, and hashed, stays); one another request is
   * writing is refused for now; a claim whose bytes fail is given up, so the chunk can be sent
   * again.
   */
  async store(
    sessionId: string,
    n: number,
    offset: number,
    expected: number,
    body: Readable,
  ): Promise<void> {
    const claim = await this.claim(sessionId, n);
    if (claim === 'busy')
      throw new AppError(
        ErrorCode.LOCKED,
        `Chunk ${n} is being received by another request; send it again shortly`,
      );
    const file = claim === 'claimed' ? this.blobs.upload(sessionId) : null;
    try {
      const written = await this.receive(body, file, offset, expected, n);
      if (written !== expected)
        throw badParameter(`Chunk ${n} was cut short: ${written} of ${expected} bytes arrived`);
    } catch (err) {
      if (claim === 'claimed') await this.repo.releaseChunk(sessionId, n);
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw cancelled();
      throw err instanceof AppError ? err : diskError(err);
    }
    if (claim === 'claimed' && !(await this.repo.markChunkDone(sessionId, n))) throw cancelled();
  }

  /**
   * Take chunk `n` before writing it: `claimed` (this request writes it), `written` (it is
   * there already: the repeated bytes are dropped) or `busy` (another request is writing it).
   */
  private async claim(sessionId: string, n: number): Promise<'claimed' | 'written' | 'busy'> {
    try {
      if (await this.repo.claimChunk(sessionId, n)) return 'claimed';
    } catch (err) {
      if (!(await this.repo.find(sessionId))) throw cancelled();
      throw err;
    }
    return (await this.repo.chunkWritten(sessionId, n)) ? 'written' : 'busy';
  }

  /**
   * Read a chunk's bytes from the request and write them at their offset (or only count them
   * when `file` is null). The pieces the request arrives in (64 KiB) are gathered and written
   * 1 MiB at a time with one vectored write: far fewer system calls than a write per piece.
   * A body that breaks off (a cut-off multipart form) is the client's mistake: 422.
   */
  private async receive(
    body: Readable,
    file: Place | null,
    offset: number,
    expected: number,
    chunkNumber: number,
  ): Promise<number> {
    const handle = file ? await this.blobs.writer(file) : null;
    let written = 0;
    let position = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!handle || pendingBytes === 0) return;
      const buffers = pending;
      const length = pendingBytes;
      pending = [];
      pendingBytes = 0;
      const bytesWritten = await handle.writev(buffers, position);
      // a short vectored write is rare on a local file; finish it piece by piece
      if (bytesWritten < length) {
        const rest = Buffer.concat(buffers, length).subarray(bytesWritten);
        let done = 0;
        while (done < rest.length) {
          done += await handle.write(
            rest,
            done,
            rest.length - done,
            position + bytesWritten + done,
          );
        }
      }
      position += length;
    };
    const pieces = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
    try {
      for (;;) {
        let step: IteratorResult<Buffer>;
        try {
          step = await pieces.next();
        } catch (err) {
          throw badParameter(
            `The bytes of chunk ${chunkNumber} broke off: ${(err as Error).message || 'the request ended early'}`,
          );
        }
        if (step.done) break;
        const piece = step.value;
        written += piece.length;
        if (written > expected)
          throw badParameter(`Chunk ${chunkNumber} is larger than ${expected} bytes`);
        if (!handle) continue;
        pending.push(piece);
        pendingBytes += piece.length;
        if (pendingBytes >= WRITE_BATCH_BYTES) await flush();
      }
      await flush();
    } finally {
      await handle?.close();
    }
    return written;
  }
}

const cancelled = () =>
  new AppError(ErrorCode.NOT_FOUND, 'This upload was cancelled; start it again');

/** A disk that cannot hold the upload: space full, or a size beyond what a file can have. */
function diskError(err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOSPC')
    // the server's own disk, not the user's quota: 507 Insufficient Storage
    return new AppError(
      ErrorCode.SPACE_FULL,
      'The server has no disk space left for this upload',
      undefined,
      507,
    );
  if (code === 'EFBIG' || code === 'EINVAL')
    return badParameter('This file is larger than the server can store');
  return err instanceof Error ? err : new Error(String(err));
}
