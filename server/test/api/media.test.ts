import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MediaInfo, TranscodeConfigView, TranscodeStatusView } from '@nimbus/contract';
import { ADMIN, call, login, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, raw } from '../share-fixtures.ts';
import { oncePerRun } from '../run-fixtures.ts';
import { hasProgram, requireTool, skipWithout } from '../tools.ts';

// Audio and video: music tags and covers read from the bytes, ffprobe and a cover frame, HLS
// transcoding in the background under the Video Transcoding settings, and the addresses of
// the rendition for the owner and for a share's visitors, never for anyone else.

const canMedia = hasProgram('ffmpeg') && hasProgram('ffprobe');
let dir = '';
let song: Buffer;
let video: Buffer;
/** Long enough to be caught queued or running, and cancelled before it is done. */
let longVideo: Buffer;
/** Its header and nothing more: ffprobe reads a video, ffmpeg fails to transcode it. */
let brokenVideo: Buffer;

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** The song, the clip and the long clip, made by ffmpeg in `dir`. */
function makeMedia(): Record<'song' | 'video' | 'longVideo', Buffer> {
  const cover = path.join(dir, 'cover.png');
  ffmpeg(['-f', 'lavfi', '-i', 'color=c=orange:s=64x64', '-frames:v', '1', cover]);
  const mp3 = path.join(dir, 'song.mp3');
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-i', cover],
    ...['-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-q:a', '6', '-c:v', 'mjpeg'],
    ...['-id3v2_version', '3', '-disposition:v', 'attached_pic'],
    ...['-metadata', 'title=晴天 Sunny', '-metadata', 'artist=Nimbus Band'],
    ...['-metadata', 'album=Test Album', mp3],
  ]);
  const mp4 = path.join(dir, 'clip.mp4');
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=6'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=6'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-shortest', mp4],
  ]);
  const long = path.join(dir, 'long.mp4');
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=20'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=20'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-shortest', '-movflags', '+faststart', long],
  ]);
  return {
    song: fs.readFileSync(mp3),
    video: fs.readFileSync(mp4),
    longVideo: fs.readFileSync(long),
  };
}

beforeAll(() => {
  if (skipWithout(canMedia)) return;
  requireTool('ffmpeg and ffprobe', canMedia);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-media-'));
  // the same bytes for the file's run on either database: made once per test run
  ({ song, video, longVideo } = oncePerRun('media-test-clips-v1', makeMedia));
  const mdat = longVideo.indexOf('mdat');
  if (mdat < 0) throw new Error('no media data in the long clip');
  brokenVideo = longVideo.subarray(0, mdat + 4);
}, 60_000);

afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

const info = async (token: string, id: string) =>
  call<MediaInfo>(t.app, 'GET', '/media/info', { token, query: { id } });

const enableTranscoding = (token: string, extra: Record<string, unknown> = {}) =>
  call<TranscodeConfigView>(t.app, 'PUT', '/cloud/setting/transcode/config', {
    token,
    body: {
      enable: true,
      maxThreads: 1,
      bitrateCond: 2500,
      heightCond: 240,
      frameRateCond: 30,
      bitrate: 600,
      height: 240,
      frameRate: 25,
      vttThumbnailCount: 60,
      isReTranscode: false,
      ...extra,
    },
  });

async function transcoded(token: string, id: string): Promise<MediaInfo> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await info(token, id);
    expect(res.body.code).toBe(0);
    const state = res.body.data!.hls?.state;
    if (state === 'done') return res.body.data!;
    if (state === 'failed') throw new Error('the transcode failed');
    if (Date.now() > deadline) throw new Error(`no rendition in time (state ${state})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe.skipIf(skipWithout(canMedia))('audio', () => {
  it('reads the song name, singer, album and cover of an mp3', async () => {
    const id = await putFile(t, owner(), '/', 'track.mp3', song);
    const res = await info(admin.token, id);
    expect(res.body.code).toBe(0);
    expect(res.body.data!.music).toMatchObject({
      songName: '晴天 Sunny',
      singer: 'Nimbus Band',
      album: 'Test Album',
      hasCover: true,
    });
    expect(res.body.data!.video).toBeNull();
    // the listing carries the tags too (spec §3 File: music)
    const listed = await call<Array<{ name: string; music?: { singer: string } }>>(
      t.app,
      'GET',
      '/list',
      { token: admin.token, query: { currentDirectory: '/' } },
    );
    expect(listed.body.data!.find((f) => f.name === 'track.mp3')?.music?.singer).toBe(
      'Nimbus Band',
    );
    const cover = await raw(t, `/media/cover?id=${id}`, { 'nimbus-token': admin.token });
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/jpeg');
    expect(cover.headers['x-content-type-options']).toBe('nosniff');
  });

  it('names an untagged song after its file', async () => {
    const id = await putFile(t, owner(), '/', 'plain tune.mp3', Buffer.alloc(2000, 1));
    const res = await info(admin.token, id);
    expect(res.body.data!.music).toMatchObject({ songName: 'plain tune', singer: '' });
    const cover = await raw(t, `/media/cover?id=${id}`, { 'nimbus-token': admin.token });
    expect(cover.status).toBe(404);
  });

  it('reads the tags of an upload in the background', async () => {
    const id = await putFile(t, owner(), '/', 'bg.mp3', song);
    const deadline = Date.now() + 20_000;
    for (;;) {
      const row = await t.database.db
        .selectFrom('file')
        .select('media')
        .where('id', '=', id)
        .executeTakeFirst();
      if (row?.media) {
        expect(JSON.parse(row.media)).toMatchObject({ av: { music: { singer: 'Nimbus Band' } } });
        break;
      }
      if (Date.now() > deadline) throw new Error('the tags were not read in the background');
      await new Promise((r) => setTimeout(r, 100));
    }
  });
});

describe.skipIf(skipWithout(canMedia))('video', () => {
  it('probes a video and shows a frame as its cover', async () => {
    const id = await putFile(t, owner(), '/', 'clip.mp4', video);
    const res = await info(admin.token, id);
    expect(res.body.data!.video).toMatchObject({
      width: 640,
      height: 360,
      videoCodec: 'h264',
      audioCodec: 'aac',
      playable: true,
      hasCover: true,
    });
    expect(res.body.data!.video!.duration).toBeGreaterThan(5);
    // transcoding is off by default: the video plays as it is
    expect(res.body.data!.hls).toMatchObject({ state: 'none' });
    const cover = await raw(t, `/media/cover?id=${id}`, { 'nimbus-token': admin.token });
    expect(cover.status).toBe(200);
    expect(cover.headers['content-type']).toBe('image/jpeg');
  });

  it("reads a playlist saved as a video as no video: another user's file stays theirs", async () => {
    await enableTranscoding(admin.token);
    const bob = await makeUser(t.app, admin.token);
    await putFile(t, { userId: bob.userId, username: bob.username }, '/', 'private.mp4', video);
    // a playlist whose one segment is bob's video, named by its place on the disk
    const playlist = (segment: string) =>
      Buffer.from(`#EXTM3U\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:6.0,\n${segment}\n#EXT-X-ENDLIST\n`);
    const relative = await putFile(
      t,
      owner(),
      '/',
      'holiday.mp4',
      playlist(`../${bob.username}/private.mp4`),
    );
    const absolute = await putFile(
      t,
      owner(),
      '/',
      'trip.mp4',
      playlist(path.join(t.dataDir, 'files', bob.username, 'private.mp4')),
    );
    for (const id of [relative, absolute]) {
      const seen = await info(admin.token, id);
      expect(seen.body.code, seen.body.message).toBe(0);
      // nothing of bob's video: no picture size, no cover, no transcode of it
      expect(seen.body.data!.video?.width ?? 0).toBe(0);
      expect(seen.body.data!.video?.hasCover ?? false).toBe(false);
      expect(seen.body.data!.hls?.state ?? 'none').toBe('none');
      const cover = await raw(t, `/media/cover?id=${id}`, { 'nimbus-token': admin.token });
      expect(cover.status).not.toBe(200);
    }
  });

  it('transcodes a video above the conditions to HLS and serves its parts', async () => {
    expect((await enableTranscoding(admin.token)).body.code).toBe(0);
    const id = await putFile(t, owner(), '/', 'clip.mp4', video);
    const done = await transcoded(admin.token, id);
    expect(done.username).toBe(ADMIN.username);
    const headers = { 'nimbus-token': admin.token };
    const list = await raw(t, `/video/hls/${ADMIN.username}/${id}.m3u8`, headers);
    expect(list.status).toBe(200);
    expect(list.headers['content-type']).toBe('application/vnd.apple.mpegurl');
    expect(list.body).toContain('#EXT-X-ENDLIST');
    const parts = list.body.split('\n').filter((l) => l.endsWith('.ts'));
    expect(parts.length).toBeGreaterThanOrEqual(2);
    expect(parts[0]).toBe(`${id}-0.ts`);
    const part = await t.app.inject({
      method: 'GET',
      url: `/api/video/hls/${ADMIN.username}/${parts[0]}`,
      headers,
    });
    expect(part.statusCode).toBe(200);
    expect(part.headers['content-type']).toBe('video/mp2t');
    // the rendition holds to the target height
    const probe = execFileSync(
      'ffprobe',
      [
        ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=height'],
        ...['-of', 'csv=p=0', '-'],
      ],
      { input: part.rawPayload },
    );
    expect(probe.toString().trim().split(/\s+/)[0]).toBe('240');
    // the scrubbing previews: a sprite of frames and the WebVTT track naming their regions
    const track = await raw(t, `/video/hls/${ADMIN.username}/${id}.vtt`, headers);
    expect(track.status).toBe(200);
    expect(track.headers['content-type']).toMatch(/^text\/vtt/);
    expect(track.body.startsWith('WEBVTT')).toBe(true);
    expect(track.body).toContain(`${id}-vtt.jpg#xywh=0,0,160,90`);
    expect(track.body.match(/#xywh=/g)).toHaveLength(60);
    const sprite = await raw(t, `/video/hls/${ADMIN.username}/${id}-vtt.jpg`, headers);
    expect(sprite.status).toBe(200);
    expect(sprite.headers['content-type']).toBe('image/jpeg');
    // the task is gone from the administrator's status when done
    const status = await call<TranscodeStatusView>(t.app, 'GET', '/cloud/transcode/status', {
      token: admin.token,
    });
    expect(status.body.data!.tasks.map((x) => x.fileId)).not.toContain(id);
  }, 120_000);

  it('makes the rendition again under new targets only when re-transcoding is on', async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'clip.mp4', video);
    await transcoded(admin.token, id);
    const headers = { 'nimbus-token': admin.token };
    const partHeight = async () => {
      const part = await t.app.inject({
        method: 'GET',
        url: `/api/video/hls/${ADMIN.username}/${id}-0.ts`,
        headers,
      });
      const out = execFileSync(
        'ffprobe',
        [
          ...['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=height'],
          ...['-of', 'csv=p=0', '-'],
        ],
        { input: part.rawPayload },
      );
      return out.toString().trim().split(/\s+/)[0];
    };
    expect(await partHeight()).toBe('240');
    // new targets without re-transcoding: the rendition stays, nothing is started
    await enableTranscoding(admin.token, { height: 180 });
    const kept = await info(admin.token, id);
    expect(kept.body.data!.hls).toMatchObject({ state: 'done', taskId: null });
    // with re-transcoding: made again, the old one playing meanwhile
    await enableTranscoding(admin.token, { height: 180, isReTranscode: true });
    const again = await info(admin.token, id);
    expect(again.body.data!.hls?.state).toBe('done');
    expect(again.body.data!.hls?.taskId).toBeTruthy();
    await t.app.services.jobs.waitFor(again.body.data!.hls!.taskId!, 90_000);
    expect(await partHeight()).toBe('180');
  }, 180_000);

  it("drops what was made of a file's earlier bytes when they change", async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'clip.mp4', video);
    await transcoded(admin.token, id);
    const { db } = t.database;
    const { blobs } = t.app.services;
    const before = await db.selectFrom('file').selectAll().where('id', '=', id).executeTakeFirst();
    const old = JSON.parse(before!.media!) as { av: { cover: string; hls: { key: string } } };
    expect(await blobs.exists(blobs.cached('hls', old.av.hls.key))).toBe(true);
    // the file is rewritten (as a save or an upload over it would)
    const bytes = Buffer.concat([video, Buffer.from('trailing bytes')]);
    await blobs.write(blobs.item(ADMIN.username, '/', 'clip.mp4'), bytes);
    const { createHash } = await import('node:crypto');
    await db
      .updateTable('file')
      .set({ size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') })
      .where('id', '=', id)
      .execute();
    const fresh = await info(admin.token, id);
    expect(fresh.body.data!.video?.height).toBe(360);
    expect(await blobs.exists(blobs.cached('hls', old.av.hls.key))).toBe(false);
    expect(await blobs.exists(blobs.cached('cover', old.av.cover))).toBe(false);
    await transcoded(admin.token, id);
  }, 180_000);

  it('never serves a rendition or info to another user, nor to nobody', async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'clip.mp4', video);
    await transcoded(admin.token, id);
    const other = await makeUser(t.app, admin.token);
    expect((await info(other.token, id)).body.code).toBe(7);
    const visitors: Record<string, string>[] = [{ 'nimbus-token': other.token }, {}];
    for (const headers of visitors) {
      const list = await raw(t, `/video/hls/${ADMIN.username}/${id}.m3u8`, headers);
      expect(list.status).toBeGreaterThanOrEqual(400);
      const cover = await raw(t, `/media/cover?id=${id}`, headers);
      expect(cover.status).toBeGreaterThanOrEqual(400);
    }
    // naming someone else's file under one's own name finds nothing either
    const own = await raw(t, `/video/hls/${other.username}/${id}.m3u8`, {
      'nimbus-token': other.token,
    });
    expect(own.status).toBe(404);
  }, 120_000);

  it('serves a shared video to visitors by the share address, and nothing outside it', async () => {
    await enableTranscoding(admin.token);
    const folderId = await makeFolder(t, admin.token, '/', 'shared');
    const inside = await putFile(t, owner(), '/shared/', 'clip.mp4', video);
    const outside = await putFile(t, owner(), '/', 'private.mp4', video);
    await transcoded(admin.token, inside);
    await transcoded(admin.token, outside);
    const share = await makeShare(t, admin.token, { fileId: folderId });
    const base = `/public/video/hls/${share.shareId}/-/${ADMIN.username}`;
    const list = await raw(t, `${base}/${inside}.m3u8`);
    expect(list.status).toBe(200);
    expect((await raw(t, `${base}/${inside}-0.ts`)).status).toBe(200);
    expect((await raw(t, `${base}/${outside}.m3u8`)).status).toBe(404);
    const pub = await call<MediaInfo>(t.app, 'GET', '/public/s/media/info', {
      query: { shareId: share.shareId, fileId: inside },
    });
    expect(pub.body.data!.hls?.state).toBe('done');
    const refused = await call(t.app, 'GET', '/public/s/media/info', {
      query: { shareId: share.shareId, fileId: outside },
    });
    expect(refused.body.code).not.toBe(0);
    expect(
      (await raw(t, `/public/s/media/cover?shareId=${share.shareId}&fileId=${inside}`)).status,
    ).toBe(200);
  }, 180_000);
});

describe.skipIf(skipWithout(canMedia))('a mounted share', () => {
  it("plays the owner's video and song to the user who mounted it", async () => {
    await enableTranscoding(admin.token);
    const folderId = await makeFolder(t, admin.token, '/', 'team');
    const clip = await putFile(t, owner(), '/team/', 'clip.mp4', video);
    const tune = await putFile(t, owner(), '/team/', 'tune.mp3', song);
    await transcoded(admin.token, clip);
    const share = await makeShare(t, admin.token, { fileId: folderId });
    const bob = await makeUser(t.app, admin.token);
    const mount = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(mount.body.code, mount.body.message).toBe(0);
    const headers = { 'nimbus-token': bob.token };
    const tags = await info(bob.token, tune);
    expect(tags.body.data!.music?.singer).toBe('Nimbus Band');
    const seen = await info(bob.token, clip);
    expect(seen.body.data).toMatchObject({ username: ADMIN.username, hls: { state: 'done' } });
    expect((await raw(t, `/video/hls/${ADMIN.username}/${clip}.m3u8`, headers)).status).toBe(200);
    expect((await raw(t, `/media/cover?id=${clip}`, headers)).status).toBe(200);
  }, 120_000);
});

describe.skipIf(skipWithout(canMedia))('transcodes across a restart', () => {
  const status = async () =>
    (
      await call<TranscodeStatusView>(t.app, 'GET', '/cloud/transcode/status', {
        token: admin.token,
      })
    ).body.data!;
  /** Stops these transcodes (`{}`: all of them), as the administrator. */
  const cancelTranscodes = (body: { taskIds?: string[]; fileIds?: string[] }) =>
    call<{ cancelled: number }>(t.app, 'PUT', '/cloud/setting/transcode/cancel-task', {
      token: admin.token,
      body,
    });
  /** Every transcode job of a file, as the queue keeps them. */
  const transcodeJobs = (fileId: string) =>
    t.database.db
      .selectFrom('job')
      .select(['id', 'state'])
      .where('type', '=', 'transcode')
      .where('payload', 'like', `%${fileId}%`)
      .orderBy('createdAt')
      .execute();
  /** The file's transcode under way, as a view of the video tells it. */
  const underWay = async (id: string) => {
    const seen = await info(admin.token, id);
    expect(seen.body.code, seen.body.message).toBe(0);
    const hls = seen.body.data!.hls!;
    expect(['queued', 'running']).toContain(hls.state);
    expect(hls.taskId).toBeTruthy();
    return hls.taskId!;
  };
  /** New bytes for the file (as a save or an upload over it would write). */
  const replaceContent = async (id: string, name: string, bytes: Buffer) => {
    const { blobs } = t.app.services;
    await blobs.write(blobs.item(ADMIN.username, '/', name), bytes);
    const { createHash } = await import('node:crypto');
    await t.database.db
      .updateTable('file')
      .set({ size: bytes.length, hash: createHash('sha256').update(bytes).digest('hex') })
      .where('id', '=', id)
      .execute();
  };

  it('lists the transcodes under way a page at a time, with their count', async () => {
    await enableTranscoding(admin.token);
    const ids: string[] = [];
    for (const name of ['a.mp4', 'b.mp4', 'c.mp4']) {
      const id = await putFile(t, owner(), '/', name, longVideo);
      await underWay(id);
      ids.push(id);
    }
    const page = async (pageIndex: number, pageSize: number) =>
      (
        await call<TranscodeStatusView>(t.app, 'GET', '/cloud/transcode/status', {
          token: admin.token,
          query: { pageIndex, pageSize },
        })
      ).body;
    const first = await page(1, 2);
    expect(first.data!.count).toBe(3);
    expect(first.data!.tasks.map((x) => x.fileId)).toEqual(ids.slice(0, 2));
    expect((await page(2, 2)).data!.tasks.map((x) => x.fileId)).toEqual(ids.slice(2));
    expect((await page(1, 101)).code).toBe(10);
    expect((await page(0, 10)).code).toBe(10);
    // every user's videos: for administrators only, and never for nobody
    const user = await makeUser(t.app, admin.token);
    const asUser = await call(t.app, 'GET', '/cloud/transcode/status', { token: user.token });
    expect(asUser.body.code).toBe(8);
    const asNobody = await call(t.app, 'GET', '/cloud/transcode/status');
    expect(asNobody.status).toBe(401);
    const all = await cancelTranscodes({});
    expect(all.body).toMatchObject({ code: 0, data: { cancelled: 3 } });
    expect((await status()).count).toBe(0);
  }, 120_000);

  it('lists the transcodes still queued after a restart, and runs each once', async () => {
    await enableTranscoding(admin.token);
    const first = await putFile(t, owner(), '/', 'long.mp4', longVideo);
    const firstTask = await underWay(first);
    const second = await putFile(t, owner(), '/', 'later.mp4', longVideo);
    const secondTask = await underWay(second);
    await t.restart();
    Object.assign(admin, await login(t.app, ADMIN.username, ADMIN.password));
    // one at a time (the setting): the other waits, queued, at 0 %
    const listed = (await status()).tasks;
    expect(listed.map((x) => [x.taskId, x.fileId, x.name, x.path, x.username])).toEqual([
      [firstTask, first, 'long.mp4', '/', ADMIN.username],
      [secondTask, second, 'later.mp4', '/', ADMIN.username],
    ]);
    for (const task of listed) {
      expect(['queued', 'running']).toContain(task.state);
      if (task.state === 'queued') expect(task.progress).toBe(0);
    }
    // a view finds the same task rather than queueing a second one
    expect(await underWay(first)).toBe(firstTask);
    await transcoded(admin.token, first);
    await transcoded(admin.token, second);
    expect((await status()).tasks).toEqual([]);
    expect(await transcodeJobs(first)).toEqual([{ id: firstTask, state: 'done' }]);
    expect(await transcodeJobs(second)).toEqual([{ id: secondTask, state: 'done' }]);
  }, 180_000);

  it('does not try a failed transcode again after a restart, until the content changes', async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'broken.mp4', brokenVideo);
    const taskId = await underWay(id);
    expect((await t.app.services.jobs.waitFor(taskId, 90_000)).state).toBe('failed');
    expect((await info(admin.token, id)).body.data!.hls).toMatchObject({ state: 'failed' });
    await t.restart();
    Object.assign(admin, await login(t.app, ADMIN.username, ADMIN.password));
    const seen = await info(admin.token, id);
    expect(seen.body.data!.video).toMatchObject({ height: 360 });
    expect(seen.body.data!.hls).toMatchObject({ state: 'failed', taskId: null });
    expect((await status()).tasks).toEqual([]);
    expect(await transcodeJobs(id)).toEqual([{ id: taskId, state: 'failed' }]);
    // whole bytes this time: tried again, and made
    await replaceContent(id, 'broken.mp4', longVideo);
    const again = await underWay(id);
    expect(again).not.toBe(taskId);
    await transcoded(admin.token, id);
  }, 240_000);

  it('does not try again a transcode the server died during as often as its attempts allow', async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'long.mp4', longVideo);
    const taskId = await underWay(id);
    await t.app.services.jobs.stop();
    // as a server killed on the job's second run leaves it (ffmpeg took it down, say)
    await t.database.db
      .updateTable('job')
      .set({ state: 'running', attempts: 2, workerId: 'gone', leaseUntil: Date.now() - 1000 })
      .where('id', '=', taskId)
      .execute();
    await t.restart();
    Object.assign(admin, await login(t.app, ADMIN.username, ADMIN.password));
    await expect
      .poll(async () => (await info(admin.token, id)).body.data!.hls?.state, { timeout: 20_000 })
      .toBe('failed');
    expect((await status()).tasks).toEqual([]);
    expect(await transcodeJobs(id)).toEqual([{ id: taskId, state: 'failed' }]);
  }, 120_000);

  it('does not queue a cancelled transcode again when the video is viewed during the cancel', async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'long.mp4', longVideo);
    const taskId = await underWay(id);
    // a view that arrives between the job's end and the record of why it ended
    const { jobs } = t.app.services;
    const cancelJob = jobs.cancel.bind(jobs);
    let viewing: Promise<unknown> | undefined;
    jobs.cancel = async (jobId: string) => {
      const done = await cancelJob(jobId);
      viewing = info(admin.token, id);
      await Promise.race([viewing, new Promise((r) => setTimeout(r, 500))]);
      return done;
    };
    try {
      const cancel = await cancelTranscodes({ fileIds: [id] });
      expect(cancel.body.data).toEqual({ cancelled: 1 });
    } finally {
      jobs.cancel = cancelJob;
    }
    await viewing;
    expect((await status()).tasks).toEqual([]);
    expect(await transcodeJobs(id)).toEqual([{ id: taskId, state: 'cancelled' }]);
  }, 120_000);

  it('does not start a cancelled transcode again after a restart, until the settings change', async () => {
    await enableTranscoding(admin.token);
    const id = await putFile(t, owner(), '/', 'long.mp4', longVideo);
    const taskId = await underWay(id);
    const cancel = await cancelTranscodes({ fileIds: [id] });
    expect(cancel.body.data).toEqual({ cancelled: 1 });
    await t.restart();
    Object.assign(admin, await login(t.app, ADMIN.username, ADMIN.password));
    expect((await info(admin.token, id)).body.data!.hls).toEqual({
      state: 'none',
      progress: 0,
      taskId: null,
    });
    expect((await status()).tasks).toEqual([]);
    expect(await transcodeJobs(id)).toEqual([{ id: taskId, state: 'cancelled' }]);
    // new settings are worth another try
    await enableTranscoding(admin.token, { bitrate: 500 });
    const again = await underWay(id);
    expect(again).not.toBe(taskId);
    expect((await status()).tasks.map((x) => x.taskId)).toEqual([again]);
    // cancelled again, then new content is tried too
    await cancelTranscodes({ taskIds: [again] });
    expect((await info(admin.token, id)).body.data!.hls?.state).toBe('none');
    await replaceContent(id, 'long.mp4', Buffer.concat([longVideo, Buffer.from('more')]));
    const third = await underWay(id);
    expect([taskId, again]).not.toContain(third);
    // the record goes with the file when it is deleted for good
    await cancelTranscodes({ taskIds: [third] });
    const recorded = () =>
      t.database.db
        .selectFrom('transcodeFailure')
        .select('reason')
        .where('fileId', '=', id)
        .execute();
    expect(await recorded()).toEqual([{ reason: 'cancelled' }]);
    const gone = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [id], sweep: 'true' },
    });
    expect(gone.body.code, gone.body.message).toBe(0);
    expect(await recorded()).toEqual([]);
  }, 180_000);
});

describe('the Video Transcoding settings', () => {
  it('keeps the settings, off by default, for administrators only', async () => {
    const first = await call<TranscodeConfigView>(t.app, 'GET', '/cloud/setting/transcode/config', {
      token: admin.token,
    });
    expect(first.body.data).toMatchObject({
      enable: false,
      maxThreads: 1,
      bitrateCond: 2500,
      heightCond: 720,
      frameRateCond: 30,
      vttThumbnailCount: 60,
    });
    const saved = await enableTranscoding(admin.token, { maxThreads: 3 });
    expect(saved.body.data).toMatchObject({ enable: true, maxThreads: 3, height: 240 });
    const over = await enableTranscoding(admin.token, { maxThreads: 9 });
    expect(over.body.code).toBe(10);
    const user = await makeUser(t.app, admin.token);
    const refused = await call(t.app, 'GET', '/cloud/setting/transcode/config', {
      token: user.token,
    });
    expect(refused.body.code).toBe(8);
    const cancel = await call(t.app, 'PUT', '/cloud/setting/transcode/cancel-task', {
      token: user.token,
      body: {},
    });
    expect(cancel.body.code).toBe(8);
  });

  it('cancels the transcodes under way', async () => {
    const res = await call<{ cancelled: number }>(
      t.app,
      'PUT',
      '/cloud/setting/transcode/cancel-task',
      { token: admin.token, body: {} },
    );
    expect(res.body).toMatchObject({ code: 0, data: { cancelled: 0 } });
  });
});
