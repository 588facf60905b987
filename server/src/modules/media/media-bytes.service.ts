import { ErrorCode } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import type { Place } from '../../storage/blob-store.ts';
import { markUsed } from '../cache/cache-keeper.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FilesService, Owner } from '../files/files.service.ts';
import type { ShareAccess, ShareCredentials } from '../share/share-access.ts';
import { storedOf, type MediaExaminer } from './media-examiner.ts';

export const COVER_CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

const hlsNotFound = () =>
  new AppError(ErrorCode.FILE_NOT_FOUND, 'This video has no stream', undefined, 404);

/** A part of a cover or rendition to send: where its bytes are, and their content type. */
export interface MediaPart {
  place: Place;
  type: string;
}

/**
 * The bytes made of audio and video files: covers and the parts of HLS renditions, for owners,
 * mounters and share visitors.
 */
export class MediaBytesService {
  constructor(
    private readonly files: FilesService,
    private readonly examiner: MediaExaminer,
    private readonly shareAccess: ShareAccess,
  ) {}

  private get blobs() {
    return this.files.blobs;
  }

  /** A cover of an audio or video file, with its content type; null when it has none. */
  async cover(owner: Owner, row: FileRow): Promise<MediaPart | null> {
    const signal = AbortSignal.timeout(60_000);
    let media = await this.examiner.examine(owner, row, signal);
    if (!media?.cover) return null;
    let place = this.blobs.cached('cover', media.cover);
    const stat = await this.blobs.stat(place);
    if (stat) markUsed(this.blobs, place, stat.mtimeMs);
    else {
      // the cache let it go (its size bound): read the file again
      media = await this.examiner.examine(owner, row, signal, true);
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
  ): Promise<MediaPart> {
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
    const folder = await this.examiner.rendition(row, storedOf(row));
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
    const fileId = MediaBytesService.fileIdOf(file);
    const { owner, row } = await this.shareAccess.fileForActor(actor, fileId).catch(() => {
      throw hlsNotFound();
    });
    return this.hlsPart(owner, username, row, file);
  }

  async publicHls(creds: ShareCredentials, username: string, file: string) {
    const fileId = MediaBytesService.fileIdOf(file);
    const { open, row } = await this.shareAccess.access(creds, { fileId });
    return this.hlsPart(open.owner, username, row, file);
  }
}
