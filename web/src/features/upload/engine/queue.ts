import { ErrorCode, SIMULTANEOUS_UPLOADS } from '@nimbus/contract';
import { ApiError } from '../../../api/client';
import { browserStorage } from '../../../stores/storage';
import { storedChunkSize } from '../chunk-plan';
import { NoDataError } from '../api';
import { cleanRelativePath, foldersToCreate, isSameFile, topLevelNames } from '../paths';
import { isAbort, isConnectionError } from '../retry';
import type { PickedFile, SavedUpload, UploadItem } from '../types';
import { newRuntime, type Runtime, type Transfer } from './transfer';

const PUBLISH_EVERY_MS = 200;
const REFRESH_DELAY_MS = 400;

/** What the queue shows and asks the person through: the UI adapter (adapter.ts). */
export interface QueueView {
  /** The list changed. */
  publish(items: UploadItem[]): void;
  /** Files were added or remembered uploads restored: show the list. */
  show(): void;
  /** Every upload was closed or reset: hide the list. */
  hide(): void;
  error(message: string): void;
  success(message: string): void;
  /** Text for a failure, as the list shows it. */
  messageOf(error: unknown): string;
  /** The text that says a folder upload created its (empty) folders. */
  foldersCreated(): string;
  /** New files arrived: the listings and the quota follow (called once per burst). */
  refresh(): void;
}

/** The remembered queue of the signed-in user (queue-db.ts), for a resume after a reload. */
export interface QueueMemory {
  /** Whose queue this is now; '' when nobody is signed in. */
  username(): string;
  save(rows: SavedUpload[]): void;
  forget(ids: string[]): void;
  load(username: string): Promise<SavedUpload[]>;
}

export interface QueueOptions {
  transfer: Transfer;
  view: QueueView;
  /**
   * A batch's top-level names, before anything is queued: whether to go on (spec §5, same
   * names → "overwrite?"). A thrown error is reported and the batch dropped.
   */
  admit(names: string[], currentDirectory: string): Promise<boolean>;
  /**
   * Whether `bytes` more fit beside the `queued` bytes of the uploads not yet finished: null
   * when they do, else the text that says why not. Asked before anything is hashed or sent; a
   * thrown error lets the batch go on (the server checks again, for good).
   */
  room?(bytes: number, queued: number): Promise<string | null>;
  /** Where a batch without a folder of its own goes; null when there is none (reported). */
  target?(): Promise<string | null>;
  memory?: QueueMemory;
  /** A call was refused for want of a sign-in. */
  onNotLoggedIn?(): void;
}

function newId(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
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

const UNSETTLED = new Set<UploadItem['status']>(['waiting', 'checking', 'uploading', 'merging']);

/**
 * The upload queue: the items and their states, 3 files at once (spec §9), pause, resume,
 * retry and cancel, and the remembered queue after a reload. It moves the bytes through its
 * Transfer and shows itself through its view; it knows neither the routes nor React.
 */
export class UploadQueue {
  private order: string[] = [];
  private items = new Map<string, UploadItem>();
  private files = new Map<string, File>();
  private running = new Map<string, Runtime>();
  /** Batches whose folders are still being created: their files wait. */
  private pendingBatches = new Set<string>();
  private owner = '';
  private publishTimer: number | null = null;
  private refreshTimer: number | null = null;
  private ticker: number | null = null;
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: QueueOptions) {}

  private get view(): QueueView {
    return this.options.view;
  }

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

  /** Resolves once nothing is waiting, running or creating its folders. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private isIdle(): boolean {
    if (this.running.size || this.pendingBatches.size) return false;
    return !this.list().some((item) => UNSETTLED.has(item.status) && this.files.has(item.id));
  }

  private settle(): void {
    if (!this.idleWaiters.length || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
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
    this.view.publish(this.list());
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
    const memory = this.options.memory;
    if (!memory) return;
    const username = this.owner || memory.username();
    if (!username) return;
    const rows = ids
      .map((id) => this.items.get(id))
      .filter((i): i is UploadItem => !!i && i.status !== 'success')
      .map((i) => toSaved(i, username));
    memory.save(rows);
  }

  private forget(ids: string[]): void {
    this.options.memory?.forget(ids);
  }

  // ---- adding ---------------------------------------------------------------------------

  /**
   * A batch picked or dropped: files matching a remembered upload (same name, size and date)
   * resume it; the rest is checked for same names, confirmed, and queued. Resolves the new
   * batch's id, or null when nothing new was queued.
   */
  async add(
    picked: PickedFile[],
    emptyFolders: string[] = [],
    target?: string,
  ): Promise<string | null> {
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
    if (!fresh.length && !emptyFolders.length) return null;

    let currentDirectory = target;
    if (currentDirectory === undefined && this.options.target) {
      const found = await this.options.target();
      if (found === null) return null;
      currentDirectory = found;
    }
    currentDirectory ||= '/';
    const entries = fresh.map((p) => ({
      file: p.file,
      relativePath: cleanRelativePath(p.relativePath, p.file.name),
    }));
    const names = topLevelNames([...entries.map((e) => e.relativePath), ...emptyFolders]);

    const refusal = await this.roomFor(entries.reduce((sum, e) => sum + e.file.size, 0));
    if (refusal) {
      this.view.error(refusal);
      return null;
    }

    try {
      if (!(await this.options.admit(names, currentDirectory))) return null;
    } catch (error) {
      this.reportBatchError(error);
      return null;
    }

    const batchId = newId();
    const now = Date.now();
    // the files picked together keep the chunk size of that moment, even if the server asks
    // for another one while the first of them are on the wire
    const chunkSize = storedChunkSize(browserStorage());
    const added: UploadItem[] = entries.map((entry, index) => ({
      id: newId(),
      batchId,
      name: entry.file.name,
      size: entry.file.size,
      lastModified: entry.file.lastModified,
      relativePath: entry.relativePath,
      currentDirectory,
      chunkSize,
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
    this.view.show();

    if (folders.length) {
      try {
        const signal = new AbortController().signal;
        for (const f of folders) {
          await this.options.transfer.createFolder(f, currentDirectory, signal);
        }
        this.scheduleRefresh();
        if (!entries.length) this.view.success(this.view.foldersCreated());
      } catch (error) {
        if (error instanceof NoDataError) {
          this.closeOnNoData(error);
          return batchId;
        }
        const message = this.view.messageOf(error);
        for (const item of added) {
          if (this.items.get(item.id)?.status === 'waiting') {
            this.patch(item.id, { status: 'failure', error: message });
          }
        }
        if (!entries.length) this.view.error(message);
      } finally {
        this.pendingBatches.delete(batchId);
        this.publish();
      }
    }
    this.pump();
    this.settle();
    return batchId;
  }

  /** Why a batch of `bytes` does not fit in the drive, or null when it does (or nobody knows). */
  private async roomFor(bytes: number): Promise<string | null> {
    if (!this.options.room || bytes <= 0) return null;
    let queued = 0;
    for (const item of this.items.values()) {
      if (item.status !== 'success' && item.status !== 'failure') queued += item.size;
    }
    try {
      return await this.options.room(bytes, queued);
    } catch {
      return null;
    }
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
    const memory = this.options.memory;
    if (!memory) return;
    if (this.owner && this.owner !== username) this.reset();
    this.owner = username;
    const saved = await memory.load(username);
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
    this.view.show();
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
      try {
        const held = await this.options.transfer.probe(item);
        if (!this.items.get(id)?.needsFile) continue;
        if (held.done) this.succeed(id, false);
        else this.patch(id, { uploaded: held.uploaded });
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
    this.view.hide();
    this.settle();
  }

  // ---- actions --------------------------------------------------------------------------

  pause(id: string): void {
    const item = this.items.get(id);
    if (!item || !['waiting', 'checking', 'uploading'].includes(item.status)) return;
    const rt = this.running.get(id);
    rt?.controller.abort();
    // the progress reached stays: the bytes cut short are sent again without taking it back
    this.patch(
      id,
      { status: 'paused', speed: 0, uploaded: rt?.tally.shown ?? item.uploaded },
      true,
    );
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
    this.patch(id, { status: 'waiting', error: undefined, offline: false }, true);
    this.pump();
  }

  cancel(id: string): void {
    this.running.get(id)?.controller.abort();
    this.running.delete(id);
    this.order = this.order.filter((x) => x !== id);
    this.items.delete(id);
    this.files.delete(id);
    this.forget([id]);
    this.publish();
    this.pump();
    this.settle();
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
        this.patch(id, { status: 'waiting', error: undefined, offline: false });
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
    this.forget(ids);
    this.publish();
    this.view.hide();
    this.settle();
  }

  // ---- running --------------------------------------------------------------------------

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
    const rt = newRuntime(this.items.get(id)?.uploaded ?? 0);
    this.running.set(id, rt);
    this.ensureTicker();
    void this.run(id, rt).finally(() => {
      if (this.running.get(id) === rt) this.running.delete(id);
      this.pump();
      this.settle();
    });
  }

  private async run(id: string, rt: Runtime): Promise<void> {
    const { signal } = rt.controller;
    try {
      const file = this.files.get(id);
      if (!file || !this.items.has(id)) return;
      const outcome = await this.options.transfer.run(file, rt, {
        item: () => this.items.get(id),
        patch: (changes, now) => this.patch(id, changes, now),
        remember: () => this.persist([id]),
      });
      if (outcome !== 'aborted') this.succeed(id, outcome === 'instant');
    } catch (error) {
      if (isAbort(error) || signal.aborted) return;
      if (error instanceof NoDataError) {
        this.closeOnNoData(error);
        return;
      }
      if (error instanceof ApiError && error.code === ErrorCode.NOT_LOGGED_IN) {
        this.options.onNotLoggedIn?.();
      }
      // a failed merge means the bytes or the checksum were wrong: a retry starts afresh
      const restart = error instanceof ApiError && error.code === ErrorCode.MERGE_FAILED;
      this.patch(
        id,
        {
          status: 'failure',
          error: this.view.messageOf(error),
          offline: isConnectionError(error),
          speed: 0,
          uploaded: restart ? 0 : rt.tally.shown,
          ...(restart ? { identifier: undefined, checkProgress: 0 } : {}),
        },
        true,
      );
      if (restart) this.persist([id]);
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
    this.forget([id]);
    this.scheduleRefresh();
  }

  /** The listings and the quota follow new files, once per burst. */
  private scheduleRefresh(): void {
    if (this.refreshTimer !== null) return;
    this.refreshTimer = window.setTimeout(() => {
      this.refreshTimer = null;
      this.view.refresh();
    }, REFRESH_DELAY_MS);
  }

  /** spec §8: a response with no data shows its message and closes the uploader. */
  private closeOnNoData(error: NoDataError): void {
    this.view.error(error.message);
    this.cancelAll();
  }

  private reportBatchError(error: unknown): void {
    if (error instanceof NoDataError) {
      this.closeOnNoData(error);
      return;
    }
    this.view.error(this.view.messageOf(error));
  }
}
