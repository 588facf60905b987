import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { publicTargetQuery } from './share.ts';
import { flag, queryNumber } from './validation.ts';

// Audio and video (API-NOTES §1.12 transcode settings, §1.16 HLS): the tags and probe a file's
// media info carries, its HLS rendition's state, and the Video Transcoding settings.

const id = z.string().max(64);

/** The Video Transcoding settings' bounds (spec §3; the settings form uses the same). */
export const TRANSCODE_LIMITS = {
  maxThreads: [1, 8],
  bitrate: [100, 100_000],
  height: [144, 4320],
  frameRate: [1, 240],
  vttThumbnailCount: [1, 256],
} as const;

const bounded = ([min, max]: readonly [number, number]) =>
  queryNumber(z.number().int().min(min).max(max));

export const TRANSCODE_DEFAULTS = {
  enable: false,
  maxThreads: 1,
  bitrateCond: 2500,
  heightCond: 720,
  frameRateCond: 30,
  bitrate: 2500,
  height: 720,
  frameRate: 30,
  vttThumbnailCount: 60,
  isReTranscode: false,
} as const;

// ---- requests -------------------------------------------------------------------------------

export const transcodeConfigBody = z.object({
  enable: flag(),
  /** Transcodes run at most this many at once. */
  maxThreads: bounded(TRANSCODE_LIMITS.maxThreads),
  /** Transcode when the source's bitrate (kbps), height (px) or frame rate exceeds these. */
  bitrateCond: bounded(TRANSCODE_LIMITS.bitrate),
  heightCond: bounded(TRANSCODE_LIMITS.height),
  frameRateCond: bounded(TRANSCODE_LIMITS.frameRate),
  /** What the rendition is held to. */
  bitrate: bounded(TRANSCODE_LIMITS.bitrate),
  height: bounded(TRANSCODE_LIMITS.height),
  frameRate: bounded(TRANSCODE_LIMITS.frameRate),
  vttThumbnailCount: bounded(TRANSCODE_LIMITS.vttThumbnailCount),
  /** Renditions made under other settings are made again when next opened. */
  isReTranscode: flag().optional(),
});
export type TranscodeConfig = Required<z.infer<typeof transcodeConfigBody>>;

/** Which transcodes to stop: these tasks or these files; neither stops every one. */
export const cancelTranscodeBody = z
  .object({
    taskIds: z.array(id).max(1000).optional(),
    fileIds: z.array(id).max(1000).optional(),
  })
  .optional();

export const mediaQuery = z.object({ id });

/** One file of `/video/hls/{username}/{file}`: `{fileId}.m3u8` or `{fileId}-{index}.ts`. */
export const hlsParams = z.object({
  username: z.string().max(256),
  file: z.string().max(128),
});
export const publicHlsParams = hlsParams.extend({
  shareId: z.string().max(256),
  shareToken: z.string().max(2048),
});

// ---- answers --------------------------------------------------------------------------------

export const transcodeConfigView = z.object({
  enable: z.boolean(),
  maxThreads: z.number().int(),
  bitrateCond: z.number().int(),
  heightCond: z.number().int(),
  frameRateCond: z.number().int(),
  bitrate: z.number().int(),
  height: z.number().int(),
  frameRate: z.number().int(),
  vttThumbnailCount: z.number().int(),
  isReTranscode: z.boolean(),
  /** Whether ffmpeg and ffprobe are installed on the server (read only). */
  ffmpeg: z.boolean(),
});
export type TranscodeConfigView = z.infer<typeof transcodeConfigView>;

/** Music tags (spec §3 File: music). */
export const musicTags = z.object({
  songName: z.string(),
  singer: z.string(),
  album: z.string(),
  /** Seconds; 0 when unknown. */
  duration: z.number(),
  /** The file carries a cover picture (served at `/media/cover`). */
  hasCover: z.boolean(),
});
export type MusicTags = z.infer<typeof musicTags>;

/** What ffprobe says of a video. */
export const videoProbe = z.object({
  /** Seconds. */
  duration: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  /** Kilobits per second, the whole file's. */
  bitrate: z.number().int(),
  frameRate: z.number(),
  videoCodec: z.string(),
  audioCodec: z.string(),
  /** A browser plays it as it is (codecs and container). */
  playable: z.boolean(),
  hasCover: z.boolean(),
});
export type VideoProbe = z.infer<typeof videoProbe>;

export const HLS_STATES = ['none', 'queued', 'running', 'done', 'failed'] as const;
export type HlsState = (typeof HLS_STATES)[number];

/** A video's HLS rendition: `done` plays from `/video/hls/{username}/{fileId}.m3u8`. */
export const hlsStatus = z.object({
  state: z.enum(HLS_STATES),
  /** 0..100 while running. */
  progress: z.number(),
  taskId: z.string().nullable(),
});
export type HlsStatus = z.infer<typeof hlsStatus>;

/** A media file's info: tags of audio, probe and rendition of video. */
export const mediaInfo = z.object({
  fileId: z.string(),
  name: z.string(),
  /** The owner's username: the HLS addresses carry it. */
  username: z.string(),
  music: musicTags.nullable(),
  video: videoProbe.nullable(),
  hls: hlsStatus.nullable(),
});
export type MediaInfo = z.infer<typeof mediaInfo>;

/** A transcode of the task list (`/cloud/transcode/status`, the `transcodeStatus` event). */
export const transcodeTask = z.object({
  taskId: z.string(),
  fileId: z.string(),
  name: z.string(),
  path: z.string(),
  username: z.string(),
  state: z.string(),
  progress: z.number(),
});
export type TranscodeTask = z.infer<typeof transcodeTask>;
export const transcodeStatusView = z.object({
  enable: z.boolean(),
  /** One page, oldest first. */
  tasks: z.array(transcodeTask),
  /** Every queued and running transcode. */
  count: z.number().int(),
});
/** `GET /cloud/transcode/status?pageIndex&pageSize` (a page of at most 100; the first by default). */
export const transcodeStatusQuery = z.object({
  pageIndex: queryNumber(z.number().int().min(1).max(100_000)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(100)).default(100),
});
export type TranscodeStatusView = z.infer<typeof transcodeStatusView>;
export const cancelledTasks = z.object({ cancelled: z.number().int() });

/** The transcodes' settings and queue (administrators). */
export const transcodeApi = {
  config: endpoint({
    method: 'GET',
    path: '/cloud/setting/transcode/config',
    answer: transcodeConfigView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  setConfig: endpoint({
    method: 'PUT',
    path: '/cloud/setting/transcode/config',
    body: transcodeConfigBody,
    answer: transcodeConfigView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** Stops these transcodes, or every one when none is named; answers how many stopped. */
  cancel: endpoint({
    method: 'PUT',
    path: '/cloud/setting/transcode/cancel-task',
    body: cancelTranscodeBody,
    answer: cancelledTasks,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** A page of the transcodes under way, every user's. */
  status: endpoint({
    method: 'GET',
    path: '/cloud/transcode/status',
    query: transcodeStatusQuery,
    answer: transcodeStatusView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};

// ---- endpoints ------------------------------------------------------------------------------

/** A file's media info, its cover and the parts of its HLS rendition, for the owner. */
export const mediaApi = {
  /** The tags of an audio file, the probe and rendition of a video. */
  info: endpoint({
    method: 'GET',
    path: '/media/info',
    query: mediaQuery,
    answer: mediaInfo,
    access: 'user',
  }),
  /** The picture an audio or video file carries (`<img>` fetches it: the cookie signs it in). */
  cover: endpoint({
    method: 'GET',
    path: '/media/cover',
    query: mediaQuery,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
  /** One file of a video's HLS rendition: the playlist or a part (the player fetches them). */
  hls: endpoint({
    method: 'GET',
    path: '/video/hls/:username/:file',
    params: hlsParams,
    answer: 'bytes',
    access: 'user',
    cookieAuth: true,
  }),
};

/** The visitors' twins, for a file of a share. */
export const mediaVisitorApi = {
  info: endpoint({
    method: 'GET',
    path: '/public/s/media/info',
    query: publicTargetQuery,
    answer: mediaInfo,
    access: 'public',
  }),
  cover: endpoint({
    method: 'GET',
    path: '/public/s/media/cover',
    query: publicTargetQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /**
   * The share's token rides in the address (`-` for none), so the playlist's relative parts
   * carry it too.
   */
  hls: endpoint({
    method: 'GET',
    path: '/public/video/hls/:shareId/:shareToken/:username/:file',
    params: publicHlsParams,
    answer: 'bytes',
    access: 'public',
  }),
};
