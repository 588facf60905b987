import { ErrorCode, type HlsStatus, type MediaInfo } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { JobContext, JobQueue } from '../../jobs/queue.ts';
import type { Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FileChange, FilesService, Owner } from '../files/files.service.ts';
import type { ShareAccess, ShareCredentials } from '../share/share-access.ts';
import type { MediaExaminer } from './media-examiner.ts';
import type { TranscodeQueue } from './transcode-queue.ts';
import type { FilesRepo } from '../files/files.repo.ts';

export const JOB_MEDIA_INFO = 'mediaInfo';

export interface MediaInfoPayload {
  userId: string;
  fileId: string;
}

/**
 * Audio and video: music tags and the probe of a video with its cover frame (media-examiner.ts),
 * read when a file arrives (a system job) or when first asked for; a file's info for owners,
 * mounters and share visitors, with the state of its HLS rendition (transcode-queue.ts), whose
 * transcode a view starts when the settings call for one. Covers and renditions are served by
 * media-bytes.service.ts.
 */
export class MediaService {
  constructor(
    private readonly fileRows: FilesRepo,
    files: FilesService,
    private readonly jobs: JobQueue,
    private readonly examiner: MediaExaminer,
    private readonly transcodes: TranscodeQueue,
    private readonly shareAccess: ShareAccess,
    private readonly usernameOf: (userId: string) => Promise<string | undefined>,
  ) {
    files.onChange((change, trx) => this.follow(change, trx));
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

  /** The system job of a new file: read its info; start its transcode when one is due. */
  async runInfoJob(ctx: JobContext<MediaInfoPayload>): Promise<void> {
    const { userId, fileId } = ctx.payload;
    const row = await this.fileRows.live(userId, fileId);
    const username = await this.usernameOf(userId);
    if (!row || !username) return;
    const owner = { id: userId, username };
    const media = await this.examiner.examine(owner, row, ctx.signal);
    if (media?.video) await this.transcodes.transcodeIfDue(owner, row, media);
  }

  // ---- what a file's info looks like to the one asking ---------------------------------------

  private async view(owner: Owner, row: FileRow, startTranscode: boolean): Promise<MediaInfo> {
    if (row.isFolder === 1 || (row.fileType !== 'audio' && row.fileType !== 'video'))
      throw new AppError(ErrorCode.UNRECOGNIZED_FILE, 'This file is neither audio nor video');
    const media = await this.examiner.examine(owner, row, AbortSignal.timeout(60_000));
    let hls: HlsStatus | null = null;
    if (row.fileType === 'video') {
      if (startTranscode && media?.video) await this.transcodes.transcodeIfDue(owner, row, media);
      hls = await this.transcodes.hlsStatus(row, media);
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
}
