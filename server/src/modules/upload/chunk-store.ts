import type { Readable } from 'node:stream';
import { ErrorCode } from '@nimbus/contract';
import { AppError, badParameter } from '../../lib/errors.ts';
import type { Presence } from '../../db/presence.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import { writeBody } from './body-writer.ts';
import type { UploadRepo } from './upload.repo.ts';

/** Bytes of an upload written between two of its background syncs. */
const SYNC_EVERY_BYTES = 64 * 1024 * 1024;

/**
 * The bytes of the uploads under way: one preallocated file per upload, each chunk claimed
 * before it is written (so two requests never write the same chunk) and written once, at its
 * own offset, with vectored writes.
 */
export class ChunkStore {
  /** Each upload's background sync: the bytes written since it last started, and its failure. */
  private readonly syncs = new Map<
    string,
    { unsynced: number; running: Promise<void> | null; failure: Error | null }
  >();

  constructor(
    private readonly repo: UploadRepo,
    private readonly blobs: BlobStore,
    private readonly presence: Presence,
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
    if (claim === 'claimed') this.written(sessionId, expected);
  }

  /**
   * Count a chunk's bytes towards the upload's next sync, and start it (without waiting) once
   * SYNC_EVERY_BYTES are written: the disk writes the upload while the next chunks arrive,
   * instead of all of it at the merge (the kernel would not start on its own before gigabytes
   * are dirty), and no chunk waits for the disk's flush.
   */
  private written(sessionId: string, bytes: number): void {
    let state = this.syncs.get(sessionId);
    if (!state) {
      state = { unsynced: 0, running: null, failure: null };
      this.syncs.set(sessionId, state);
    }
    state.unsynced += bytes;
    if (state.unsynced < SYNC_EVERY_BYTES || state.running) return;
    state.unsynced = 0;
    const current = state;
    current.running = this.blobs.sync(this.blobs.upload(sessionId)).then(
      () => void (current.running = null),
      (err: unknown) => {
        // a file removed meanwhile (the upload cancelled) has nothing left to sync
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
          current.failure ??= err instanceof Error ? err : new Error(String(err));
        current.running = null;
      },
    );
  }

  /**
   * The upload's background sync finished, and its failure if it had one: the merge's own sync
   * follows, and a failure the disk reported to an earlier sync is not lost on the way.
   */
  async settle(sessionId: string): Promise<void> {
    const state = this.syncs.get(sessionId);
    this.syncs.delete(sessionId);
    await state?.running;
    if (state?.failure) throw state.failure;
  }

  forget(sessionId: string): void {
    this.syncs.delete(sessionId);
  }

  /**
   * Take chunk `n` before writing it: `claimed` (this request writes it), `written` (it is
   * there already: the repeated bytes are dropped) or `busy` (another request is writing it).
   */
  private async claim(sessionId: string, n: number): Promise<'claimed' | 'written' | 'busy'> {
    const node = this.presence.node;
    try {
      if (await this.repo.claimChunk(sessionId, n, node)) return 'claimed';
    } catch (err) {
      if (!(await this.repo.find(sessionId))) throw cancelled();
      throw err;
    }
    const held = await this.repo.chunkClaim(sessionId, n);
    if (held?.done === 1) return 'written';
    // the claim of a request whose node is gone (killed in the middle of the chunk) is taken
    // over: the chunk is written again, whole, at its offset
    if (
      held &&
      held.node !== node &&
      (await this.presence.gone([held.node])).size > 0 &&
      (await this.repo.takeOverClaim(sessionId, n, held.node, node))
    )
      return 'claimed';
    return 'busy';
  }

  /** Start: the claims of requests that died with their node can be taken again. */
  async releaseClaimsOfGoneNodes(): Promise<void> {
    const gone = await this.presence.gone(await this.repo.claimingNodes());
    if (gone.size > 0) await this.repo.deleteUnfinishedClaims([...gone]);
  }

  /**
   * Read a chunk's bytes from the request and write them at their offset (or only count them
   * when `file` is null), in one pass (body-writer.ts). A body that breaks off (a cut-off
   * multipart form) is the client's mistake: 422.
   */
  private async receive(
    body: Readable,
    file: Place | null,
    offset: number,
    expected: number,
    chunkNumber: number,
  ): Promise<number> {
    const writer = file ? await this.blobs.writer(file) : null;
    let read = 0;
    try {
      return await writeBody(body, {
        writer,
        offset,
        onPiece: (piece) => {
          read += piece.length;
          if (read > expected)
            throw badParameter(`Chunk ${chunkNumber} is larger than ${expected} bytes`);
        },
        // the upload's bytes are synced across its chunks (`written`), and at the merge
        sync: false,
        brokeOff: (err) =>
          badParameter(
            `The bytes of chunk ${chunkNumber} broke off: ${err.message || 'the request ended early'}`,
          ),
      });
    } finally {
      await writer?.close();
    }
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
