import { describe, expect, it } from 'vitest';
import { TRANSCODE_DEFAULTS, type VideoProbe } from '@nimbus/contract';
import { isPlayable } from './media-examiner.ts';
import { needsTranscode } from './transcode-queue.ts';
import type { Probe } from './programs/ffmpeg.ts';

const probe = (over: Partial<Probe> = {}): Probe => ({
  duration: 10,
  width: 1280,
  height: 720,
  bitrate: 2000,
  frameRate: 30,
  videoCodec: 'h264',
  audioCodec: 'aac',
  container: 'mov,mp4,m4a,3gp,3g2,mj2',
  ...over,
});

const video = (over: Partial<VideoProbe> = {}): VideoProbe => ({
  duration: 10,
  width: 1280,
  height: 720,
  bitrate: 2000,
  frameRate: 30,
  videoCodec: 'h264',
  audioCodec: 'aac',
  playable: true,
  hasCover: true,
  ...over,
});

describe('what a browser plays as it is', () => {
  it('takes H.264, VP8/9 and AV1 in MP4, WebM or Matroska', () => {
    expect(isPlayable(probe())).toBe(true);
    expect(
      isPlayable(probe({ videoCodec: 'vp9', audioCodec: 'opus', container: 'matroska,webm' })),
    ).toBe(true);
    expect(isPlayable(probe({ audioCodec: '' }))).toBe(true);
  });

  it('refuses other codecs and containers', () => {
    expect(isPlayable(probe({ videoCodec: 'hevc' }))).toBe(false);
    expect(isPlayable(probe({ videoCodec: 'mpeg4' }))).toBe(false);
    expect(isPlayable(probe({ audioCodec: 'ac3' }))).toBe(false);
    expect(isPlayable(probe({ container: 'avi' }))).toBe(false);
  });
});

describe('when a video is transcoded (API-NOTES §1.12)', () => {
  const config = { ...TRANSCODE_DEFAULTS, enable: true };
  it('leaves a playable video within every condition alone', () => {
    expect(needsTranscode(video(), config)).toBe(false);
  });
  it('transcodes above any condition, or what cannot play', () => {
    expect(needsTranscode(video({ height: 1080 }), config)).toBe(true);
    expect(needsTranscode(video({ bitrate: 8000 }), config)).toBe(true);
    expect(needsTranscode(video({ frameRate: 60 }), config)).toBe(true);
    expect(needsTranscode(video({ playable: false }), config)).toBe(true);
  });
  it('never tries a file with no picture', () => {
    expect(needsTranscode(video({ width: 0, height: 0, playable: false }), config)).toBe(false);
  });
});
