import { ErrorCode, MAX_CHUNK_RETRIES, REQUEST_TIMEOUT_MS } from '@nimbus/contract';
import { ApiError } from '../../../api/client';
import i18n from '../../../i18n';
import { browserStorage } from '../../../stores/storage';
import {
  checkExist,
  createFolder,
  mergeUpload,
  sendChunk,
  testChunk,
  type ChunkParams,
  type MergeParams,
  type UploadRoutes,
} from '../api';
import { chunkRange, planChunks, storedChunkSize, totalChunksFor } from '../chunk-plan';
import { computeIdentifier } from '../hasher';
import { ByteTally, SpeedMeter } from '../progress';
import { abortError, backoffMs, isRetryable, sleep } from '../retry';
import type { UploadItem } from '../types';

/** Chunks of one file on the wire at once. */
export const CHUNKS_IN_FLIGHT = 3;
/**
 * Chunk requests on the wire across all files: browsers open 6 connections per host over
 * HTTP/1.1 and the live event stream holds one, so more would only queue inside the browser.
 */
const GLOBAL_CHUNK_SLOTS = 5;
/** A merge request may wait this long on the server for a background merge to finish. */
const MERGE_WAIT_ALLOWANCE_MS = 15_000;
/** Pause between asks while a large file is still merging. */
const MERGE_POLL_MS = 500;

/** A counting semaphore whose waiters can give up. */
class Slots {
  private free: number;
  private waiters: Array<() => void> = [];

  constructor(count: number) {
    this.free = count;
  }

  async acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw abortError();
    if (this.free > 0) {
      this.free -= 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      const onAbort = () => {
        this.waiters = this.waiters.filter((w) => w !== grant);
        reject(abortError());
      };
      this.waiters.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) next();
    else this.free += 1;
  }
}

/** What a running file needs besides its item: its abort switch and its byte counters. */
export interface Runtime {
  controller: AbortController;
  /** Speed of the bytes actually sent (tally.sent). */
  meter: SpeedMeter;
  tally: ByteTally;
}

/** `shown`: the progress the file's row showed before this run, which it never goes below. */
export function newRuntime(shown = 0): Runtime {
  return {
    controller: new AbortController(),
    meter: new SpeedMeter(),
    tally: new ByteTally(shown),
  };
}

/** How a transfer reads and changes the item it moves (the queue owns the items). */
export interface TransferHooks {
  item(): UploadItem | undefined;
  patch(changes: Partial<UploadItem>, now?: boolean): void;
  /** The item's identifier and chunk size are known: remember them for a resume. */
  remember(): void;
}

/** How a transfer ended when nothing went wrong. */
export type TransferOutcome = 'instant' | 'merged' | 'aborted';

type ChunkRange = { chunkNumber: number; start: number; end: number };

const t = (key: string): string => (i18n.t as (key: string) => string)(key);

/** A protocol call retried like a chunk: 3 times, with backoff, on errors that may pass. */
export async function withRetry<T>(
  call: (signal: AbortSignal) => Promise<T>,
  signal: AbortSignal,
): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(signal);
    } catch (error) {
      if (signal.aborted) throw abortError();
      if (!isRetryable(error) || attempt >= MAX_CHUNK_RETRIES) throw error;
      await sleep(backoffMs(attempt + 1), signal);
    }
  }
}

/**
 * The transfer of files to one place (the own drive or a share, by its routes): checksum
 * (SHA-256 in a worker) → chunk test (instant upload, resume list) → the missing chunks, 3 at a
 * time, each retried 3 times with backoff → merge, which the server verifies against the
 * checksum, asked again while a large file is still merging.
 */
export class Transfer {
  private slots = new Slots(GLOBAL_CHUNK_SLOTS);

  constructor(readonly routes: UploadRoutes) {}

  /** Whether any of these top-level names exists in the folder (spec §5). */
  exists(names: string[], currentDirectory: string, signal: AbortSignal): Promise<boolean> {
    return withRetry((s) => checkExist(names, currentDirectory, s, this.routes), signal);
  }

  /** One folder of a folder upload. */
  createFolder(
    folder: { filename: string; folderPath: string },
    currentDirectory: string,
    signal: AbortSignal,
  ): Promise<void> {
    return withRetry((s) => createFolder({ ...folder, currentDirectory }, s, this.routes), signal);
  }

  /**
   * What the server holds of a remembered upload: all of it (`done`), or these bytes. Only a
   * hint for the list; the upload itself asks again.
   */
  async probe(item: UploadItem): Promise<{ done: true } | { done: false; uploaded: number }> {
    const { identifier, chunkSize } = item;
    if (!identifier || !chunkSize) return { done: false, uploaded: 0 };
    const first = chunkRange(1, item.size, chunkSize);
    const test = await testChunk(
      {
        chunkNumber: 1,
        chunkSize,
        currentChunkSize: first.end - first.start,
        totalSize: item.size,
        identifier,
        filename: item.name,
        relativePath: item.relativePath,
        totalChunks: totalChunksFor(item.size, chunkSize),
        currentDirectory: item.currentDirectory,
        lastModified: item.lastModified,
      },
      undefined,
      this.routes,
    );
    if (test.pass) return { done: true };
    const have = new Set(test.resume);
    const uploaded = planChunks(item.size, chunkSize)
      .filter((c) => have.has(c.chunkNumber))
      .reduce((sum, c) => sum + c.end - c.start, 0);
    return { done: false, uploaded };
  }

  /** Moves one file; throws what went wrong (the queue decides what it means). */
  async run(file: File, rt: Runtime, hooks: TransferHooks): Promise<TransferOutcome> {
    const { signal } = rt.controller;
    let item = hooks.item();
    if (!item) return 'aborted';

    if (!item.identifier) {
      hooks.patch({ status: 'checking', checkProgress: 0, uploaded: 0 }, true);
      const identifier = await computeIdentifier(
        file,
        (fraction) => hooks.patch({ checkProgress: fraction }),
        signal,
      );
      if (signal.aborted) return 'aborted';
      hooks.patch({ identifier, checkProgress: 1 });
      item = hooks.item()!;
    }
    const chunkSize = item.chunkSize ?? storedChunkSize(browserStorage());
    if (item.chunkSize !== chunkSize || !item.identifier) hooks.patch({ chunkSize });
    hooks.remember();
    item = hooks.item()!;
    const size = item.size;

    const base: MergeParams = {
      chunkSize,
      totalSize: size,
      identifier: item.identifier!,
      filename: item.name,
      relativePath: item.relativePath,
      totalChunks: totalChunksFor(size, chunkSize),
      currentDirectory: item.currentDirectory,
      lastModified: item.lastModified,
    };
    const chunkParams = (chunkNumber: number): ChunkParams => {
      const range = chunkRange(chunkNumber, size, chunkSize);
      return { ...base, chunkNumber, currentChunkSize: range.end - range.start };
    };

    hooks.patch({ status: 'uploading', speed: 0 }, true);
    const test = await withRetry((s) => testChunk(chunkParams(1), s, this.routes), signal);
    if (signal.aborted) return 'aborted';
    if (test.pass) return 'instant';
    const have = new Set(test.resume);
    const plan = planChunks(size, chunkSize);
    rt.tally.begin(
      plan.filter((c) => have.has(c.chunkNumber)).reduce((sum, c) => sum + c.end - c.start, 0),
    );
    rt.meter.record(rt.tally.sent, Date.now());
    hooks.patch({ uploaded: rt.tally.shown }, true);

    if (!test.merge) {
      const missing = plan.filter((c) => !have.has(c.chunkNumber));
      await this.sendChunks(rt, file, missing, chunkParams, hooks);
      if (signal.aborted) return 'aborted';
    }

    hooks.patch({ status: 'merging', uploaded: size, speed: 0, mergeProgress: undefined }, true);
    // a large file is merged by a background task on the server: each request waits a while
    // for it and answers "still merging" with progress; ask again until the file is there
    for (;;) {
      const merged = await withRetry(
        (s) => mergeUpload(base, s, REQUEST_TIMEOUT_MS + MERGE_WAIT_ALLOWANCE_MS, this.routes),
        signal,
      );
      if (signal.aborted) return 'aborted';
      if (!('merging' in merged)) break;
      hooks.patch({ mergeProgress: merged.progress });
      await sleep(MERGE_POLL_MS, signal);
    }
    return 'merged';
  }

  private async sendChunks(
    rt: Runtime,
    file: File,
    chunks: ChunkRange[],
    chunkParams: (n: number) => ChunkParams,
    hooks: TransferHooks,
  ): Promise<void> {
    const local = new AbortController();
    const onAbort = () => local.abort();
    rt.controller.signal.addEventListener('abort', onAbort, { once: true });
    const report = () => {
      rt.meter.record(rt.tally.sent, Date.now());
      hooks.patch({ uploaded: rt.tally.shown });
    };
    let next = 0;
    const lane = async () => {
      while (next < chunks.length && !local.signal.aborted) {
        const chunk = chunks[next++]!;
        await this.sendWithRetry(
          rt,
          file,
          chunk,
          chunkParams(chunk.chunkNumber),
          local.signal,
          report,
        );
      }
    };
    try {
      await Promise.all(
        Array.from({ length: Math.min(CHUNKS_IN_FLIGHT, chunks.length) }, () =>
          lane().catch((error: unknown) => {
            local.abort();
            throw error;
          }),
        ),
      );
    } finally {
      rt.controller.signal.removeEventListener('abort', onAbort);
    }
  }

  /** One chunk, retried 3 times with backoff on errors that may pass (spec §9). */
  private async sendWithRetry(
    rt: Runtime,
    file: File,
    chunk: ChunkRange,
    params: ChunkParams,
    signal: AbortSignal,
    report: () => void,
  ): Promise<void> {
    const bytes = file.slice(chunk.start, chunk.end);
    for (let attempt = 0; ; attempt++) {
      await this.slots.acquire(signal);
      let failure: unknown = null;
      try {
        const result = await sendChunk(
          params,
          bytes,
          {
            signal,
            onProgress: (sent) => {
              rt.tally.progress(chunk.chunkNumber, sent);
              report();
            },
          },
          this.routes,
        );
        if (!result.upload) {
          throw new ApiError('business', t('upload:errors.rejected'), ErrorCode.UPLOAD_FAILED, 200);
        }
        rt.tally.confirm(chunk.chunkNumber, chunk.end - chunk.start);
        report();
        return;
      } catch (error) {
        rt.tally.drop(chunk.chunkNumber);
        failure = error;
      } finally {
        this.slots.release();
      }
      if (signal.aborted) throw abortError();
      if (!isRetryable(failure) || attempt >= MAX_CHUNK_RETRIES) throw failure;
      await sleep(backoffMs(attempt + 1), signal);
    }
  }
}
