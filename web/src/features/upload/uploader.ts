import {
  ErrorCode,
  MAX_CHUNK_RETRIES,
  REQUEST_TIMEOUT_MS,
  SIMULTANEOUS_UPLOADS,
  UPLOAD_PARAMS_TIMEOUT_MS,
} from '@nimbus/contract';
import { ApiError, request } from '../../api/client';
import { queryClient } from '../../api/query-client';
import { feedback } from '../../app/feedback';
import i18n from '../../i18n';
import { useAppStore } from '../../stores/app';
import { useSessionStore } from '../../stores/session';
import { browserStorage } from '../../stores/storage';
import { authKeys } from '../auth/api';
import type { CurrentFolder } from '../files/current-folder';
import {
  checkExist,
  createFolder,
  mergeUpload,
  NoDataError,
  sendChunk,
  testChunk,
  type ChunkParams,
  type MergeParams,
} from './api';
import { chunkRange, planChunks, storedChunkSize, totalChunksFor } from './chunk-plan';
import { computeIdentifier } from './hasher';
import { cleanRelativePath, foldersToCreate, isSameFile, topLevelNames } from './paths';
import { SpeedMeter } from './progress';
import { forgetUploads, loadUploads, saveUploads } from './queue-db';
import { abortError, backoffMs, isAbort, isConnectionError, isRetryable, sleep } from './retry';
import { useUploadStore } from './store';
import { UploadParams, UploadParamsTimeout } from './upload-params';
import type { PickedFile, SavedUpload, UploadItem } from './types';

/** Chunks of one file on the wire at once. */
export const CHUNKS_IN_FLIGHT = 3;
/**
 * Chunk requests on the wire across all files: browsers open 6 connections per host over
 * HTTP/1.1 and the live event stream holds one, so more would only queue inside the browser.
 */
const GLOBAL_CHUNK_SLOTS = 5;
const PUBLISH_EVERY_MS = 200;
const CHECK_EXIST_BATCH = 1000;
const REFRESH_DELAY_MS = 400;
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
interface Runtime {
  controller: AbortController;
  meter: SpeedMeter;
  /** Bytes of chunks the server confirmed (or already had). */
  confirmed: number;
  /** Bytes on the wire per chunk number. */
  inflight: Map<number, number>;
}

const t = (key: string, options?: Record<string, unknown>): string =>
  (i18n.t as (key: string, options?: Record<string, unknown>) => string)(key, options);

function newId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.kind === 'transport' || error.kind === 'timeout') {
      return error.status > 0
        ? t('upload:errors.http', { status: error.status })
        : t('upload:errors.network');
    }
    return error.message;
  }
  return error instanceof Error && error.message ? error.message : String(error);
}

function toSaved(item: UploadItem, username: string): SavedUpload {
  return {
    id: item.id,
    batchId: item.batchId,
    name: item.name,
    size: item.size,
    lastModified: item.lastModified,
    relativePath: item.relativePath,
    currentDirectory: item.currentDirectory,
    identifier: item.identifier,
    chunkSize: item.chunkSize,
    addedAt: item.addedAt,
    username,
  };
}

/** spec §5: same names in the folder → 'file already exists, overwrite?'; cancel aborts. */
function confirmOverwrite(): Promise<boolean> {
  return new Promise((resolve) => {
    feedback().modal.confirm({
      title: t('upload:overwrite.title'),
      content: t('upload:overwrite.content'),
      okText: t('upload:overwrite.ok'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { 'data-testid': 'upload-overwrite-ok' },
      cancelButtonProps: { 'data-testid': 'upload-overwrite-cancel' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/** spec §5: closing the uploader while uploading asks first. */
export function confirmExit(): Promise<boolean> {
  return new Promise((resolve) => {
    feedback().modal.confirm({
      title: t('upload:exit.title'),
      content: t('upload:exit.content'),
      okText: t('upload:exit.ok'),
      cancelText: t('common:actions.cancel'),
      okButtonProps: { danger: true, 'data-testid': 'upload-exit-ok' },
      cancelButtonProps: { 'data-testid': 'upload-exit-cancel' },
      onOk: () => resolve(true),
      onCancel: () => resolve(false),
    });
  });
}

/**
 * The upload engine: one per tab, outside React. It owns the queue, the files and the
 * transfers, and publishes the list to the upload store for the views.
 *
 * Per file: checksum (SHA-256 in a worker) → chunk test (instant upload, resume list) → the
 * missing chunks, 3 at a time, each retried 3 times with backoff → merge, which the server
 * verifies against the checksum → success. 3 files run at once (spec §9).
 */
export class Uploader {
  private order: string[] = [];
  private items = new Map<string, UploadItem>();
  private files = new Map<string, File>();
  private running = new Map<string, Runtime>();
  /** Batches whose folders are still being created: their files wait. */
  private pendingBatches = new Set<string>();
  private slots = new Slots(GLOBAL_CHUNK_SLOTS);
  private params = new UploadParams();
  private owner = '';
  private publishTimer: number | null = null;
  private refreshTimer: number | null = null;
  private ticker: number | null = null;

  // ---- state ---------------------------------------------------------------------------

  get(id: string): UploadItem | undefined {
    return this.items.get(id);
  }

  list(): UploadItem[] {
    return this.order.map((id) => this.items.get(id)).filter((i): i is UploadItem => !!i);
  }

  hasFile(id: string): boolean {
    return this.files.has(id);
  }

  private patch(id: string, changes: Partial<UploadItem>, now = false): void {
    const item = this.items.get(id);
    if (!item) return;
    this.items.set(id, { ...item, ...changes });
    if (now) this.publish();
    else this.schedulePublish();
  }

  private schedulePublish(): void {
    if (this.publishTimer !== null) return;
    this.publishTimer = window.setTimeout(() => this.publish(), PUBLISH_EVERY_MS);
  }

  private publish(): void {
    if (this.publishTimer !== null) window.clearTimeout(this.publishTimer);
    this.publishTimer = null;
    useUploadStore.setState({ items: this.list() });
  }

  /** Speeds decay while a transfer stalls, so they are recomputed on a clock, not on events. */
  private ensureTicker(): void {
    if (this.ticker !== null) return;
    this.ticker = window.setInterval(() => {
      if (this.running.size === 0) {
        window.clearInterval(this.ticker ?? undefined);
        this.ticker = null;
        return;
      }
      const now = Date.now();
      for (const [id, rt] of this.running) {
        const item = this.items.get(id);
        if (item?.status === 'uploading') this.patch(id, { speed: rt.meter.speed(now) });
      }
    }, 500);
  }

  private persist(ids: string[]): void {
    const username = this.owner || useSessionStore.getState().username;
    if (!username) return;
    const rows = ids
      .map((id) => this.items.get(id))
      .filter((i): i is UploadItem => !!i && i.status !== 'success')
      .map((i) => toSaved(i, username));
    void saveUploads(rows);
  }

  // ---- upload parameters ----------------------------------------------------------------

  /** The current folder, from the file browser; uploads go there. */
  setUploadParams(folder: CurrentFolder | null): void {
    this.params.set(folder);
  }

  // ---- adding ---------------------------------------------------------------------------

  /**
   * A batch picked or dropped: files matching a remembered upload (same name, size and date)
   * resume it; the rest is checked for same names, confirmed, and queued.
   */
  async add(picked: PickedFile[], emptyFolders: string[] = [], target?: string): Promise<void> {
    const fresh: PickedFile[] = [];
    const resumed: string[] = [];
    const key = (f: { name: string; size: number; lastModified: number }) =>
      `${f.size}\n${f.lastModified}\n${f.name}`;
    const remembered = new Map<string, string[]>();
    for (const id of this.order) {
      const item = this.items.get(id);
      if (!item?.needsFile) continue;
      const ids = remembered.get(key(item)) ?? [];
      ids.push(id);
      remembered.set(key(item), ids);
    }
    for (const entry of picked) {
      // the same file chosen again: name, size and date are all a browser gives back
      const match = remembered.get(key(entry.file))?.shift();
      if (match) {
        this.attach(match, entry.file);
        resumed.push(match);
      } else {
        fresh.push(entry);
      }
    }
    if (resumed.length) {
      this.publish();
      this.pump();
    }
    if (!fresh.length && !emptyFolders.length) return;

    let currentDirectory = target;
    if (currentDirectory === undefined) {
      try {
        currentDirectory = (await this.params.wait(UPLOAD_PARAMS_TIMEOUT_MS)).path;
      } catch (error) {
        if (error instanceof UploadParamsTimeout) {
          void feedback().message.error({ content: t('upload:paramsTimeout'), duration: 3 });
          return;
        }
        throw error;
      }
    }
    currentDirectory ||= '/';
    const entries = fresh.map((p) => ({
      file: p.file,
      relativePath: cleanRelativePath(p.relativePath, p.file.name),
    }));
    const names = topLevelNames([...entries.map((e) => e.relativePath), ...emptyFolders]);

    try {
      let exist = false;
      // the server takes at most 10 000 names a call
      for (let i = 0; i < names.length && !exist; i += CHECK_EXIST_BATCH) {
        const batch = names.slice(i, i + CHECK_EXIST_BATCH);
        exist = await this.withRetry(
          (signal) => checkExist(batch, currentDirectory, signal),
          new AbortController().signal,
        );
      }
      if (exist && !(await confirmOverwrite())) return;
    } catch (error) {
      this.reportBatchError(error);
      return;
    }

    const batchId = newId();
    const now = Date.now();
    const added: UploadItem[] = entries.map((entry, index) => ({
      id: newId(),
      batchId,
      name: entry.file.name,
      size: entry.file.size,
      lastModified: entry.file.lastModified,
      relativePath: entry.relativePath,
      currentDirectory,
      status: 'waiting',
      checkProgress: 0,
      uploaded: 0,
      speed: 0,
      needsFile: false,
      addedAt: now + index / 1000,
    }));
    added.forEach((item, index) => {
      this.order.push(item.id);
      this.items.set(item.id, item);
      this.files.set(item.id, entries[index]!.file);
    });
    this.persist(added.map((i) => i.id));

    const folders = foldersToCreate(
      entries.map((e) => e.relativePath),
      emptyFolders,
    );
    if (folders.length) this.pendingBatches.add(batchId);
    this.publish();
    if (useAppStore.getState().device === 'desktop') useUploadStore.getState().setPanelOpen(true);

    if (folders.length) {
      try {
        const signal = new AbortController().signal;
        for (const f of folders) {
          await this.withRetry((s) => createFolder({ ...f, currentDirectory }, s), signal);
        }
        this.scheduleRefresh();
        if (!entries.length) {
          void feedback().message.success({ content: t('upload:foldersCreated'), duration: 3 });
        }
      } catch (error) {
        if (error instanceof NoDataError) {
          this.closeOnNoData(error);
          return;
        }
        const message = messageOf(error);
        for (const item of added) {
          if (this.items.get(item.id)?.status === 'waiting') {
            this.patch(item.id, { status: 'failure', error: message });
          }
        }
        if (!entries.length) void feedback().message.error({ content: message, duration: 3 });
      } finally {
        this.pendingBatches.delete(batchId);
        this.publish();
      }
    }
    this.pump();
  }

  /** The file chosen again for one remembered upload (its row's "choose file" action). */
  reattach(id: string, file: File): boolean {
    const item = this.items.get(id);
    if (!item || !isSameFile(item, file)) return false;
    this.attach(id, file);
    this.publish();
    this.pump();
    return true;
  }

  private attach(id: string, file: File): void {
    this.files.set(id, file);
    this.patch(id, { needsFile: false, status: 'waiting', error: undefined });
  }

  /** The remembered queue of this user, shown paused until the files are chosen again. */
  async restore(username: string): Promise<void> {
    if (this.owner && this.owner !== username) this.reset();
    this.owner = username;
    const saved = await loadUploads(username);
    if (this.owner !== username) return;
    let count = 0;
    for (const row of saved) {
      if (this.items.has(row.id)) continue;
      this.order.push(row.id);
      this.items.set(row.id, {
        id: row.id,
        batchId: row.batchId,
        name: row.name,
        size: row.size,
        lastModified: row.lastModified,
        relativePath: row.relativePath,
        currentDirectory: row.currentDirectory,
        identifier: row.identifier,
        chunkSize: row.chunkSize,
        status: 'paused',
        checkProgress: row.identifier ? 1 : 0,
        uploaded: 0,
        speed: 0,
        needsFile: true,
        addedAt: row.addedAt,
      });
      count += 1;
    }
    if (!count) return;
    this.publish();
    if (useAppStore.getState().device === 'desktop') useUploadStore.getState().setPanelOpen(true);
    await this.probeRestored(saved.map((row) => row.id));
  }

  /**
   * Asks the server what it holds of each remembered upload, so the list shows real progress
   * before the files are chosen again, and uploads that finished just before the reload (the
   * answer was lost with the page) show as done.
   */
  private async probeRestored(ids: string[]): Promise<void> {
    for (const id of ids) {
      const item = this.items.get(id);
      if (!item?.needsFile || !item.identifier || !item.chunkSize) continue;
      const { identifier, chunkSize } = item;
      try {
        const first = chunkRange(1, item.size, chunkSize);
        const test = await testChunk({
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
        });
        const now = this.items.get(id);
        if (!now?.needsFile) continue;
        if (test.pass) {
          this.succeed(id, false);
          continue;
        }
        const have = new Set(test.resume);
        const uploaded = planChunks(item.size, chunkSize)
          .filter((c) => have.has(c.chunkNumber))
          .reduce((sum, c) => sum + c.end - c.start, 0);
        this.patch(id, { uploaded });
      } catch {
        // only a hint: the upload itself asks again
      }
    }
  }

  /** Sign-out or another user: stop everything, keep what is remembered for later. */
  reset(): void {
    for (const rt of this.running.values()) rt.controller.abort();
    this.running.clear();
    this.order = [];
    this.items.clear();
    this.files.clear();
    this.pendingBatches.clear();
    this.owner = '';
    this.publish();
    useUploadStore.getState().setPanelOpen(false);
  }

  // ---- actions --------------------------------------------------------------------------

  pause(id: string): void {
    const item = this.items.get(id);
    if (!item || !['waiting', 'checking', 'uploading'].includes(item.status)) return;
    this.running.get(id)?.controller.abort();
    const rt = this.running.get(id);
    this.patch(id, { status: 'paused', speed: 0, uploaded: rt?.confirmed ?? item.uploaded }, true);
  }

  resume(id: string): void {
    const item = this.items.get(id);
    if (!item || item.status !== 'paused' || !this.files.has(id)) return;
    this.patch(id, { status: 'waiting' }, true);
    this.pump();
  }

  retry(id: string): void {
    const item = this.items.get(id);
    if (!item || item.status !== 'failure' || !this.files.has(id)) return;
    this.patch(id, { status: 'waiting', error: undefined, offline: false, uploaded: 0 }, true);
    this.pump();
  }

  cancel(id: string): void {
    this.running.get(id)?.controller.abort();
    this.running.delete(id);
    this.order = this.order.filter((x) => x !== id);
    this.items.delete(id);
    this.files.delete(id);
    void forgetUploads([id]);
    this.publish();
    this.pump();
  }

  pauseAll(): void {
    for (const id of [...this.order]) this.pause(id);
  }

  resumeAll(): void {
    for (const id of this.order) {
      const item = this.items.get(id);
      if (item?.status === 'paused' && this.files.has(id)) this.patch(id, { status: 'waiting' });
    }
    this.publish();
    this.pump();
  }

  retryAll(): void {
    for (const id of this.order) {
      const item = this.items.get(id);
      if (item?.status === 'failure' && this.files.has(id)) {
        this.patch(id, { status: 'waiting', error: undefined, offline: false, uploaded: 0 });
      }
    }
    this.publish();
    this.pump();
  }

  /** The connection is back: uploads that failed for want of it go on by themselves. */
  retryConnectionFailures(): void {
    let any = false;
    for (const id of this.order) {
      const item = this.items.get(id);
      if (item?.status === 'failure' && item.offline && this.files.has(id)) {
        this.patch(id, { status: 'waiting', error: undefined, offline: false });
        any = true;
      }
    }
    if (!any) return;
    this.publish();
    this.pump();
  }

  /** Drops finished rows from the list. */
  clearFinished(): void {
    const done = this.order.filter((id) => this.items.get(id)?.status === 'success');
    for (const id of done) {
      this.items.delete(id);
      this.files.delete(id);
    }
    this.order = this.order.filter((id) => this.items.has(id));
    this.publish();
  }

  /** Closes the uploader: every upload stops and is forgotten, the list empties. */
  cancelAll(): void {
    const ids = [...this.order];
    for (const rt of this.running.values()) rt.controller.abort();
    this.running.clear();
    this.order = [];
    this.items.clear();
    this.files.clear();
    void forgetUploads(ids);
    this.publish();
    useUploadStore.getState().setPanelOpen(false);
  }

  // ---- the transfer ---------------------------------------------------------------------

  private pump(): void {
    let active = this.running.size;
    for (const id of this.order) {
      if (active >= SIMULTANEOUS_UPLOADS) break;
      const item = this.items.get(id);
      if (
        item?.status !== 'waiting' ||
        !this.files.has(id) ||
        this.running.has(id) ||
        this.pendingBatches.has(item.batchId)
      ) {
        continue;
      }
      active += 1;
      this.start(id);
    }
  }

  private start(id: string): void {
    const rt: Runtime = {
      controller: new AbortController(),
      meter: new SpeedMeter(),
      confirmed: 0,
      inflight: new Map(),
    };
    this.running.set(id, rt);
    this.ensureTicker();
    void this.run(id, rt).finally(() => {
      if (this.running.get(id) === rt) this.running.delete(id);
      this.pump();
    });
  }

  private async run(id: string, rt: Runtime): Promise<void> {
    const { signal } = rt.controller;
    try {
      const file = this.files.get(id);
      let item = this.items.get(id);
      if (!file || !item) return;

      if (!item.identifier) {
        this.patch(id, { status: 'checking', checkProgress: 0, uploaded: 0 }, true);
        const identifier = await computeIdentifier(
          file,
          (fraction) => this.patch(id, { checkProgress: fraction }),
          signal,
        );
        if (signal.aborted) return;
        this.patch(id, { identifier, checkProgress: 1 });
        item = this.items.get(id)!;
      }
      const chunkSize = item.chunkSize ?? storedChunkSize(browserStorage());
      if (item.chunkSize !== chunkSize || !item.identifier) this.patch(id, { chunkSize });
      this.persist([id]);
      item = this.items.get(id)!;

      const base: MergeParams = {
        chunkSize,
        totalSize: item.size,
        identifier: item.identifier!,
        filename: item.name,
        relativePath: item.relativePath,
        totalChunks: totalChunksFor(item.size, chunkSize),
        currentDirectory: item.currentDirectory,
        lastModified: item.lastModified,
      };
      const chunkParams = (chunkNumber: number): ChunkParams => {
        const range = chunkRange(chunkNumber, item.size, chunkSize);
        return { ...base, chunkNumber, currentChunkSize: range.end - range.start };
      };

      this.patch(id, { status: 'uploading', speed: 0 }, true);
      const test = await this.withRetry((s) => testChunk(chunkParams(1), s), signal);
      if (signal.aborted) return;
      if (test.pass) {
        this.succeed(id, true);
        return;
      }
      const have = new Set(test.resume);
      const plan = planChunks(item.size, chunkSize);
      rt.confirmed = plan
        .filter((c) => have.has(c.chunkNumber))
        .reduce((sum, c) => sum + c.end - c.start, 0);
      rt.meter.record(rt.confirmed, Date.now());
      this.patch(id, { uploaded: rt.confirmed }, true);

      if (!test.merge) {
        const missing = plan.filter((c) => !have.has(c.chunkNumber));
        await this.sendChunks(id, rt, file, missing, chunkParams);
        if (signal.aborted) return;
      }

      this.patch(
        id,
        { status: 'merging', uploaded: item.size, speed: 0, mergeProgress: undefined },
        true,
      );
      // a large file is merged by a background task on the server: each request waits a while
      // for it and answers "still merging" with progress; ask again until the file is there
      for (;;) {
        const merged = await this.withRetry(
          (s) => mergeUpload(base, s, REQUEST_TIMEOUT_MS + MERGE_WAIT_ALLOWANCE_MS),
          signal,
        );
        if (signal.aborted) return;
        if (!merged.merging) break;
        this.patch(id, { mergeProgress: merged.progress });
        await sleep(MERGE_POLL_MS, signal);
      }
      this.succeed(id, false);
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      if (error instanceof NoDataError) {
        this.closeOnNoData(error);
        return;
      }
      if (error instanceof ApiError && error.code === ErrorCode.NOT_LOGGED_IN) {
        // the client's own call shows the "log in again" prompt of spec §8
        void request('/user/info').catch(() => undefined);
      }
      // a failed merge means the bytes or the checksum were wrong: a retry starts afresh
      const restart = error instanceof ApiError && error.code === ErrorCode.MERGE_FAILED;
      this.patch(
        id,
        {
          status: 'failure',
          error: messageOf(error),
          offline: isConnectionError(error),
          speed: 0,
          uploaded: restart ? 0 : rt.confirmed,
          ...(restart ? { identifier: undefined, checkProgress: 0 } : {}),
        },
        true,
      );
      if (restart) this.persist([id]);
    }
  }

  private async sendChunks(
    id: string,
    rt: Runtime,
    file: File,
    chunks: { chunkNumber: number; start: number; end: number }[],
    chunkParams: (n: number) => ChunkParams,
  ): Promise<void> {
    const local = new AbortController();
    const onAbort = () => local.abort();
    rt.controller.signal.addEventListener('abort', onAbort, { once: true });
    const report = () => {
      let inflight = 0;
      for (const bytes of rt.inflight.values()) inflight += bytes;
      const uploaded = rt.confirmed + inflight;
      rt.meter.record(uploaded, Date.now());
      this.patch(id, { uploaded });
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
    chunk: { chunkNumber: number; start: number; end: number },
    params: ChunkParams,
    signal: AbortSignal,
    report: () => void,
  ): Promise<void> {
    const bytes = file.slice(chunk.start, chunk.end);
    for (let attempt = 0; ; attempt++) {
      await this.slots.acquire(signal);
      let failure: unknown = null;
      try {
        const result = await sendChunk(params, bytes, {
          signal,
          onProgress: (sent) => {
            rt.inflight.set(chunk.chunkNumber, sent);
            report();
          },
        });
        if (!result.upload) {
          throw new ApiError('business', t('upload:errors.rejected'), ErrorCode.UPLOAD_FAILED, 200);
        }
        rt.inflight.delete(chunk.chunkNumber);
        rt.confirmed += chunk.end - chunk.start;
        report();
        return;
      } catch (error) {
        rt.inflight.delete(chunk.chunkNumber);
        report();
        failure = error;
      } finally {
        this.slots.release();
      }
      if (signal.aborted) throw abortError();
      if (!isRetryable(failure) || attempt >= MAX_CHUNK_RETRIES) throw failure;
      await sleep(backoffMs(attempt + 1), signal);
    }
  }

  /** A protocol call retried like a chunk: 3 times, with backoff, on errors that may pass. */
  private async withRetry<T>(
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

  private succeed(id: string, instant: boolean): void {
    const item = this.items.get(id);
    if (!item) return;
    this.patch(
      id,
      { status: 'success', uploaded: item.size, speed: 0, instant, error: undefined },
      true,
    );
    this.files.delete(id);
    void forgetUploads([id]);
    this.scheduleRefresh();
  }

  /** The current folder's listing and the quota follow new files, once per burst. */
  private scheduleRefresh(): void {
    if (this.refreshTimer !== null) return;
    this.refreshTimer = window.setTimeout(() => {
      this.refreshTimer = null;
      void queryClient.invalidateQueries({ queryKey: ['files'] });
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    }, REFRESH_DELAY_MS);
  }

  /** spec §8: a response with no data shows its message and closes the uploader. */
  private closeOnNoData(error: NoDataError): void {
    void feedback().message.error({ content: error.message, duration: 3 });
    this.cancelAll();
  }

  private reportBatchError(error: unknown): void {
    if (error instanceof NoDataError) {
      this.closeOnNoData(error);
      return;
    }
    void feedback().message.error({ content: messageOf(error), duration: 3 });
  }
}

export const uploader = new Uploader();

// signing out stops every transfer; what is remembered stays for the next sign-in
useSessionStore.subscribe((state, previous) => {
  if (previous.token && !state.token) uploader.reset();
});
