/**
 * Transcoding targets of issue 11 (measured, never asserted in tests): a transcode run by Nimbus
 * beside the same ffmpeg command run by hand, and folder listings while two transcodes run
 * beside listings of an idle server. Runs the real server (the bundle `npm start` runs) on a
 * temporary SQLite data folder.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { hlsArgs, probe, thumbnailTrack } from '../server/src/modules/media/programs/ffmpeg.ts';
import { Report, freePort, percentile } from './harness.ts';

const report = new Report('media');

const USER = { username: 'bench', password: 'bench-password-1' };
/** What the settings hold the rendition to (the same targets by hand). */
const TARGET = { bitrate: 1500, height: 480, frameRate: 30, threads: 0 };
/** Scrubbing previews a transcode draws into one sprite (the setting's default). */
const VTT_THUMBNAILS = 60;
const FILES_IN_FOLDER = 500;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;

async function main(): Promise<void> {
  if (spawnSync('ffmpeg', ['-version']).status !== 0) {
    console.log('ffmpeg is not installed: nothing to measure');
    return;
  }
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-media-'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-media-out-'));
  const children: ChildProcess[] = [];
  try {
    // ---- a 10 s 720p clip ------------------------------------------------------------------
    const source = path.join(scratch, 'source.mp4');
    spawnSync(
      'ffmpeg',
      [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=10'],
        ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=10'],
        ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac'],
        ...['-shortest', source],
      ],
      { stdio: 'inherit' },
    );
    const facts = await probe(source, AbortSignal.timeout(30_000));

    // ---- the reference: the same commands by hand (run again after Nimbus's, as load varies):
    // the HLS rendition, then the scrubbing previews' sprite a transcode also makes ----------
    const runByHand = async (n: number): Promise<number> => {
      const dir = path.join(scratch, `by-hand-${n}`);
      fs.mkdirSync(dir);
      const at = process.hrtime.bigint();
      const run = spawnSync('ffmpeg', hlsArgs(source, dir, 'clip', facts, TARGET), {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      if (run.status !== 0) throw new Error('ffmpeg by hand failed');
      await thumbnailTrack(source, dir, 'clip', facts, VTT_THUMBNAILS, AbortSignal.timeout(60_000));
      return seconds(at);
    };
    const handBefore = await runByHand(1);
    let started: bigint;

    // ---- the server, a user, a folder to list and the videos -------------------------------
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NIMBUS_PORT: String(port),
      NIMBUS_HOST: '127.0.0.1',
      NIMBUS_DATA_DIR: dataDir,
      NIMBUS_LOG_LEVEL: 'warn',
    };
    // SQLite in the fresh folder
    delete env.NIMBUS_DATABASE_URL;
    const server = spawn(process.execPath, [await ensureServerBuild()], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(server);
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/public/health`)).ok) break;
      } catch {
        // not up yet
      }
      if (i > 300) throw new Error('the server did not start');
      await sleep(100);
    }
    await fetch(`${base}/public/initialization`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(USER),
    });
    const login = (await (
      await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...USER, rememberMe: true }),
      })
    ).json()) as { data: Record<string, string> };
    const token = login.data['nimbus-token']!;
    const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          'nimbus-token': token,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const envelope = (await res.json()) as { code: number; message: string; data: T };
      if (envelope.code !== 0) throw new Error(`${method} ${url}: ${envelope.message}`);
      return envelope.data;
    };
    const tree = path.join(dataDir, 'files', USER.username);
    fs.mkdirSync(path.join(tree, 'docs'), { recursive: true });
    fs.mkdirSync(path.join(tree, 'videos'), { recursive: true });
    for (let i = 0; i < FILES_IN_FOLDER; i++)
      fs.writeFileSync(path.join(tree, 'docs', `note-${String(i).padStart(4, '0')}.txt`), `${i}`);
    for (const name of ['alone.mp4', 'first.mp4', 'second.mp4'])
      fs.copyFileSync(source, path.join(tree, 'videos', name));
    await call('GET', '/user/setting/sync?path=%2F');
    let videos: Array<{ id: string; name: string }> = [];
    for (let i = 0; videos.length < 3; i++) {
      videos = await call<typeof videos>('GET', '/list?currentDirectory=%2Fvideos').catch(() => []);
      if (i > 600) throw new Error('the videos were not indexed');
      await sleep(100);
    }
    const idOf = (name: string) => videos.find((v) => v.name === name)!.id;
    const listing = `/list?currentDirectory=%2Fdocs&pageSize=100`;
    const listOnce = async () => {
      const at = process.hrtime.bigint();
      await call('GET', listing);
      return seconds(at) * 1000;
    };
    // warm, then the idle reference
    for (let i = 0; i < 20; i++) await listOnce();
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) idle.push(await listOnce());

    const settings = {
      enable: true,
      bitrateCond: 2500,
      heightCond: 480,
      frameRateCond: 30,
      bitrate: TARGET.bitrate,
      height: TARGET.height,
      frameRate: TARGET.frameRate,
      vttThumbnailCount: VTT_THUMBNAILS,
      isReTranscode: false,
    };
    const state = async (id: string) =>
      (await call<{ hls: { state: string } | null }>('GET', `/media/info?id=${id}`)).hls?.state;
    const transcoded = async (id: string) => {
      for (;;) {
        const s = await state(id);
        if (s === 'done') return;
        if (s === 'failed') throw new Error('the transcode failed');
        await sleep(50);
      }
    };

    // ---- one transcode through Nimbus: asked for, queued, run, stored -----------------------
    await call('PUT', '/cloud/setting/transcode/config', { ...settings, maxThreads: 1 });
    started = process.hrtime.bigint();
    await transcoded(idOf('alone.mp4'));
    const byNimbus = seconds(started);
    const handAfter = await runByHand(2);
    const byHand = (handBefore + handAfter) / 2;

    // ---- two at once, and listings meanwhile ------------------------------------------------
    await call('PUT', '/cloud/setting/transcode/config', { ...settings, maxThreads: 2 });
    started = process.hrtime.bigint();
    const both = Promise.all([transcoded(idOf('first.mp4')), transcoded(idOf('second.mp4'))]);
    let finished = false;
    void both.then(() => (finished = true));
    const busy: number[] = [];
    while (!finished) busy.push(await listOnce());
    await both;
    const twoAtOnce = seconds(started);

    const speed = byHand / byNimbus;
    report.record({
      what: 'transcode of a 10 s 720p clip to 480p HLS and its preview sprite',
      measured: `${byNimbus.toFixed(2)} s through Nimbus, ${speed.toFixed(2)}× the hand run's speed`,
      reference: `the same ffmpeg commands by hand: ${handBefore.toFixed(2)} s before, ${handAfter.toFixed(2)} s after`,
      target: '≥ 0.9× the hand run',
      met: speed >= 0.9,
    });
    report.record({
      what: `machine load average during the run (${os.cpus().length} cores)`,
      measured: os.loadavg()[0]!.toFixed(1),
    });
    report.record({
      what: 'two such transcodes at once (maxThreads 2)',
      measured: `${twoAtOnce.toFixed(2)} s for both`,
    });
    const idleP95 = percentile(idle, 95);
    const busyP95 = percentile(busy, 95);
    report.record({
      what: `listing 100 of ${FILES_IN_FOLDER} files while two transcodes run`,
      measured: `p95 ${busyP95.toFixed(1)} ms, p50 ${percentile(busy, 50).toFixed(1)} ms over ${busy.length} calls`,
      reference: `idle server: p95 ${idleP95.toFixed(1)} ms, p50 ${percentile(idle, 50).toFixed(1)} ms over ${idle.length} calls`,
      target: '< 50 ms p95',
      met: busyP95 < 50,
    });
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await sleep(500);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  }

  report.print();
}

await main();
