import type { PositionalWriter } from '../../storage/blob-store.ts';

/** Bytes of a body gathered before they are written. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/**
 * Bytes written between two syncs while a body arrives. The disk writes what came while the
 * socket brings the next bytes, instead of the whole body at the end: the kernel would not
 * start writing a dirty page cache of less than gigabytes on its own.
 */
const SYNC_EVERY_BYTES = 8 * 1024 * 1024;

export interface BodyWrite {
  /** Where the bytes go, from `offset` on; null: they are only read and counted. */
  writer: PositionalWriter | null;
  offset: number;
  /** Told of every piece before it is written; throwing stops the write. */
  onPiece?: (piece: Buffer) => void;
  /** The error a body that breaks off becomes. */
  brokeOff: (err: Error) => Error;
  /** False: the caller syncs (a chunk upload, whose session syncs across its chunks). */
  sync?: boolean;
}

/**
 * Write a request body at its offset in one pass: the pieces it arrives in (64 KiB) are
 * gathered and written 1 MiB at a time with one vectored write (far fewer system calls, no
 * copy), and synced as they go (every SYNC_EVERY_BYTES, without waiting, and once more at the
 * end), so the bytes are on the disk when this resolves and a later sync finds nothing left.
 * Answers the number of bytes the body held.
 */
export async function writeBody(body: AsyncIterable<Buffer>, target: BodyWrite): Promise<number> {
  const handle = target.writer;
  let read = 0;
  let position = target.offset;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // the sync under way (at most one), what failed, and the bytes written since it started
  const sync: { running: Promise<void> | null; failure: Error | null } = {
    running: null,
    failure: null,
  };
  let unsynced = 0;
  const startSync = (writer: PositionalWriter) => {
    unsynced = 0;
    // its failure is thrown at the body's end
    sync.running = writer.sync().then(
      () => void (sync.running = null),
      (err: unknown) => {
        sync.failure ??= err instanceof Error ? err : new Error(String(err));
        sync.running = null;
      },
    );
  };
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
      while (done < rest.length)
        done += await handle.write(rest, done, rest.length - done, position + bytesWritten + done);
    }
    position += length;
    unsynced += length;
    if (target.sync !== false && unsynced >= SYNC_EVERY_BYTES && !sync.running) startSync(handle);
  };
  const pieces = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let step: IteratorResult<Buffer>;
      try {
        step = await pieces.next();
      } catch (err) {
        throw target.brokeOff(err as Error);
      }
      if (step.done) break;
      const piece = step.value;
      read += piece.length;
      target.onPiece?.(piece);
      if (!handle) continue;
      pending.push(piece);
      pendingBytes += piece.length;
      if (pendingBytes >= WRITE_BATCH_BYTES) await flush();
    }
    await flush();
    if (handle && target.sync !== false) {
      await sync.running;
      if (sync.failure) throw sync.failure;
      await handle.sync();
    }
  } finally {
    // a sync still under way ends before the caller closes its file
    await sync.running;
  }
  return read;
}
