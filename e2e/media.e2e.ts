import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clickWhenStill,
  createAdmin,
  DESKTOP,
  PHONE,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  openSignedIn,
} from './harness.ts';

// Audio and video as people use them: a song opens the floating player, which shows its tags
// and cover and keeps playing while the user moves around the app, and closes; a second song
// joins the playlist; a video above the transcoding conditions is transcoded to HLS in the
// background and plays through hls.js; a visitor of a share, without an account, plays both
// through the share's addresses. The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let userId = '';
let scratch = '';

function ffmpeg(args: string[]): void {
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}

/** Media made by ffmpeg now, written into the admin's tree on disk, then indexed. */
async function seed(): Promise<void> {
  const root = path.join(server.dataDir, 'files', ADMIN.username);
  fs.mkdirSync(path.join(root, 'music'), { recursive: true });
  fs.mkdirSync(path.join(root, 'movies'), { recursive: true });
  const cover = path.join(scratch, 'cover.png');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=128x128', '-frames:v', '1', cover]);
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=20', '-i', cover],
    ...['-map', '0:a', '-map', '1:v', '-c:a', 'libmp3lame', '-q:a', '6', '-c:v', 'mjpeg'],
    ...['-id3v2_version', '3', '-disposition:v', 'attached_pic'],
    ...['-metadata', 'title=晴天 Sunny', '-metadata', 'artist=Nimbus Band'],
    ...['-metadata', 'album=Test Album', path.join(root, 'music', 'song.mp3')],
  ]);
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'sine=frequency=660:duration=20'],
    ...['-c:a', 'libmp3lame', '-q:a', '6', path.join(root, 'music', 'plain tune.mp3')],
  ]);
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=12'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=330:duration=12'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-shortest', path.join(root, 'movies', 'clip.mp4')],
  ]);
  // small enough to need no transcode: it plays as it is
  fs.mkdirSync(path.join(root, 'clips'), { recursive: true });
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=8'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=550:duration=8'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
    ...['-movflags', '+faststart', '-shortest', path.join(root, 'clips', 'small.mp4')],
  ]);
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2Fmovies', {
          token,
        }).catch(() => [])
      ).length === 1,
    'the media files are indexed',
    30_000,
  );
}

const item = (name: string) => page.locator(`[data-testid="file-item"][data-name="${name}"]`);
const player = () => page.getByTestId('audio-player');
const audioState = () =>
  page.getByTestId('audio-element').evaluate((el) => {
    const audio = el as HTMLAudioElement;
    return { time: audio.currentTime, paused: audio.paused };
  });

/** Route inside the app (the address bar would reload the page and stop the music). */
async function visit(url: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
}

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-media-e2e-'));
  server = await startServer();
  const data = await createAdmin(server, ADMIN);
  token = data.token;
  userId = data.userId;
  // transcode anything taller than 240 lines
  await api(server, 'PUT', '/cloud/setting/transcode/config', {
    token,
    body: {
      enable: true,
      maxThreads: 1,
      bitrateCond: 2500,
      heightCond: 240,
      frameRateCond: 30,
      bitrate: 800,
      height: 240,
      frameRate: 25,
      vttThumbnailCount: 60,
      isReTranscode: false,
    },
  });
  await seed();
  ({ browser, context, page } = await openSignedIn(server, {
    token,
    userId,
    username: ADMIN.username,
  }));
}, 90_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('audio and video', () => {
  it('keeps the player hidden until a song is opened, then shows its tags and plays', async () => {
    expect(await player().count()).toBe(0);
    await visit('/?path=%2Fmusic');
    await item('song.mp3').dblclick();
    await player().waitFor({ state: 'visible' });
    await until(
      async () => (await page.getByTestId('audio-song-name').innerText()) === '晴天 Sunny',
      'the song name shows',
    );
    expect(await page.getByTestId('audio-singer').innerText()).toBe('Nimbus Band');
    const cover = page.getByTestId('audio-cover');
    await until(
      async () => (await cover.evaluate((img) => (img as HTMLImageElement).naturalWidth)) > 0,
      'the cover loads',
    );
    await until(async () => (await audioState()).time > 0.5, 'the song plays');
    await saveScreenshot(page, 'media-audio-player');
  });

  it('keeps playing while the user moves around the app', async () => {
    const before = (await audioState()).time;
    await visit('/video');
    await page.locator('[data-testid="files-view"][data-kind="video"]').waitFor();
    await until(async () => (await audioState()).time > before + 0.5, 'the song goes on');
    expect((await audioState()).paused).toBe(false);
    await visit('/?path=%2Fmusic');
    await item('plain tune.mp3').waitFor();
  });

  it('adds a second song to the playlist, named after its file', async () => {
    await item('plain tune.mp3').dblclick();
    await until(
      async () => (await page.getByTestId('audio-song-name').innerText()) === 'plain tune',
      'the second song is current',
    );
    await page.getByTestId('audio-playlist-toggle').click();
    const list = page.getByTestId('audio-playlist');
    await list.waitFor();
    expect(await list.locator('li').count()).toBe(2);
    expect(await list.innerText()).toContain('晴天 Sunny');
    await until(async () => (await audioState()).time > 0.3, 'the second song plays');
    await saveScreenshot(page, 'media-audio-playlist');
    // on a phone the player fits the screen's width
    await page.setViewportSize(PHONE);
    await until(
      async () => ((await player().boundingBox())?.width ?? 999) <= PHONE.width,
      'the player fits a phone',
    );
    await saveScreenshot(page, 'media-audio-player-phone');
    await page.setViewportSize(DESKTOP);
  });

  it('hides and pauses when closed', async () => {
    await page.getByTestId('audio-close').click();
    await player().waitFor({ state: 'hidden' });
    expect((await audioState()).paused).toBe(true);
  });

  it("shows a song's tags in the details drawer", async () => {
    await visit('/?path=%2Fmusic');
    await item('song.mp3').click();
    await page.keyboard.press('Space');
    const section = page.getByTestId('details-media');
    await section.waitFor();
    const text = await section.innerText();
    expect(text).toContain('Nimbus Band');
    expect(text).toContain('Test Album');
    await saveScreenshot(page, 'media-details');
    await page.keyboard.press('Escape');
  });

  it('plays a transcoded video through HLS', async () => {
    const [clip] = await api<{ id: string }[]>(server, 'GET', '/list?currentDirectory=%2Fmovies', {
      token,
    });
    // the rendition is made in the background; asking for the info starts it if need be
    await until(
      async () =>
        (
          await api<{ hls: { state: string } | null }>(
            server,
            'GET',
            `/media/info?id=${clip!.id}`,
            { token },
          )
        ).hls?.state === 'done',
      'the video is transcoded',
      60_000,
    );
    await visit('/?path=%2Fmovies');
    await item('clip.mp4').dblclick();
    const video = page.getByTestId('video-element');
    await video.waitFor({ state: 'visible' });
    expect(await video.getAttribute('data-mode')).toBe('hls');
    await until(
      async () => (await video.evaluate((el) => (el as HTMLVideoElement).currentTime)) > 1,
      'the video plays',
      20_000,
    );
    const size = await video.evaluate((el) => {
      const v = el as HTMLVideoElement;
      return { width: v.videoWidth, height: v.videoHeight, src: v.currentSrc };
    });
    // the 240-line rendition, from a MediaSource (hls.js), not the file itself
    expect(size.height).toBe(240);
    expect(size.src.startsWith('blob:')).toBe(true);
    await saveScreenshot(page, 'media-video-hls');
    await page.keyboard.press('Escape');
    await page.getByTestId('video-viewer').waitFor({ state: 'detached' });
  });
});

describe('the Video Transcoding settings', () => {
  it('shows the settings the server keeps', async () => {
    await visit('/setting/cloudManager?tab=transcode');
    const tab = page.getByTestId('transcode-tab');
    await tab.waitFor({ state: 'visible' });
    const height = tab.locator('#height, input[id$="height"]').first();
    await until(async () => (await height.inputValue()) === '240', 'the target height shows');
    expect(await tab.getByRole('switch').first().getAttribute('aria-checked')).toBe('true');
    await saveScreenshot(page, 'media-transcode-settings');
  });

  it('lists the transcodes under way, and stops one, then the rest', async () => {
    const root = path.join(server.dataDir, 'files', ADMIN.username, 'long');
    fs.mkdirSync(root, { recursive: true });
    for (const name of ['first talk.mp4', 'second talk.mp4'])
      ffmpeg([
        ...['-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=25:duration=180'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
        path.join(root, name),
      ]);
    await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
    let videos: { id: string; name: string }[] = [];
    await until(
      async () => {
        videos = await api<{ id: string; name: string }[]>(
          server,
          'GET',
          '/list?currentDirectory=%2Flong',
          { token },
        ).catch(() => []);
        return videos.length === 2;
      },
      'the long videos are indexed',
      30_000,
    );
    // opening them starts their transcodes: one at a time, the other waits
    for (const video of videos) await api(server, 'GET', `/media/info?id=${video.id}`, { token });
    await visit('/setting/cloudManager?tab=transcode');
    const queue = page.getByTestId('transcode-queue');
    const rows = queue.locator('tbody tr.ant-table-row');
    // the tab was open, with nothing under way: the list looks again now and then, or at once
    await queue.getByRole('button', { name: 'Refresh' }).click();
    await until(async () => (await rows.count()) === 2, 'both transcodes are listed', 15_000);
    await until(
      async () => (await queue.locator('.ant-progress').count()) === 1,
      'one runs with its progress',
      15_000,
    );
    expect(await queue.getByText('Waiting').count()).toBe(1);
    expect(await queue.textContent()).toContain('Transcodes under way (2)');
    await saveScreenshot(page, 'media-transcode-queue');
    await page.setViewportSize(PHONE);
    await queue.scrollIntoViewIfNeeded();
    await queue.screenshot({
      path: path.join(
        path.dirname(await saveScreenshot(page, 'media-transcode-queue-phone')),
        'media-transcode-queue-phone-card.png',
      ),
      animations: 'disabled',
    });
    await page.setViewportSize(DESKTOP);

    // the waiting one, after asking
    const waiting = rows.filter({ hasText: 'Waiting' });
    const waitingName = (await waiting.locator('a').first().textContent()) ?? '';
    await waiting.getByRole('button', { name: 'Stop', exact: true }).click();
    await clickWhenStill(
      page.locator('.ant-popconfirm').last().getByRole('button', { name: 'Stop', exact: true }),
    );
    await until(async () => (await rows.count()) === 1, 'the stopped one leaves the list');
    expect(await rows.first().textContent()).not.toContain(waitingName);

    // then the rest
    await queue.getByRole('button', { name: 'Stop all' }).click();
    await clickWhenStill(
      page.locator('.ant-popconfirm').last().getByRole('button', { name: 'Stop all' }),
    );
    await queue.getByTestId('transcode-queue-empty').waitFor({ state: 'visible' });
    const stopped = await api<{ hls: { state: string } | null }>(
      server,
      'GET',
      `/media/info?id=${videos[0]!.id}`,
      { token },
    );
    // opening a stopped video does not start it again
    expect(stopped.hls?.state).toBe('none');
    expect(
      (await api<{ count: number }>(server, 'GET', '/cloud/transcode/status', { token })).count,
    ).toBe(0);
  });
});

describe('a video that needs no transcode', () => {
  it('streams the file itself with Range', async () => {
    const ranges: number[] = [];
    const onResponse = (response: { url(): string; status(): number }) => {
      if (new URL(response.url()).pathname.startsWith('/api/pre-file/'))
        ranges.push(response.status());
    };
    page.on('response', onResponse);
    await visit('/?path=%2Fclips');
    await item('small.mp4').dblclick();
    const video = page.getByTestId('video-element');
    await video.waitFor({ state: 'visible' });
    expect(await video.getAttribute('data-mode')).toBe('direct');
    await until(
      async () => (await video.evaluate((el) => (el as HTMLVideoElement).currentTime)) > 0.5,
      'the video plays',
    );
    page.off('response', onResponse);
    expect(ranges).toContain(206);
    await page.keyboard.press('Escape');
  });
});

describe('a share visitor without an account', () => {
  let visitor: { context: BrowserContext; page: Page };
  const shared = (name: string) =>
    visitor.page
      .getByTestId('share-browser')
      .locator(`[data-testid="file-item"][data-name="${name}"]`);

  beforeAll(async () => {
    const folders = await api<{ id: string; name: string }[]>(
      server,
      'GET',
      '/list?currentDirectory=%2F',
      { token },
    );
    for (const [name, shortId] of [
      ['movies', 'movies-share'],
      ['music', 'music-share'],
    ] as const) {
      const folder = folders.find((f) => f.name === name)!;
      await api(server, 'POST', '/share/generate', {
        token,
        body: { fileId: folder.id, isFolder: true, shortId },
      });
    }
    visitor = await openPage(browser, server);
  });
  afterAll(async () => {
    await visitor?.context.close();
  });

  it("plays a shared video through the share's HLS address", async () => {
    const { page: p } = visitor;
    const hls: string[] = [];
    p.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.includes('/video/hls/')) hls.push(pathname);
    });
    await p.goto('/s/movies-share');
    await shared('clip.mp4').dblclick();
    const video = p.getByTestId('video-element');
    await video.waitFor({ state: 'visible' });
    expect(await video.getAttribute('data-mode')).toBe('hls');
    await until(
      async () => (await video.evaluate((el) => (el as HTMLVideoElement).currentTime)) > 1,
      'the shared video plays',
      20_000,
    );
    expect(hls.length).toBeGreaterThan(1);
    expect(hls.every((x) => x.startsWith('/api/public/video/hls/'))).toBe(true);
    await saveScreenshot(p, 'media-share-video');
    await p.keyboard.press('Escape');
  });

  it('plays a shared song with its tags in the floating player', async () => {
    const { page: p } = visitor;
    await p.goto('/s/music-share');
    await shared('song.mp3').dblclick();
    await p.getByTestId('audio-player').waitFor({ state: 'visible' });
    await until(
      async () => (await p.getByTestId('audio-song-name').innerText()) === '晴天 Sunny',
      "the shared song's name shows",
    );
    expect(await p.getByTestId('audio-singer').innerText()).toBe('Nimbus Band');
    await until(
      async () =>
        (await p
          .getByTestId('audio-element')
          .evaluate((el) => (el as HTMLAudioElement).currentTime)) > 0.3,
      'the shared song plays',
    );
    await saveScreenshot(p, 'media-share-audio');
  });
});
