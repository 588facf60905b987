import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findProgram, runProgram } from '../../search/content/tools.ts';
import { childEnv } from '../../../lib/child-env.ts';
import { sandboxed } from '../../../lib/sandbox.ts';

// ffprobe and ffmpeg on files of this server's disk (BlobStore.local / scratch): the probe of a
// video, a cover frame, and the HLS rendition with its progress.

/**
 * The containers a video or a song of a drive comes in, by ffmpeg's names for their readers.
 * Nothing else reads an uploaded file: a playlist (HLS, DASH, concat) saved as `.mp4` would
 * otherwise make ffmpeg open the files it names, another user's video among them, and an image
 * sequence pattern other files still.
 */
export const MEDIA_DEMUXERS = [
  'mov', // mp4, m4a, m4v, 3gp, mj2
  'matroska', // mkv, webm
  'avi',
  'asf', // wmv, wma
  'flv',
  'mpegts',
  'mpeg', // vob, mpg
  'mpegvideo',
  'm4v',
  'h264',
  'hevc',
  'ogg',
  'mp3',
  'aac',
  'ac3',
  'eac3',
  'flac',
  'wav',
  'w64',
  'aiff',
  'caf',
  'amr',
  'ape',
  'wv',
  'mpc',
  'mpc8',
  'tta',
  'dsf',
  'rm',
  'dv',
  'mxf',
  'nut',
  'ivf',
  'obu',
  'wtv',
  'truehd',
  'dts',
  'au',
  'mjpeg',
  'gif',
].join(',');

/**
 * How every ffprobe and ffmpeg run opens a file of the drive: as a plain local file in one of
 * the containers above, never through a protocol and never as a list of other files.
 */
export function inputArgs(file: string): string[] {
  return ['-protocol_whitelist', 'file', '-format_whitelist', MEDIA_DEMUXERS, '-i', file];
}

export const ffmpegPath = () => findProgram('ffmpeg');
export const ffprobePath = () => findProgram('ffprobe');
export const hasFfmpeg = () => ffmpegPath() !== null && ffprobePath() !== null;

export interface Probe {
  duration: number;
  width: number;
  height: number;
  /** kbps */
  bitrate: number;
  frameRate: number;
  videoCodec: string;
  audioCodec: string;
  container: string;
}

interface ProbeJson {
  format?: { duration?: string; bit_rate?: string; format_name?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    avg_frame_rate?: string;
    r_frame_rate?: string;
    disposition?: { attached_pic?: number };
  }>;
}

/** `30000/1001` → 29.97; nothing sensible → 0. */
function rate(text: string | undefined): number {
  if (!text) return 0;
  const [n = 0, d = 0] = text.split('/').map(Number);
  const value = d ? n / d : n;
  return Number.isFinite(value) && value > 0 && value < 1000 ? Math.round(value * 100) / 100 : 0;
}

export async function probe(file: string, signal: AbortSignal): Promise<Probe> {
  const program = ffprobePath();
  if (!program) throw new Error('ffprobe is not installed');
  const out = await runProgram(
    program,
    // ffprobe takes the file after its options (its `-i` is the same)
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', ...inputArgs(file)],
    { signal, timeoutMs: 30_000, maxOutput: 1024 * 1024, sandbox: { read: [file], write: [] } },
  );
  const json = JSON.parse(out.toString('utf8')) as ProbeJson;
  const streams = json.streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const duration = Number(json.format?.duration ?? 0);
  return {
    duration: Number.isFinite(duration) ? duration : 0,
    width: video?.width ?? 0,
    height: video?.height ?? 0,
    bitrate: Math.round(Number(json.format?.bit_rate ?? 0) / 1000) || 0,
    frameRate: rate(video?.avg_frame_rate) || rate(video?.r_frame_rate),
    videoCodec: video?.codec_name ?? '',
    audioCodec: audio?.codec_name ?? '',
    container: json.format?.format_name ?? '',
  };
}

/** One frame at `atSeconds`, 480 px wide at most, as a JPEG at `out`. */
export async function coverFrame(
  file: string,
  atSeconds: number,
  out: string,
  signal: AbortSignal,
): Promise<void> {
  const program = ffmpegPath();
  if (!program) throw new Error('ffmpeg is not installed');
  await fs.mkdir(path.dirname(out), { recursive: true });
  await runProgram(
    program,
    [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-ss', atSeconds.toFixed(2), ...inputArgs(file)],
      ...['-frames:v', '1', '-vf', "scale='min(480,iw)':-2", '-q:v', '4', out],
    ],
    { signal, timeoutMs: 60_000, sandbox: { read: [file], write: [path.dirname(out)] } },
  );
}

/** The niceness of transcodes: the API's requests come first when the cores are busy. */
const TRANSCODE_NICE = 10;

export interface HlsTarget {
  /** kbps */
  bitrate: number;
  height: number;
  frameRate: number;
  /** ffmpeg's threads (0: its own choice). */
  threads: number;
}

/** The arguments of ffmpeg for the HLS rendition (the benchmark runs the same by hand). */
export function hlsArgs(
  input: string,
  outDir: string,
  base: string,
  source: Probe,
  target: HlsTarget,
): string[] {
  const height = source.height > target.height ? target.height : 0;
  const fps = source.frameRate > target.frameRate || source.frameRate === 0 ? target.frameRate : 0;
  const filters = [height ? `scale=-2:${height}` : 'scale=trunc(iw/2)*2:trunc(ih/2)*2'];
  const gop = Math.max(1, Math.round((fps || source.frameRate || 25) * 4));
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostats', '-y', ...inputArgs(input)],
    ...['-map', '0:v:0', '-map', '0:a:0?'],
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-vf', filters.join(',')],
    ...(fps ? ['-r', String(fps)] : []),
    ...['-b:v', `${target.bitrate}k`, '-maxrate', `${target.bitrate}k`],
    ...['-bufsize', `${target.bitrate * 2}k`],
    ...['-g', String(gop), '-keyint_min', String(gop), '-sc_threshold', '0'],
    ...['-c:a', 'aac', '-b:a', '128k', '-ac', '2'],
    ...(target.threads ? ['-threads', String(target.threads)] : []),
    ...['-f', 'hls', '-hls_time', '4', '-hls_playlist_type', 'vod'],
    ...['-hls_segment_filename', path.join(outDir, `${base}-%d.ts`)],
    ...['-progress', 'pipe:1'],
    path.join(outDir, `${base}.m3u8`),
  ];
}

/**
 * The HLS rendition of `input` into the folder `outDir`: `{base}.m3u8` and `{base}-{n}.ts`, so
 * the playlist's relative segment names resolve under the owner's and a share's addresses
 * alike. `onProgress` gets the seconds done.
 */
export function transcodeHls(
  input: string,
  outDir: string,
  base: string,
  source: Probe,
  target: HlsTarget,
  signal: AbortSignal,
  onProgress: (seconds: number) => void,
): Promise<void> {
  const program = ffmpegPath();
  if (!program) return Promise.reject(new Error('ffmpeg is not installed'));
  const args = hlsArgs(input, outDir, base, source, target);
  // below the server in the scheduler's eyes: a transcode uses the idle cores, never the API's
  const nice = findProgram('nice');
  const [command, argv] = sandboxed(
    nice ?? program,
    nice ? ['-n', String(TRANSCODE_NICE), program, ...args] : args,
    { read: [input], write: [outDir] },
  );
  return new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'pipe'], env: childEnv() });
    if (!nice && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, TRANSCODE_NICE);
      } catch {
        // the process is already gone; 'close' tells why
      }
    }
    let stderr = '';
    let pending = '';
    const stop = () => child.kill('SIGKILL');
    signal.addEventListener('abort', stop, { once: true });
    child.stdout.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const m = /^out_time_us=(\d+)/.exec(line);
        if (m) onProgress(Number(m[1]) / 1e6);
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString('utf8');
    });
    child.on('error', (err) => {
      signal.removeEventListener('abort', stop);
      reject(err);
    });
    child.on('close', (code) => {
      signal.removeEventListener('abort', stop);
      if (signal.aborted) return reject(signal.reason as Error);
      if (code === 0) return resolve();
      reject(new Error(`ffmpeg failed: ${stderr.trim().slice(0, 300) || `exit ${code}`}`));
    });
  });
}

/** Width of one thumbnail of a video's scrubbing sprite. */
const SPRITE_TILE_WIDTH = 160;
const SPRITE_COLUMNS = 10;

/**
 * `count` frames spread over the video, tiled 10 a row into `{base}-vtt.jpg`, and the WebVTT
 * track `{base}.vtt` naming each frame's region for its stretch of time (players' scrubbing
 * previews).
 */
export async function thumbnailTrack(
  input: string,
  outDir: string,
  base: string,
  source: Probe,
  count: number,
  signal: AbortSignal,
): Promise<void> {
  const program = ffmpegPath();
  const prober = ffprobePath();
  if (!program || !prober) throw new Error('ffmpeg is not installed');
  if (source.duration <= 0 || source.width <= 0) return;
  const columns = Math.min(SPRITE_COLUMNS, count);
  const rows = Math.ceil(count / columns);
  const sprite = path.join(outDir, `${base}-vtt.jpg`);
  await runProgram(
    program,
    [
      ...['-hide_banner', '-loglevel', 'error', '-y', ...inputArgs(input), '-an'],
      ...[
        '-vf',
        `fps=${count}/${source.duration.toFixed(3)},scale=${SPRITE_TILE_WIDTH}:-2,tile=${columns}x${rows}`,
      ],
      ...['-frames:v', '1', '-q:v', '5', sprite],
    ],
    { signal, timeoutMs: 300_000, sandbox: { read: [input], write: [outDir] } },
  );
  const size = (
    await runProgram(
      prober,
      ['-v', 'error', '-show_entries', 'stream=width,height', '-of', 'csv=p=0', sprite],
      { signal, timeoutMs: 30_000 },
    )
  )
    .toString('utf8')
    .trim()
    .split(',')
    .map(Number);
  const tileHeight = Math.floor((size[1] ?? 0) / rows);
  const step = source.duration / count;
  const stamp = (seconds: number) => {
    const ms = Math.round(seconds * 1000);
    const h = Math.floor(ms / 3_600_000);
    const m = Math.floor((ms % 3_600_000) / 60_000);
    const s = Math.floor((ms % 60_000) / 1000);
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}`;
  };
  const cues = ['WEBVTT', ''];
  for (let i = 0; i < count; i++) {
    const x = (i % columns) * SPRITE_TILE_WIDTH;
    const y = Math.floor(i / columns) * tileHeight;
    cues.push(
      `${stamp(i * step)} --> ${stamp(Math.min(source.duration, (i + 1) * step))}`,
      `${base}-vtt.jpg#xywh=${x},${y},${SPRITE_TILE_WIDTH},${tileHeight}`,
      '',
    );
  }
  await fs.writeFile(path.join(outDir, `${base}.vtt`), cues.join('\n'));
}
