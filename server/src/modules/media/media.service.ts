import path from 'node:path';
import { parseStream } from 'music-metadata';
import {
  ErrorCode,
  type HlsStatus,
  type MediaInfo,
  type MusicTags,
  type TranscodeConfig,
  type TranscodeConfigView,
  type TranscodeStatusView,
  type VideoProbe,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { Job, JobContext, JobQueue } from '../../jobs/queue.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { Gate } from '../../lib/gate.ts';
import type { Place } from '../../storage/blob-store.ts';
import { fileIdAtStart, markUsed, type CacheKeeper } from '../cache/cache-keeper.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FileChange, FilesService } from '../files/files.service.ts';
import type { Owner } from '../files/files.service.ts';
import type { ShareAccess, ShareCredentials } from '../share/share-access.ts';
import { FACTS_KEY, factsOf } from './media-facts.ts';
import { MediaRepo, type TranscodeFailureRow } from './media.repo.ts';
import {
  coverFrame,
  hasFfmpeg,
  probe,
  thumbnailTrack,
  transcodeHls,
  type Probe,
} from './programs/ffmpeg.ts';
import { type TranscodeSettings, targetFingerprint } from './transcode-settings.ts';

export const JOB_MEDIA_INFO = 'mediaInfo';
export const JOB_TRANSCODE = 'transcode';

export interface MediaInfoPayload {
  userId: string;
  fileId: string;
}
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

/** What the `media` column of a file keeps under `av`: read for the bytes of `hash`. */
interface StoredMedia {
  hash: string;
  music?: MusicTags;
  video?: VideoProbe;
  /** The cover's cache key (an audio file's picture, a video's frame). */
  cover?: string;
  /** The finished HLS rendition: its cache key and the settings it was made under. */
  hls?: { key: string; fingerprint: string };
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

/** Cover pictures served as what they are: images that run nothing. */
const COVER_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
export const COVER_CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};
const MAX_COVER_BYTES = 8 * 1024 * 1024;

/** What is kept of a failure's message. */
const MAX_FAILURE_MESSAGE = 500;

const PLAYABLE_VIDEO = new Set(['h264', 'vp8', 'vp9', 'av1']);
const PLAYABLE_AUDIO = new Set(['', 'aac', 'mp3', 'opus', 'vorbis', 'flac']);

/** A browser plays it as it is: its codecs and an MP4, WebM or Matroska container. */
export function isPlayable(p: Probe): boolean {
  return (
    PLAYABLE_VIDEO.has(p.videoCodec) &&
    PLAYABLE_AUDIO.has(p.audioCodec) &&
    /mp4|webm|matroska/.test(p.container)
  );
}

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

/** What the `media` column records of a file's current bytes, or null (none, or of older bytes). */
function storedOf(row: Pick<FileRow, 'hash' | 'media'>): StoredMedia | null {
  if (!row.hash) return null;
  const media = factsOf(row.media)[FACTS_KEY] as StoredMedia | undefined;
  return media?.hash === row.hash ? media : null;
}

/** Covers and renditions are current while the file's facts of its current bytes name them. */
export const mediaCacheKeepers: CacheKeeper[] = [
  {
    kind: 'cover',
    fileOf: (key) => fileIdAtStart(key),
    isCurrent: (key, row) => storedOf(row)?.cover === key,
  },
  {
    kind: 'hls',
    fileOf: (key) => fileIdAtStart(key),
    isCurrent: (key, row) => storedOf(row)?.hls?.key === key,
  },
];

const hlsNotFound = () =>
  new AppError(ErrorCode.FILE_NOT_FOUND, 'This video has no stream', undefined, 404);

/**
 * Audio and video: music tags and the probe of a video with its cover frame, read when a file
 * arrives (a system job) or when first asked for; HLS renditions made by background transcodes
 * under the Video Transcoding settings; the bytes of covers and renditions for owners, mounters
 * and share visitors.
 */
export class MediaService {
  private readonly repo: MediaRepo;
  /** The transcode jobs running here, by job id (the queue's rows hold the rest). */
  private readonly live = new Map<string, LiveTranscode>();
  /** One decision per file at a time: two views at once queue one transcode. */
  private readonly starting = new Gate();
  /** At most the setting's number of transcodes at once, however many jobs run. */
  private readonly gate: Gate;

  constructor(
    db: Db,
    private readonly files: FilesService,
    private readonly jobs: JobQueue,
    readonly settings: TranscodeSettings,
    private readonly shareAccess: ShareAccess,
    private readonly usernameOf: (userId: string) => Promise<string | undefined>,
  ) {
    this.repo = new MediaRepo(db);
    this.gate = new Gate(async () => (await this.settings.get()).maxThreads);
    files.onChange((change, trx) => this.follow(change, trx));
  }

  private get blobs() {
    return this.files.blobs;
  }

  /** New and rewritten audio and video files get their info read in the background. */
  private async follow(change: FileChange, trx: Db): Promise<void> {
    if (change.kind !== 'created' && change.kind !== 'updated') return;
    for (const row of change.rows) {
      if (Number(row.isFolder) === 1 || !row.hash) continue;
      if (row.fileType !== 'audio' && row.fileType !== 'video') continue;
      await this.jobs.enqueue<MediaInfoPayload>(
        JOB_MEDIA_INFO,
        { userId: change.userId, fileId: row.id },
        { userId: null, name: row.name, trx },
      );
    }
  }

  // ---- reading a file's info ------------------------------------------------------------------

  private stored(row: FileRow): StoredMedia | null {
    return storedOf(row);
  }

  /** Record the facts under this module's key, keeping the other modules' keys. */
  private async keep(row: FileRow, media: StoredMedia): Promise<void> {
    const stored = await this.files.setMediaKeys(row.userId, row.id, { [FACTS_KEY]: media });
    if (stored !== undefined) row.media = stored;
  }

  private coverKey(row: FileRow, ext: string): string {
    return `${row.id}-${(row.hash ?? 'none').slice(0, 16)}.${ext}`;
  }

  /**
   * The info of a file's current bytes: stored, or read now and stored (`again`: read now,
   * whatever is stored, when the cache has let its cover go).
   */
  async examine(
    owner: Owner,
    row: FileRow,
    signal: AbortSignal,
    again = false,
  ): Promise<StoredMedia | null> {
    if (!row.hash || row.isFolder === 1) return null;
    const have = this.stored(row);
    if (have && !again) return have;
    let media: StoredMedia | null = null;
    if (row.fileType === 'audio') media = await this.readMusic(owner, row);
    else if (row.fileType === 'video' && hasFfmpeg())
      media = await this.readVideo(owner, row, signal);
    // read again for a lost cover: the rendition made of these bytes stays theirs
    if (media && have?.hls) media.hls = have.hls;
    const earlier = factsOf(row.media)[FACTS_KEY] as StoredMedia | undefined;
    if (media) await this.keep(row, media);
    // what was made of the file's earlier bytes goes with them
    if (earlier && earlier.hash !== row.hash) {
      if (earlier.cover && earlier.cover !== media?.cover)
        await this.blobs.remove(this.blobs.cached('cover', earlier.cover));
      if (earlier.hls) await this.blobs.remove(this.blobs.cached('hls', earlier.hls.key));
    }
    return media;
  }

  private async readMusic(owner: Owner, row: FileRow): Promise<StoredMedia> {
    const place = this.files.placeOf(owner, row);
    const stream = this.blobs.read(place);
    const base = row.name.replace(/\.[^.]*$/, '');
    const media: StoredMedia = {
      hash: row.hash!,
      music: { songName: base, singer: '', album: '', duration: 0, hasCover: false },
    };
    try {
      const meta = await parseStream(
        stream,
        { mimeType: row.contentType, size: row.size },
        { duration: false, skipPostHeaders: true },
      );
      const c = meta.common;
      const picture = c.picture?.[0];
      const ext = picture ? COVER_TYPES[picture.format.toLowerCase()] : undefined;
      if (picture && ext && picture.data.length <= MAX_COVER_BYTES) {
        media.cover = this.coverKey(row, ext);
        await this.blobs.write(this.blobs.cached('cover', media.cover), Buffer.from(picture.data));
      }
      media.music = {
        songName: (c.title ?? '').slice(0, 512) || base,
        singer: (c.artist ?? c.artists?.join(', ') ?? '').slice(0, 512),
        album: (c.album ?? '').slice(0, 512),
        duration: Math.round((meta.format.duration ?? 0) * 100) / 100,
        hasCover: media.cover !== undefined,
      };
    } catch {
      // unreadable tags: the file's name stands for the song
    } finally {
      stream.destroy();
    }
    return media;
  }

  private async readVideo(owner: Owner, row: FileRow, signal: AbortSignal): Promise<StoredMedia> {
    const local = await this.blobs.local(this.files.placeOf(owner, row));
    try {
      const p = await probe(local.path, signal);
      const media: StoredMedia = {
        hash: row.hash!,
        video: {
          duration: Math.round(p.duration * 100) / 100,
          width: p.width,
          height: p.height,
          bitrate: p.bitrate,
          frameRate: p.frameRate,
          videoCodec: p.videoCodec,
          audioCodec: p.audioCodec,
          playable: isPlayable(p),
          hasCover: false,
        },
      };
      if (p.width > 0) {
        const scratch = await this.blobs.scratch();
        try {
          await coverFrame(
            local.path,
            Math.min(2, p.duration / 3),
            path.join(scratch.path, 'cover.jpg'),
            signal,
          );
          media.cover = this.coverKey(row, 'jpg');
          await this.blobs.move(
            this.blobs.child(scratch.place, 'cover.jpg'),
            this.blobs.cached('cover', media.cover),
          );
          media.video!.hasCover = true;
        } catch {
          // no frame to show: the player shows none (but a stop is no fact about the video)
          signal.throwIfAborted();
        } finally {
          await scratch.release();
        }
      }
      return media;
    } catch {
      // stopped (a restart, a cancel, a slow view): nothing is recorded, the next look reads it
      signal.throwIfAborted();
      // ffprobe could not read it: a video of unknown shape, played as it is
      return { hash: row.hash! };
    } finally {
      await local.release();
    }
  }

  /** The system job of a new file: read its info; start its transcode when one is due. */
  async runInfoJob(ctx: JobContext<MediaInfoPayload>): Promise<void> {
    const { userId, fileId } = ctx.payload;
    const row = await this.files.liveRow(userId, fileId);
    const username = await this.usernameOf(userId);
    if (!row || !username) return;
    const owner = { id: userId, username };
    const media = await this.examine(owner, row, ctx.signal);
    if (media?.video) await this.transcodeIfDue(owner, row, media);
  }

  // ---- what a file's info looks like to the one asking ---------------------------------------

  private async view(owner: Owner, row: FileRow, startTranscode: boolean): Promise<MediaInfo> {
    if (row.isFolder === 1 || (row.fileType !== 'audio' && row.fileType !== 'video'))
      throw new AppError(ErrorCode.UNRECOGNIZED_FILE, 'This file is neither audio nor video');
    const media = await this.examine(owner, row, AbortSignal.timeout(60_000));
    let hls: HlsStatus | null = null;
    if (row.fileType === 'video') {
      if (startTranscode && media?.video) await this.transcodeIfDue(owner, row, media);
      hls = await this.hlsStatus(row, media);
    }
    return {
      fileId: row.id,
      name: row.name,
      username: owner.username,
      music: media?.music ?? null,
      video: media?.video ?? null,
      hls,
    };
  }

  /** A file's info for a signed-in user: their own file, or one of a share they mounted. */
  async info(actor: Actor, fileId: string): Promise<MediaInfo> {
    const { owner, row } = await this.shareAccess.fileForActor(actor, fileId);
    return this.view(owner, row, true);
  }

  /** A file's info for a share's visitor. */
  async publicInfo(creds: ShareCredentials, fileId: string): Promise<MediaInfo> {
    const { open, row } = await this.shareAccess.access(creds, { fileId });
    return this.view(open.owner, row, true);
  }

  private async hlsStatus(row: FileRow, media: StoredMedia | null): Promise<HlsStatus> {
    const active = await this.transcodeOf(row.id);
    if (await this.rendition(row, media))
      return { state: 'done', progress: 100, taskId: active?.taskId ?? null };
    if (active) return { state: active.state, progress: active.progress, taskId: active.taskId };
    const failure = await this.failureOf(row);
    if (failure?.reason === 'failed') return { state: 'failed', progress: 0, taskId: null };
    return { state: 'none', progress: 0, taskId: null };
  }

  /** The folder of the file's finished rendition, when it has one. */
  private async rendition(row: FileRow, media: StoredMedia | null): Promise<Place | null> {
    if (!media?.hls) return null;
    const folder = this.blobs.cached('hls', media.hls.key);
    return (await this.blobs.exists(this.blobs.child(folder, `${row.id}.m3u8`))) ? folder : null;
  }

  // ---- bytes ---------------------------------------------------------------------------------

  /** A cover of an audio or video file, with its content type; null when it has none. */
  async cover(owner: Owner, row: FileRow): Promise<{ place: Place; type: string } | null> {
    const signal = AbortSignal.timeout(60_000);
    let media = await this.examine(owner, row, signal);
    if (!media?.cover) return null;
    let place = this.blobs.cached('cover', media.cover);
    const stat = await this.blobs.stat(place);
    if (stat) markUsed(this.blobs, place, stat.mtimeMs);
    else {
      // the cache let it go (its size bound): read the file again
      media = await this.examine(owner, row, signal, true);
      if (!media?.cover) return null;
      place = this.blobs.cached('cover', media.cover);
      if (!(await this.blobs.exists(place))) return null;
    }
    const type = COVER_CONTENT_TYPES[media.cover.split('.').pop() ?? ''];
    return type ? { place, type } : null;
  }

  async ownCover(actor: Actor, fileId: string) {
    const { owner, row } = await this.shareAccess.fileForActor(actor, fileId);
    return this.cover(owner, row);
  }

  async publicCover(creds: ShareCredentials, fileId: string) {
    const { open, row } = await this.shareAccess.access(creds, { fileId });
    return this.cover(open.owner, row);
  }

  /** `{fileId}.m3u8`, `{fileId}-{n}.ts`, `{fileId}.vtt` or `{fileId}-vtt.jpg` of a rendition. */
  private async hlsPart(
    owner: Owner,
    username: string,
    row: FileRow,
    file: string,
  ): Promise<{ place: Place; type: string }> {
    if (owner.username !== username) throw hlsNotFound();
    const type = file.endsWith('.m3u8')
      ? 'application/vnd.apple.mpegurl'
      : /-\d{1,6}\.ts$/.test(file)
        ? 'video/mp2t'
        : file.endsWith('-vtt.jpg')
          ? 'image/jpeg'
          : file.endsWith('.vtt')
            ? 'text/vtt'
            : null;
    if (!type || !file.startsWith(row.id)) throw hlsNotFound();
    const folder = await this.rendition(row, this.stored(row));
    if (!folder) throw hlsNotFound();
    const place = this.blobs.child(folder, file);
    if (!(await this.blobs.exists(place))) throw hlsNotFound();
    // a player starts with the playlist: the rendition was just used
    if (file.endsWith('.m3u8')) markUsed(this.blobs, folder);
    return { place, type };
  }

  /** The file id a part's name starts with. */
  private static fileIdOf(file: string): string {
    const m = /^(.+?)(?:\.m3u8|\.vtt|-vtt\.jpg|-\d{1,6}\.ts)$/.exec(file);
    if (!m?.[1]) throw hlsNotFound();
    return m[1];
  }

  async ownHls(actor: Actor, username: string, file: string) {
    const fileId = MediaService.fileIdOf(file);
    const { owner, row } = await this.shareAccess.fileForActor(actor, fileId).catch(() => {
      throw hlsNotFound();
    });
    return this.hlsPart(owner, username, row, file);
  }

  async publicHls(creds: ShareCredentials, username: string, file: string) {
    const fileId = MediaService.fileIdOf(file);
    const { open, row } = await this.shareAccess.access(creds, { fileId });
    return this.hlsPart(open.owner, username, row, file);
  }

  // ---- transcoding ---------------------------------------------------------------------------

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
  private async transcodeIfDue(owner: Owner, row: FileRow, media: StoredMedia): Promise<void> {
    const config = await this.settings.get();
    if (!config.enable || !media.video || !needsTranscode(media.video, config)) return;
    await this.starting.run(row.id, async () => {
      if (await this.transcodeOf(row.id)) return;
      // failed or cancelled for this content: not again until it or the settings change
      if (await this.failureOf(row)) return;
      if (await this.rendition(row, media)) {
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
  async runTranscodeJob(ctx: JobContext<TranscodePayload>): Promise<void> {
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
  async transcodeFailed(job: Job, message: string): Promise<void> {
    const payload = job.payload as Partial<TranscodePayload> | null;
    if (!job.userId || typeof payload?.fileId !== 'string') return;
    const hash =
      typeof payload.hash === 'string'
        ? payload.hash
        : (await this.files.liveRow(job.userId, payload.fileId))?.hash;
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
    const row = await this.files.liveRow(userId, fileId);
    const username = await this.usernameOf(userId);
    if (!row?.hash || !username) return;
    live.hash = row.hash;
    const owner = { id: userId, username };
    const media = await this.examine(owner, row, ctx.signal);
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
    await this.keep(row, { ...media, hls: { key, fingerprint } });
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
        const row = await this.files.liveRow(t.userId, t.fileId);
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
