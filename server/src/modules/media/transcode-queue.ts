import {
  type HlsStatus,
  type TranscodeConfig,
  type TranscodeConfigView,
  type TranscodeStatusView,
  type VideoProbe,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { Job, JobContext, JobQueue } from '../../jobs/queue.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { Gate } from '../../lib/gate.ts';
import { LocalLocks, type KeyedMutex, type Locks } from '../../lib/locks.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FilesService, Owner } from '../files/files.service.ts';
import type { MediaExaminer, StoredMedia } from './media-examiner.ts';
import { MediaRepo, type TranscodeFailureRow } from './media.repo.ts';
import { hasFfmpeg, probe, thumbnailTrack, transcodeHls } from './programs/ffmpeg.ts';
import { type TranscodeSettings, targetFingerprint } from './transcode-settings.ts';
import type { FilesRepo } from '../files/files.repo.ts';

export const JOB_TRANSCODE = 'transcode';

/**
 * The key a file's transcode is queued with: one under way per file, on every node. Migration 018
 * gave the transcodes queued before it the same keys.
 */
export const transcodeKey = (fileId: string) => `file:${fileId}`;

export interface TranscodePayload {
  fileId: string;
  /** The content the transcode is for (jobs queued by earlier versions have none). */
  hash?: string;
}

/** A transcode queued or running: a job of the queue, with this node's progress of it. */
interface QueuedTranscode {
  taskId: string;
  userId: string;
  fileId: string;
  name: string;
  path: string;
  state: 'queued' | 'running';
  progress: number;
}

/** A transcode job running on this node, fresher than its row. */
interface LiveTranscode {
  /** `queued` while it waits for one of the setting's slots. */
  state: 'queued' | 'running';
  progress: number;
  /** The content it works on, once read: a failure is recorded against it. */
  hash?: string;
}

/** What is kept of a failure's message. */
const MAX_FAILURE_MESSAGE = 500;

/** Transcode when the source is not playable or exceeds one of the conditions. */
export function needsTranscode(v: VideoProbe, c: TranscodeConfig): boolean {
  if (v.width === 0 || v.height === 0) return false;
  return (
    !v.playable ||
    v.bitrate > c.bitrateCond ||
    v.height > c.heightCond ||
    v.frameRate > c.frameRateCond
  );
}

/**
 * The transcode queue: HLS renditions made by background jobs under the Video Transcoding
 * settings, at most the setting's number at once; the state of a file's rendition; the
 * administrator's settings, list and cancel of the transcodes under way.
 */
export class TranscodeQueue {
  private readonly repo: MediaRepo;
  /** The transcode jobs running here, by job id (the queue's rows hold the rest). */
  private readonly live = new Map<string, LiveTranscode>();
  /**
   * One decision per file at a time: two views at once queue one transcode, on one node or on
   * several (through Redis when configured).
   */
  private readonly starting: KeyedMutex;
  /**
   * At most the setting's number of transcodes at once, however many jobs run. It bounds the
   * ffmpeg processes of this node (its CPU), so it stays local: each node runs that many.
   */
  private readonly gate: Gate;

  constructor(
    db: Db,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly jobs: JobQueue,
    readonly settings: TranscodeSettings,
    private readonly examiner: MediaExaminer,
    private readonly usernameOf: (userId: string) => Promise<string | undefined>,
    locks: Locks = new LocalLocks(),
  ) {
    this.repo = new MediaRepo(db);
    this.starting = locks.mutex('transcode-start');
    this.gate = new Gate(async () => (await this.settings.get()).maxThreads);
  }

  private get blobs() {
    return this.files.blobs;
  }

  /** Where the rendition of a video stands: made, under way, failed, or none. */
  async hlsStatus(row: FileRow, media: StoredMedia | null): Promise<HlsStatus> {
    const active = await this.transcodeOf(row.id);
    if (await this.examiner.rendition(row, media))
      return { state: 'done', progress: 100, taskId: active?.taskId ?? null };
    if (active) return { state: active.state, progress: active.progress, taskId: active.taskId };
    const failure = await this.failureOf(row);
    if (failure?.reason === 'failed') return { state: 'failed', progress: 0, taskId: null };
    return { state: 'none', progress: 0, taskId: null };
  }

  /**
   * Queued and running transcodes, oldest first (a page of them when asked): the queue's jobs,
   * with this node's progress.
   */
  private async queuedTranscodes(page?: {
    offset: number;
    limit: number;
  }): Promise<QueuedTranscode[]> {
    const transcodes: QueuedTranscode[] = [];
    for (const job of await this.jobs.activeOfType(JOB_TRANSCODE, page)) {
      const transcode = this.queuedTranscode(job);
      if (transcode) transcodes.push(transcode);
    }
    return transcodes;
  }

  private queuedTranscode(job: Job): QueuedTranscode | undefined {
    const payload = job.payload as Partial<TranscodePayload> | null;
    if (!job.userId || typeof payload?.fileId !== 'string') return undefined;
    const live = this.live.get(job.id);
    // a queued job (one a restart gave back too) starts again from nothing
    const state = live?.state ?? (job.state === 'running' ? 'running' : 'queued');
    const progress = live?.progress ?? (state === 'running' ? job.progress : 0);
    return {
      taskId: job.id,
      userId: job.userId,
      fileId: payload.fileId,
      name: job.name,
      path: job.path,
      state,
      progress,
    };
  }

  /** The file's transcode under way, found by the key it was queued with. */
  private async transcodeOf(fileId: string): Promise<QueuedTranscode | undefined> {
    const job = await this.jobs.activeByKey(JOB_TRANSCODE, transcodeKey(fileId));
    return job && this.queuedTranscode(job);
  }

  /** What is recorded of a failed or cancelled transcode of the file's current content. */
  private async failureOf(row: FileRow): Promise<TranscodeFailureRow | undefined> {
    if (!row.hash) return undefined;
    const failure = await this.repo.failureOf(row.id);
    return failure?.hash === row.hash ? failure : undefined;
  }

  /** Records why a transcode of this content ended without a rendition. */
  private async recordFailure(
    fileId: string,
    hash: string,
    reason: TranscodeFailureRow['reason'],
    message: string | null,
  ): Promise<void> {
    try {
      await this.repo.recordFailure({
        fileId,
        hash,
        reason,
        message: message?.slice(0, MAX_FAILURE_MESSAGE) ?? null,
        at: Date.now(),
      });
    } catch {
      // the file was purged meanwhile (its row is gone), or the record is lost: at worst the
      // next view tries the transcode once more
    }
  }

  /** Start the file's transcode when the settings call for one and none is there or under way. */
  async transcodeIfDue(owner: Owner, row: FileRow, media: StoredMedia): Promise<void> {
    const config = await this.settings.get();
    if (!config.enable || !media.video || !needsTranscode(media.video, config)) return;
    await this.starting.run(row.id, async () => {
      if (await this.transcodeOf(row.id)) return;
      // failed or cancelled for this content: not again until it or the settings change
      if (await this.failureOf(row)) return;
      if (await this.examiner.rendition(row, media)) {
        const stale = media.hls?.fingerprint !== targetFingerprint(config);
        if (!stale || !config.isReTranscode) return;
      }
      // keyed by the file: another node deciding the same at the same time finds this job
      await this.jobs.enqueue<TranscodePayload>(
        JOB_TRANSCODE,
        { fileId: row.id, hash: row.hash ?? undefined },
        { userId: owner.id, name: row.name, path: row.path, key: transcodeKey(row.id) },
      );
      this.announce(owner.id, row.id, 'queued', 0);
    });
  }

  private announce(userId: string, fileId: string, state: HlsStatus['state'], progress: number) {
    this.files.notify(userId, 'transcodeStatus', { fileId, state, progress });
  }

  /** The transcode job: one rendition of the file's current bytes under the current settings. */
  async runJob(ctx: JobContext<TranscodePayload>): Promise<void> {
    const userId = ctx.userId;
    if (!userId) return;
    const { fileId } = ctx.payload;
    const live: LiveTranscode = { state: 'queued', progress: 0 };
    this.live.set(ctx.jobId, live);
    try {
      await this.gate.run('transcode', () => this.transcode(ctx, userId, fileId, live));
      await this.repo.clearFailure(fileId);
    } catch (err) {
      // a cancel is recorded by `cancel`, a failure for good by `transcodeFailed`; a stop gives
      // the job back to run after the next start
      this.announce(userId, fileId, ctx.signal.aborted ? 'none' : 'failed', 0);
      throw err;
    } finally {
      this.live.delete(ctx.jobId);
    }
  }

  /**
   * The queue gave up on a transcode: its last attempt failed, or it was cut short (the server
   * killed while ffmpeg ran) as often as its attempts allow. Views start no other for the same
   * content, or a video that brings the server down would be tried again on every look.
   */
  async failed(job: Job, message: string): Promise<void> {
    const payload = job.payload as Partial<TranscodePayload> | null;
    if (!job.userId || typeof payload?.fileId !== 'string') return;
    const hash =
      typeof payload.hash === 'string'
        ? payload.hash
        : (await this.fileRows.live(job.userId, payload.fileId))?.hash;
    if (hash) await this.recordFailure(payload.fileId, hash, 'failed', message);
    this.announce(job.userId, payload.fileId, 'failed', 0);
  }

  private async transcode(
    ctx: JobContext<TranscodePayload>,
    userId: string,
    fileId: string,
    live: LiveTranscode,
  ) {
    ctx.signal.throwIfAborted();
    const row = await this.fileRows.live(userId, fileId);
    const username = await this.usernameOf(userId);
    if (!row?.hash || !username) return;
    live.hash = row.hash;
    const owner = { id: userId, username };
    const media = await this.examiner.examine(owner, row, ctx.signal);
    if (!media?.video) return;
    const config = await this.settings.get();
    const fingerprint = targetFingerprint(config);
    const key = `${row.id}-${row.hash.slice(0, 16)}-${fingerprint}`;
    live.state = 'running';
    this.announce(userId, fileId, 'running', 0);
    const folder = this.blobs.cached('hls', key);
    if (!(await this.blobs.exists(this.blobs.child(folder, `${row.id}.m3u8`)))) {
      const local = await this.blobs.local(this.files.placeOf(owner, row));
      const scratch = await this.blobs.scratch();
      try {
        const source = await probe(local.path, ctx.signal);
        const duration = source.duration || media.video.duration || 1;
        let last = -1;
        await transcodeHls(
          local.path,
          scratch.path,
          row.id,
          source,
          {
            bitrate: config.bitrate,
            height: config.height,
            frameRate: config.frameRate,
            threads: 0,
          },
          ctx.signal,
          (seconds) => {
            const percent = Math.min(99, Math.floor((seconds / duration) * 100));
            if (percent === last) return;
            last = percent;
            live.progress = percent;
            ctx.progress(percent);
            this.announce(userId, fileId, 'running', percent);
          },
        );
        try {
          await thumbnailTrack(
            local.path,
            scratch.path,
            row.id,
            source,
            config.vttThumbnailCount,
            ctx.signal,
          );
        } catch {
          // the video plays without scrubbing previews
          ctx.signal.throwIfAborted();
        }
        await this.blobs.remove(folder);
        await this.blobs.move(scratch.place, folder);
      } finally {
        await scratch.release();
        await local.release();
      }
    }
    // the previous rendition (other settings, or older bytes' key) goes
    const previous = media.hls?.key;
    await this.examiner.keep(row, { ...media, hls: { key, fingerprint } });
    if (previous && previous !== key) await this.blobs.remove(this.blobs.cached('hls', previous));
    live.progress = 100;
    ctx.progress(100);
    this.announce(userId, fileId, 'done', 100);
  }

  // ---- settings and the administrator's view ----------------------------------------------

  private async configView(): Promise<TranscodeConfigView> {
    return { ...(await this.settings.get()), ffmpeg: hasFfmpeg() };
  }

  async config(actor: Actor): Promise<TranscodeConfigView> {
    requireAuthority(actor, 'cloud:set:sync');
    return this.configView();
  }

  async setConfig(actor: Actor, input: Partial<TranscodeConfig>): Promise<TranscodeConfigView> {
    requireAuthority(actor, 'cloud:set:sync');
    await this.settings.set(input);
    // failures and cancellations are worth another try under new settings
    await this.repo.clearFailures();
    return this.configView();
  }

  async status(
    actor: Actor,
    page: { pageIndex: number; pageSize: number } = { pageIndex: 1, pageSize: 100 },
  ): Promise<TranscodeStatusView> {
    requireAuthority(actor, 'cloud:set:sync');
    const config = await this.settings.get();
    const names = new Map<string, string>();
    const tasks: TranscodeStatusView['tasks'] = [];
    const count = await this.jobs.countActive(JOB_TRANSCODE);
    const offset = (page.pageIndex - 1) * page.pageSize;
    for (const t of await this.queuedTranscodes({ offset, limit: page.pageSize })) {
      let username = names.get(t.userId);
      if (username === undefined) {
        username = (await this.usernameOf(t.userId)) ?? '';
        names.set(t.userId, username);
      }
      tasks.push({
        taskId: t.taskId,
        fileId: t.fileId,
        name: t.name,
        path: t.path,
        username,
        state: t.state,
        progress: t.progress,
      });
    }
    return { enable: config.enable, tasks, count };
  }

  /** Stops the chosen transcodes (all when none are named); how many were stopped. */
  async cancel(
    actor: Actor,
    chosen: { taskIds?: string[]; fileIds?: string[] } | undefined,
  ): Promise<number> {
    requireAuthority(actor, 'cloud:set:sync');
    const taskIds = new Set(chosen?.taskIds ?? []);
    const fileIds = new Set(chosen?.fileIds ?? []);
    const all = taskIds.size === 0 && fileIds.size === 0;
    let cancelled = 0;
    for (const t of await this.queuedTranscodes()) {
      if (!all && !taskIds.has(t.taskId) && !fileIds.has(t.fileId)) continue;
      // under the lock a start takes: a view or a new file's info job deciding between the
      // cancel and its record would otherwise queue the transcode again at once
      const stopped = await this.starting.run(t.fileId, async () => {
        if (!(await this.jobs.cancel(t.taskId))) return false;
        // not started again by a view until the file's content or the settings change
        const row = await this.fileRows.live(t.userId, t.fileId);
        if (row?.hash) await this.recordFailure(t.fileId, row.hash, 'cancelled', null);
        return true;
      });
      if (!stopped) continue;
      cancelled += 1;
      this.announce(t.userId, t.fileId, 'none', 0);
    }
    return cancelled;
  }
}
