/**
 * Image targets of issue 11 (measured, never asserted in tests): the thumbnail of a 24-megapixel
 * JPEG beside sharp called directly with the same pipeline; a grid page of 100 thumbnails served
 * from the cache beside reading the same files from disk; 1,000 thumbnails made with the server's
 * memory and its image work at once watched beside its idle memory. Runs the real server (the
 * bundle `npm start` runs) on a temporary SQLite data folder.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { Report, freePort } from './harness.ts';

const report = new Report('images');

const USER = { username: 'bench', password: 'bench-password-1' };
const WORKERS = 2;
const GRID = 100;
const MANY = 1000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** The resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Run `work` over `items`, `parallel` at a time (a browser fetches a grid about six at once). */
async function pool<T>(items: T[], parallel: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-images-'));
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-images-in-'));
  const children: ChildProcess[] = [];
  try {
    // ---- photos: a 24 MP JPEG with detail in it, and a 2 MP one for the grid and the many ----
    const big = path.join(scratch, 'big.jpg');
    await sharp({
      create: {
        width: 6000,
        height: 4000,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 90 })
      .toFile(big);
    const small = await sharp({
      create: {
        width: 1600,
        height: 1200,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 40 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();

    // ---- the reference: sharp by hand, the same pipeline the server runs ------------------
    const byHand: number[] = [];
    for (let i = 0; i < 5; i++) {
      const at = process.hrtime.bigint();
      await sharp(big, { failOn: 'none' })
        .rotate()
        .resize(256, 256, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 72, effort: 2 })
        .toBuffer();
      byHand.push(ms(at));
    }

    // ---- the server, a user and the photos on disk, indexed --------------------------------
    const root = path.join(dataDir, 'files', USER.username);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NIMBUS_PORT: String(port),
      NIMBUS_HOST: '127.0.0.1',
      NIMBUS_DATA_DIR: dataDir,
      NIMBUS_LOG_LEVEL: 'warn',
      NIMBUS_IMAGE_WORKERS: String(WORKERS),
    };
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
    const headers = { 'nimbus-token': token };
    const list = async (folder: string) => {
      const res = await fetch(
        `${base}/list?currentDirectory=${encodeURIComponent(folder)}&pageSize=1000`,
        { headers },
      );
      return ((await res.json()) as { data: Array<{ id: string; name: string }> }).data ?? [];
    };
    // OCR reads photos too: off, so the figures are the image work's alone
    await fetch(`${base}/cloud/setting/ocr/config`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ enable: false, maxTasks: 1 }),
    });
    fs.mkdirSync(path.join(root, 'big'), { recursive: true });
    fs.mkdirSync(path.join(root, 'grid'), { recursive: true });
    fs.mkdirSync(path.join(root, 'many'), { recursive: true });
    for (let i = 0; i < 5; i++) fs.copyFileSync(big, path.join(root, 'big', `big-${i}.jpg`));
    for (let i = 0; i < GRID; i++) fs.writeFileSync(path.join(root, 'grid', `g-${i}.jpg`), small);
    for (let i = 0; i < MANY; i++) fs.writeFileSync(path.join(root, 'many', `m-${i}.jpg`), small);
    await fetch(`${base}/user/setting/sync?path=%2F`, { headers });
    for (let i = 0; (await list('/many')).length < MANY; i++) {
      if (i > 600) throw new Error('the photos were not indexed');
      await sleep(200);
    }
    // the facts of new photos are read in the background: let that settle first
    await sleep(3000);
    const thumbnail = async (id: string) => {
      const res = await fetch(`${base}/view/thumbnail?id=${id}`, { headers });
      if (res.status !== 200) throw new Error(`thumbnail ${id}: ${res.status}`);
      await res.arrayBuffer();
    };

    // ---- 1: the thumbnail of a 24 MP JPEG, made on request --------------------------------
    const cold: number[] = [];
    for (const entry of await list('/big')) {
      const at = process.hrtime.bigint();
      await thumbnail(entry.id);
      cold.push(ms(at));
    }
    report.record({
      what: 'thumbnail of a 24 MP JPEG, made on request',
      measured: `median ${median(cold).toFixed(0)} ms of ${cold.length}`,
      reference: `sharp by hand, the same pipeline: median ${median(byHand).toFixed(0)} ms of ${byHand.length}`,
      target: '< 300 ms',
      met: median(cold) < 300,
    });

    // ---- 2: a grid page of 100 thumbnails from the cache ----------------------------------
    const grid = await list('/grid');
    await pool(grid, 6, (entry) => thumbnail(entry.id));
    const cacheDir = path.join(dataDir, 'cache', 'thumbnail');
    const cached = fs.readdirSync(cacheDir).slice(0, GRID);
    let at = process.hrtime.bigint();
    for (const name of cached) fs.readFileSync(path.join(cacheDir, name));
    const fromDisk = ms(at);
    const pages: number[] = [];
    for (let round = 0; round < 5; round++) {
      at = process.hrtime.bigint();
      await pool(grid, 6, (entry) => thumbnail(entry.id));
      pages.push(ms(at));
    }
    // the reference: the same ids through the lightest JSON route (sign-in check and one row)
    const infos: number[] = [];
    for (let round = 0; round < 5; round++) {
      at = process.hrtime.bigint();
      await pool(grid, 6, async (entry) => {
        await (await fetch(`${base}/file_info?id=${entry.id}`, { headers })).arrayBuffer();
      });
      infos.push(ms(at));
    }
    report.record({
      what: `a grid page of ${GRID} cached thumbnails, 6 requests at a time`,
      measured: `median ${median(pages).toFixed(0)} ms in all; a page seen before costs no request (immutable, versioned addresses)`,
      reference: `reading the ${GRID} files: ${fromDisk.toFixed(1)} ms; ${GRID} × /file_info: median ${median(infos).toFixed(0)} ms`,
      target: '< 100 ms',
      met: median(pages) < 100,
    });

    // ---- 3: 1,000 thumbnails made, memory and work at once watched ---------------------------
    const idle = rssMb(server.pid!);
    let peak = idle;
    let busiest = 0;
    const tmp = path.join(dataDir, 'tmp');
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        peak = Math.max(peak, rssMb(server.pid!));
        // every image job works in a scratch folder of its own
        const folders = fs.existsSync(tmp)
          ? fs.readdirSync(tmp, { withFileTypes: true }).filter((e) => e.isDirectory()).length
          : 0;
        busiest = Math.max(busiest, folders);
        await sleep(20);
      }
    })();
    const many = await list('/many');
    at = process.hrtime.bigint();
    await pool(many, 16, (entry) => thumbnail(entry.id));
    const took = ms(at) / 1000;
    watching = false;
    await watcher;
    report.record({
      what: `${MANY} thumbnails of 2 MP photos, 16 requests at a time`,
      measured: `peak RSS ${peak.toFixed(0)} MB; ${took.toFixed(1)} s, ${(MANY / took).toFixed(0)}/s`,
      reference: `server idle: ${idle.toFixed(0)} MB`,
      target: '< 400 MB',
      met: peak < 400,
    });
    report.record({
      what: `image work at once during those (NIMBUS_IMAGE_WORKERS=${WORKERS})`,
      measured: `at most ${busiest} seen`,
      target: `≤ ${WORKERS}`,
      met: busiest <= WORKERS,
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
