/**
 * WebDAV targets (issue 14; measured, never asserted in tests): PROPFIND of depth 1 on folders of
 * 10,000 and 100,000 files, and a 1 GiB PUT, against `rclone serve webdav` on the same folders of
 * the same disk. Nimbus runs as its real server (the bundle) in a child process on a temporary
 * SQLite data folder; rclone serves the user's tree that Nimbus mirrors on disk.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { buildApp } from '../server/src/app.ts';
import { testConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/index.ts';
import { newId } from '../server/src/lib/ids.ts';
import type { NewFileRow } from '../server/src/modules/files/files.repo.ts';
import { diskFigure, freePort, Report } from './harness.ts';

const root = path.resolve(import.meta.dirname, '..');
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const USER = 'bench';
const PASSWORD = 'bench-password';
const report = new Report('webdav');

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url, { method: 'OPTIONS' });
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

/** One request, its body read to the end: status, bytes and seconds. */
function timed(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: () => AsyncIterable<Buffer>,
): Promise<{ status: number; bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.request(url, { method, headers }, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          bytes,
          seconds: Number(process.hrtime.bigint() - started) / 1e9,
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!body) {
      req.end();
      return;
    }
    void (async () => {
      for await (const chunk of body())
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      req.end();
    })().catch(reject);
  });
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-dav-'));
  const children: ChildProcess[] = [];
  try {
    // ---- seed: folders of 10,000 and 100,000 files, rows and bytes ----
    const config = testConfig({ dataDir, logLevel: 'silent' });
    const database = openDatabase(config);
    const app = await buildApp({ config, database, logger: false });
    const { users, files, db } = app.services;
    const owner = await users.initialize(USER, PASSWORD);
    const actor = (await app.services.auth.actorFor(owner.id))!;
    const t0 = performance.now();
    for (const count of [10_000, 100_000]) {
      const folder = await files.newFolder(actor, '/', `f${count}`);
      const dir = files.blobs.folder(USER, `/f${count}/`);
      const now = Date.now();
      let batch: NewFileRow[] = [];
      for (let i = 0; i < count; i++) {
        const name = `file-${String(i).padStart(6, '0')}.txt`;
        fs.writeFileSync(path.join(dir, name), '0123456789');
        batch.push({
          id: newId(),
          userId: owner.id,
          parentId: folder.id,
          name,
          path: `/f${count}/`,
          isFolder: 0,
          size: 10,
          contentType: 'text/plain',
          suffix: 'txt',
          fileType: 'document',
          hash: null,
          uploadDate: now,
          updateDate: now,
          isFavorite: 0,
          media: null,
          childrenCount: 0,
          trashId: null,
          trashedAt: null,
        });
        if (batch.length === 500 || i === count - 1) {
          const rowsOf = batch;
          await db.transaction().execute((trx) => files.repo.insertMany(rowsOf, trx));
          batch = [];
        }
      }
      await files.repo.adjustChildren(folder.id, count);
    }
    await app.services.searchIndex.repair();
    const seedSeconds = (performance.now() - t0) / 1000;
    await app.close();
    await database.close();

    // ---- Nimbus (the bundle) and rclone serve webdav on the same tree ----
    const port = await freePort();
    const server = spawn(process.execPath, [await ensureServerBuild()], {
      cwd: root,
      env: {
        ...process.env,
        NIMBUS_PORT: String(port),
        NIMBUS_HOST: '127.0.0.1',
        NIMBUS_DATA_DIR: dataDir,
        NIMBUS_LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    });
    children.push(server);
    const rclonePort = await freePort();
    const hasRclone = spawnSync('rclone', ['version'], { stdio: 'ignore' }).status === 0;
    if (hasRclone) {
      const rclone = spawn(
        'rclone',
        ['serve', 'webdav', files.blobs.folder(USER, '/'), '--addr', `127.0.0.1:${rclonePort}`],
        { stdio: 'ignore', env: { ...process.env, RCLONE_CONFIG: '/dev/null' } },
      );
      children.push(rclone);
    }
    const nimbus = `http://127.0.0.1:${port}/webdav`;
    const peer = `http://127.0.0.1:${rclonePort}`;
    await waitFor(`${nimbus}/`);
    if (hasRclone) await waitFor(`${peer}/`);
    // let the server's start-up work (the index repair pass) finish before measuring
    await new Promise((r) => setTimeout(r, 3000));
    const auth = {
      authorization: `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`,
    };
    report.record({
      what: 'seed 110,000 files (rows and bytes)',
      measured: `${seedSeconds.toFixed(1)} s`,
    });

    // ---- PROPFIND depth 1 ----
    for (const count of [10_000, 100_000]) {
      const runs = count === 10_000 ? 7 : 3;
      const measure = async (url: string, headers: Record<string, string>) => {
        const seconds: number[] = [];
        let bytes = 0;
        for (let i = 0; i < runs + 1; i++) {
          const r = await timed(url, 'PROPFIND', { depth: '1', ...headers });
          if (r.status !== 207) throw new Error(`${url}: PROPFIND answered ${r.status}`);
          bytes = r.bytes;
          // the first run warms the caches of both
          if (i > 0) seconds.push(r.seconds);
        }
        return { seconds: median(seconds), bytes };
      };
      const ours = await measure(`${nimbus}/f${count}/`, auth);
      const zipped = await measure(`${nimbus}/f${count}/`, { ...auth, 'accept-encoding': 'gzip' });
      const theirs = hasRclone ? await measure(`${peer}/f${count}/`, {}) : null;
      report.record({
        what: `PROPFIND depth 1, ${count.toLocaleString('en')} entries (median of ${runs})`,
        measured: `${ours.seconds.toFixed(3)} s (${(ours.bytes / MiB).toFixed(1)} MiB; gzip ${zipped.seconds.toFixed(3)} s, ${(zipped.bytes / MiB).toFixed(1)} MiB)`,
        reference: theirs
          ? `rclone serve webdav ${theirs.seconds.toFixed(3)} s (${(theirs.bytes / MiB).toFixed(1)} MiB)`
          : 'rclone not installed',
        target: '< rclone',
        met: theirs ? ours.seconds < theirs.seconds : null,
      });
    }

    // ---- PUT 1 GiB ----
    const block = randomBytes(MiB);
    const gib = async function* () {
      for (let i = 0; i < 1024; i++) yield block;
    };
    const put = async (url: string, headers: Record<string, string>) => {
      const r = await timed(url, 'PUT', { 'content-length': String(GiB), ...headers }, gib);
      if (r.status !== 201 && r.status !== 204) throw new Error(`${url}: PUT answered ${r.status}`);
      return GiB / r.seconds;
    };
    const ourRate = await put(`${nimbus}/big-1g.bin`, auth);
    const theirRate = hasRclone ? await put(`${peer}/big-1g-rclone.bin`, {}) : null;
    // the run's disk figure, the one every upload of the run is compared with
    const ddRate = diskFigure();
    report.record({
      what: 'PUT 1 GiB',
      measured: `${(ourRate / MiB).toFixed(0)} MiB/s (${((ourRate / ddRate) * 100).toFixed(0)}% of dd)`,
      reference: `${theirRate ? `rclone serve webdav ${(theirRate / MiB).toFixed(0)} MiB/s` : 'rclone not installed'}; dd ${(ddRate / MiB).toFixed(0)} MiB/s`,
      target: '≥ 3 × rclone',
      met: theirRate ? ourRate >= 3 * theirRate : null,
    });
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  report.print();
}

await main();
