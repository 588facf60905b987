import { createHash } from 'node:crypto';
import { ErrorCode } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { Gate } from '../../lib/gate.ts';
import type { BlobStat, BlobStore, Place } from '../../storage/blob-store.ts';
import { markUsed } from '../cache/cache-keeper.ts';
import type { FileRow } from '../files/files.service.ts';

/** Derived image bytes to send: where they are, and how they are named and typed. */
export interface ImageBytes {
  blobs: BlobStore;
  place: Place;
  stat?: BlobStat;
  made?: boolean;
  row: Pick<FileRow, 'name' | 'contentType' | 'hash' | 'size' | 'updateDate' | 'suffix'>;
  /** A file's own bytes in a share without downloads: only what a preview shows. */
  previewOnly?: () => Error;
}

export const noThumbnail = () =>
  new AppError(ErrorCode.FILE_NOT_FOUND, 'This file has no thumbnail');

/**
 * The making of derived images, shared by every kind of them: each runs in a scratch folder of
 * its own, at most the configured number at once, and one maker per cache key.
 */
export class ImageWork {
  /** Bounds this node's CPU, so it stays local: each node makes that many at once. */
  private readonly gate: Gate;
  /** Derived images being made, by cache key: a second request waits for the first. */
  private readonly making = new Map<string, Promise<void>>();

  constructor(
    private readonly blobsOf: () => BlobStore,
    options: { parallel: number },
  ) {
    // spec: image work never takes more than the configured parallel tasks
    this.gate = new Gate(Math.max(1, options.parallel));
  }

  private get blobs(): BlobStore {
    return this.blobsOf();
  }

  /** A WebP made here, as bytes to send (marked used in the cache). */
  async webpBytes(place: Place, name: string, key: string, known?: BlobStat): Promise<ImageBytes> {
    const stat = known ?? (await this.blobs.stat(place));
    if (!stat) throw noThumbnail();
    markUsed(this.blobs, place, stat.mtimeMs);
    return {
      blobs: this.blobs,
      place,
      stat,
      // drawn by sharp as WebP here: shown as such without a look at its first bytes
      made: true,
      row: {
        name,
        contentType: 'image/webp',
        suffix: 'webp',
        hash: createHash('sha256').update(key).digest('hex'),
        size: stat.size,
        updateDate: stat.mtimeMs,
      },
    };
  }

  /**
   * Make a cache entry unless it is there: one maker per key (a grid asking twice waits for
   * the first), at most `parallel` at a time. A picture that cannot be read is no thumbnail.
   */
  async makeOnce(
    place: Place,
    key: string,
    make: (workDir: string, signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    if (await this.blobs.exists(place)) return;
    let running = this.making.get(key);
    if (!running) {
      running = this.run(make).finally(() => this.making.delete(key));
      this.making.set(key, running);
    }
    try {
      await running;
    } catch {
      throw noThumbnail();
    }
  }

  /** Run image work in a scratch folder of its own, within the parallel limit. */
  run(run: (workDir: string, signal: AbortSignal) => Promise<void>): Promise<void> {
    return this.gate.run('images', async () => {
      const scratch = await this.blobs.scratch();
      this.scratches.set(scratch.path, scratch.place);
      try {
        await run(scratch.path, AbortSignal.timeout(120_000));
      } finally {
        this.scratches.delete(scratch.path);
        await scratch.release();
      }
    });
  }

  private readonly scratches = new Map<string, Place>();

  scratchOf(workDir: string): Place {
    const place = this.scratches.get(workDir);
    if (!place) throw new Error('Not a scratch folder of image work');
    return place;
  }
}
