import { createHash, type Hash } from 'node:crypto';
import { Gate } from '../../lib/gate.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import { hashBytes } from '../files/tree-index.ts';
import type { UploadRepo, UploadSession } from './upload.repo.ts';

/** SHA-256 of the chunks received in order so far. */
interface HashCursor {
  hash: Hash;
  next: number;
}

/**
 * The running hash of each upload: the chunks that follow on from what is hashed are hashed as
 * they arrive (re-read from the page cache), so a merge has little or nothing left to hash.
 */
export class UploadHashes {
  private readonly cursors = new Map<string, HashCursor>();
  /**
   * Guards this node's cursors, so it stays local: chunks that land on another node leave a gap
   * here, and the merge hashes the whole file instead.
   */
  private readonly cursorLocks = new Gate();

  constructor(
    private readonly repo: UploadRepo,
    private readonly blobs: BlobStore,
  ) {}

  /** Hash the written chunks that now follow on from what is hashed, re-read from the page cache. */
  advance(session: UploadSession): Promise<void> {
    return this.cursorLocks.run(session.id, async () => {
      let cursor = this.cursors.get(session.id);
      if (!cursor) {
        cursor = { hash: createHash('sha256'), next: 1 };
        this.cursors.set(session.id, cursor);
      }
      const have = new Set(await this.repo.doneChunks(session.id, cursor.next));
      if (!have.has(cursor.next)) return;
      // the written chunks that follow on, read as one range (from the page cache)
      const first = cursor.next;
      while (have.has(cursor.next)) cursor.next += 1;
      const start = (first - 1) * session.chunkSize;
      // the last chunk takes the remainder, so it may be longer than the others
      const last = cursor.next - 1 === session.totalChunks;
      const end = (last ? session.totalSize : (cursor.next - 1) * session.chunkSize) - 1;
      if (end < start) return;
      for await (const piece of this.blobs.read(this.blobs.upload(session.id), { start, end }))
        cursor.hash.update(piece as Buffer);
    });
  }

  /** The finished hash when every chunk went through the cursor; otherwise hash the file. */
  async final(
    session: UploadSession,
    staged: Place,
    onBytes?: (bytes: number) => void,
  ): Promise<string> {
    await this.cursorLocks.run(session.id, async () => undefined);
    const cursor = this.cursors.get(session.id);
    this.cursors.delete(session.id);
    if (cursor && cursor.next === session.totalChunks + 1) return cursor.hash.digest('hex');
    return hashBytes(this.blobs.read(staged), onBytes);
  }

  forget(sessionId: string): void {
    this.cursors.delete(sessionId);
  }
}
