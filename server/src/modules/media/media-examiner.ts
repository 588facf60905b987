import path from 'node:path';
import { parseStream } from 'music-metadata';
import type { MusicTags, VideoProbe } from '@nimbus/contract';
import type { Place } from '../../storage/blob-store.ts';
import { fileIdAtStart, type CacheKeeper } from '../cache/cache-keeper.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FilesService, Owner } from '../files/files.service.ts';
import { FACTS_KEY, factsOf } from './media-facts.ts';
import { coverFrame, hasFfmpeg, probe, type Probe } from './programs/ffmpeg.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** What the `media` column of a file keeps under `av`: read for the bytes of `hash`. */
export interface StoredMedia {
  hash: string;
  music?: MusicTags;
  video?: VideoProbe;
  /** The cover's cache key (an audio file's picture, a video's frame). */
  cover?: string;
  /** The finished HLS rendition: its cache key and the settings it was made under. */
  hls?: { key: string; fingerprint: string };
}

/** Cover pictures served as what they are: images that run nothing. */
const COVER_TYPES: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/jpg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/gif': 'gif',
};
const MAX_COVER_BYTES = 8 * 1024 * 1024;

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

/** What the `media` column records of a file's current bytes, or null (none, or of older bytes). */
export function storedOf(row: Pick<FileRow, 'hash' | 'media'>): StoredMedia | null {
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

/**
 * The facts of an audio or video file's current bytes: music tags and their picture, or the
 * probe of a video and a frame for its cover, read once and kept in the file's `media` column.
 */
export class MediaExaminer {
  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
  ) {}

  private get blobs() {
    return this.files.blobs;
  }

  /** Record the facts under this module's key, keeping the other modules' keys. */
  async keep(row: FileRow, media: StoredMedia): Promise<void> {
    const stored = await this.fileRows.setMediaKeys(row.userId, row.id, { [FACTS_KEY]: media });
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
    const have = storedOf(row);
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

  /** The folder of the file's finished rendition, when it has one. */
  async rendition(row: FileRow, media: StoredMedia | null): Promise<Place | null> {
    if (!media?.hls) return null;
    const folder = this.blobs.cached('hls', media.hls.key);
    return (await this.blobs.exists(this.blobs.child(folder, `${row.id}.m3u8`))) ? folder : null;
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
}
