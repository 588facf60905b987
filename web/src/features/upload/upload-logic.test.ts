import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_CHUNK_SIZE, MAX_CHUNK_SIZE } from '@nimbus/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/client';
import { NoDataError } from './api';
import {
  chunkRange,
  normalizeChunkSize,
  planChunks,
  storedChunkSize,
  totalChunksFor,
} from './chunk-plan';
import { hashBlob } from './hash-core';
import { cleanRelativePath, foldersToCreate, isSameFile, topLevelNames } from './paths';
import {
  ByteTally,
  formatSpeed,
  secondsLeft,
  SpeedMeter,
  summarize,
  timeLeftParts,
  uploadTitle,
} from './progress';
import { backoffMs, isConnectionError, isRetryable } from './retry';
import type { UploadItem } from './types';
import { UploadParams, UploadParamsTimeout } from './upload-params';

const item = (changes: Partial<UploadItem>): UploadItem => ({
  id: 'x',
  batchId: 'b',
  name: 'a.bin',
  size: 100,
  lastModified: 1,
  relativePath: 'a.bin',
  currentDirectory: '/',
  status: 'waiting',
  checkProgress: 0,
  uploaded: 0,
  speed: 0,
  needsFile: false,
  addedAt: 0,
  ...changes,
});

describe('chunk plan (API notes §1.4, forceChunkSize false)', () => {
  it('has floor(size / chunkSize) chunks, at least one, the last taking the remainder', () => {
    expect(totalChunksFor(0, 1024)).toBe(1);
    expect(totalChunksFor(1023, 1024)).toBe(1);
    expect(totalChunksFor(2047, 1024)).toBe(1);
    expect(totalChunksFor(2048, 1024)).toBe(2);
    const plan = planChunks(3 * 1024 + 700, 1024);
    expect(plan.map((c) => c.end - c.start)).toEqual([1024, 1024, 1024 + 700]);
    expect(plan.at(-1)).toEqual({ chunkNumber: 3, start: 2048, end: 3 * 1024 + 700 });
    expect(chunkRange(1, 0, 1024)).toEqual({ chunkNumber: 1, start: 0, end: 0 });
  });

  it('covers every byte exactly once', () => {
    for (const size of [1, 999, 1000, 1001, 5 * 1000 + 999]) {
      const plan = planChunks(size, 1000);
      expect(plan[0]?.start).toBe(0);
      expect(plan.at(-1)?.end).toBe(size);
      for (let i = 1; i < plan.length; i++) expect(plan[i]?.start).toBe(plan[i - 1]?.end);
    }
  });

  it('reads the chunk size from storage, falling back to 1 MiB on nonsense', () => {
    const storage = (value: string | null) => ({ getItem: () => value });
    expect(storedChunkSize(storage(null))).toBe(DEFAULT_CHUNK_SIZE);
    expect(storedChunkSize(storage('2097152'))).toBe(2097152);
    expect(storedChunkSize(storage('abc'))).toBe(DEFAULT_CHUNK_SIZE);
    expect(storedChunkSize(storage('-5'))).toBe(DEFAULT_CHUNK_SIZE);
    expect(storedChunkSize(storage(String(MAX_CHUNK_SIZE + 1)))).toBe(DEFAULT_CHUNK_SIZE);
    expect(storedChunkSize(null)).toBe(DEFAULT_CHUNK_SIZE);
    expect(normalizeChunkSize(4096)).toBe(4096);
    expect(normalizeChunkSize(1.5)).toBe(DEFAULT_CHUNK_SIZE);
  });
});

describe('folder uploads', () => {
  it('asks checkExist about the top-level names only', () => {
    expect(topLevelNames(['旅行 🌍/照片/a.txt', '旅行 🌍/b.txt', 'c.txt', 'c.txt'])).toEqual([
      '旅行 🌍',
      'c.txt',
    ]);
  });

  it('creates every folder, parents first, including empty ones', () => {
    expect(foldersToCreate(['a/b/c/x.txt', 'a/y.txt', 'z.txt'], ['a/empty', 'solo'])).toEqual([
      { folderPath: '', filename: 'a' },
      { folderPath: '', filename: 'solo' },
      { folderPath: 'a', filename: 'b' },
      { folderPath: 'a', filename: 'empty' },
      { folderPath: 'a/b', filename: 'c' },
    ]);
    expect(foldersToCreate(['x.txt', 'y.txt'])).toEqual([]);
  });

  it('cleans relative paths', () => {
    expect(cleanRelativePath('/a//b/./c.txt', 'c.txt')).toBe('a/b/c.txt');
    expect(cleanRelativePath('', 'c.txt')).toBe('c.txt');
  });

  it('recognises the same file chosen again by name, size and date', () => {
    const a = { name: 'a.bin', size: 10, lastModified: 5 };
    expect(isSameFile(a, { ...a })).toBe(true);
    expect(isSameFile(a, { ...a, lastModified: 6 })).toBe(false);
    expect(isSameFile(a, { ...a, size: 11 })).toBe(false);
  });
});

describe('progress', () => {
  it('formats speeds in B/s, KB/s, MB/s and GB/s', () => {
    expect(formatSpeed(0)).toBe('0 B/s');
    expect(formatSpeed(512)).toBe('512 B/s');
    expect(formatSpeed(1536)).toBe('1.50 KB/s');
    expect(formatSpeed(5 * 1024 * 1024)).toBe('5.00 MB/s');
    expect(formatSpeed(3 * 1024 ** 3)).toBe('3.00 GB/s');
  });

  it('measures speed over a sliding window and decays when stalled', () => {
    const meter = new SpeedMeter(3000);
    meter.record(0, 0);
    meter.record(1000, 500);
    meter.record(2000, 1000);
    expect(meter.speed(1000)).toBe(2000);
    expect(meter.speed(2000)).toBe(1000);
    meter.record(2000, 10_000);
    expect(meter.speed(10_000)).toBe(0);
  });

  it('keeps a speed above zero while bytes flow, however sparse the progress events', () => {
    const meter = new SpeedMeter(3000);
    meter.record(0, 0);
    // a slow link: one progress event every 2.5 s, each 100 KB more
    for (let at = 2500, bytes = 100_000; at <= 20_000; at += 2500, bytes += 100_000) {
      meter.record(bytes, at);
      for (const now of [at, at + 1000, at + 2000]) expect(meter.speed(now)).toBeGreaterThan(0);
    }
    // the last 3 s: 100 KB over the 2.5 s since the sample before the window, and the wait since
    expect(meter.speed(20_000)).toBe(200_000 / 5);
  });

  it('counts the bytes sent as progress that never falls, through failures and pauses', () => {
    const tally = new ByteTally();
    tally.begin(0);
    tally.progress(1, 400);
    tally.progress(2, 300);
    tally.confirm(1, 1000);
    expect(tally.shown).toBe(1300);
    // chunk 2 fails after 300 bytes: shown stays, and its bytes count again when resent
    tally.drop(2);
    expect(tally.shown).toBe(1300);
    tally.progress(2, 200);
    expect(tally.shown).toBe(1300);
    tally.progress(2, 1000);
    expect(tally.shown).toBe(2000);
    expect(tally.sent).toBe(1000 + 300 + 1000);
    // a pause cut chunk 3; the next run begins from what was shown and what the server holds
    tally.progress(3, 700);
    const shownAtPause = tally.shown;
    const resumed = new ByteTally(shownAtPause);
    resumed.begin(1000);
    expect(resumed.shown).toBe(shownAtPause);
    resumed.progress(2, 1000);
    resumed.progress(3, 100);
    expect(resumed.shown).toBe(shownAtPause);
    resumed.progress(3, 1000);
    expect(resumed.shown).toBe(3000);
  });

  it('says how long is left at the present speed, only while bytes are sent', () => {
    expect(secondsLeft(1000, 100)).toBe(10);
    expect(secondsLeft(1000, 0)).toBeNull();
    expect(timeLeftParts(0)).toEqual({ unit: 'seconds', count: 1 });
    expect(timeLeftParts(45)).toEqual({ unit: 'seconds', count: 45 });
    expect(timeLeftParts(61)).toEqual({ unit: 'minutes', count: 2 });
    expect(timeLeftParts(7500)).toEqual({ unit: 'hours', hours: 2, minutes: 5 });
    const sending = summarize([
      item({ size: 1000, status: 'uploading', uploaded: 400, speed: 100 }),
    ]);
    expect(sending).toMatchObject({ sending: 1, speed: 100, remaining: 600, secondsLeft: 6 });
    // checking and merging send nothing: no speed, no time left, no "0 B/s" in the title
    const hashing = summarize([item({ size: 1000, status: 'checking', speed: 0 })]);
    expect(hashing).toMatchObject({ sending: 0, speed: 0, secondsLeft: null });
    expect(uploadTitle(hashing)).toBe('0%');
  });

  it('sums the list into one percentage, ignoring failed files', () => {
    const s = summarize([
      item({ size: 100, status: 'success' }),
      item({ size: 100, status: 'uploading', uploaded: 50, speed: 10 }),
      item({ size: 1000, status: 'failure', uploaded: 10 }),
      item({ size: 0, status: 'waiting' }),
    ]);
    expect(s).toMatchObject({
      count: 4,
      success: 1,
      failure: 1,
      unfinished: 2,
      active: 1,
      percent: 75,
      speed: 10,
      isUploading: true,
    });
    expect(uploadTitle(s)).toBe('75% | 10 B/s');
    expect(summarize([item({ size: 0, status: 'success' })]).percent).toBe(100);
    expect(summarize([]).percent).toBe(0);
    // paused files are not "uploading": leaving the page does not warn for them
    expect(summarize([item({ status: 'paused', needsFile: true })]).isUploading).toBe(false);
  });
});

describe('retries (spec §9)', () => {
  it('backs off 1, 2, 4 s then stays at 8 s, plus jitter', () => {
    const none = () => 0;
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, none))).toEqual([1000, 2000, 4000, 8000, 8000]);
    expect(backoffMs(1, () => 1)).toBe(1250);
  });

  it('retries dropped connections and transient codes, never a refusal or an abort', () => {
    expect(isRetryable(new ApiError('transport', 'x', -1000, 0))).toBe(true);
    expect(isRetryable(new ApiError('timeout', 'x', -1000, 0))).toBe(true);
    expect(isRetryable(new ApiError('business', 'x', -1, 500))).toBe(true);
    expect(isRetryable(new ApiError('business', 'x', 21, 423))).toBe(true);
    expect(isRetryable(new ApiError('business', 'space full', 20, 507))).toBe(false);
    expect(isRetryable(new ApiError('business', 'bad', 10, 422))).toBe(false);
    expect(isRetryable(new ApiError('business', 'merge', 16, 500))).toBe(false);
    expect(isRetryable(new ApiError('aborted', 'x', -1000, 0))).toBe(false);
    expect(isRetryable(new NoDataError('no data'))).toBe(false);
  });

  it('tells a dropped connection from a server that answered', () => {
    expect(isConnectionError(new ApiError('transport', 'x', -1000, 0))).toBe(true);
    expect(isConnectionError(new ApiError('timeout', 'x', -1000, 0))).toBe(true);
    expect(isConnectionError(new ApiError('transport', 'HTTP 502', -1000, 502))).toBe(false);
    expect(isConnectionError(new ApiError('business', 'x', 20, 507))).toBe(false);
  });
});

describe('identifier', () => {
  const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

  it.each([false, true])(
    'is the SHA-256 of the content (one native digest: %s)',
    async (oneShot) => {
      for (const size of [0, 1, 1000, 4096, 3 * 1024 * 1024 + 7]) {
        const bytes = randomBytes(size);
        const progress: number[] = [];
        const hash = await hashBlob(new Blob([bytes]), {
          oneShot,
          progressEveryMs: 0,
          onProgress: (n) => progress.push(n),
        });
        expect(hash).toBe(sha(bytes));
        expect(progress.at(-1)).toBe(size);
        expect([...progress].sort((a, b) => a - b)).toEqual(progress);
      }
    },
  );

  it('stops when cancelled', async () => {
    const blob = new Blob([randomBytes(10_000)]);
    await expect(hashBlob(blob, { isCancelled: () => true })).rejects.toThrow();
  });
});

describe('upload parameters (spec §5: 3 s wait)', () => {
  const folder = (writable: boolean) => ({ path: '/a/', folderId: '1', writable });

  it('answers at once when the current folder is writable', async () => {
    const params = new UploadParams();
    params.set(folder(true));
    await expect(params.wait(3000)).resolves.toMatchObject({ path: '/a/' });
  });

  it('waits for the folder to arrive, and times out after 3 s', async () => {
    vi.useFakeTimers();
    try {
      const params = new UploadParams();
      params.set(folder(false));
      const arriving = params.wait(3000);
      vi.advanceTimersByTime(2000);
      params.set(folder(true));
      await expect(arriving).resolves.toMatchObject({ writable: true });

      params.set(null);
      const never = params.wait(3000);
      const outcome = expect(never).rejects.toBeInstanceOf(UploadParamsTimeout);
      vi.advanceTimersByTime(3000);
      await outcome;
    } finally {
      vi.useRealTimers();
    }
  });
});
