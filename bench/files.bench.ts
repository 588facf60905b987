/**
 * File tree, download, zip and upload targets of the drive (issue targets; measured, never
 * asserted in tests). Runs a real Nimbus server as a child process on a temporary SQLite data
 * folder and nginx (Debian's nginx-light, installed when missing and allowed) on the same files;
 * every download is read with curl (`curlDownload`), so a figure measures the server.
 *
 * FILES_BENCH_IDLE_SECONDS (default 300; 0 skips the figure): how long the server is left idle
 * before the "after idle" download.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import { buildApp } from '../server/src/app.ts';
import { testConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/index.ts';
import { newId } from '../server/src/lib/ids.ts';
import type { NewFileRow } from '../server/src/modules/files/files.repo.ts';
import { curlDownload, curlUpload, diskFigure, freePort, percentile, Report } from './harness.ts';

const root = path.resolve(import.meta.dirname, '..');
const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
/** The parallel downloads: this many different files of PART_MIB MiB at once. */
const PARALLEL = 16;
const PART_MIB = 64;
const report = new Report('files');
// the account's password, made for this run (WebDAV signs in with it)
const PASSWORD = randomBytes(18).toString('base64url');
const IDLE_SECONDS = Number(process.env.FILES_BENCH_IDLE_SECONDS ?? 300);
if (!Number.isFinite(IDLE_SECONDS) || IDLE_SECONDS < 0)
  throw new Error('FILES_BENCH_IDLE_SECONDS: a number of seconds, 0 to skip the idle figure');

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      const res = await fetch(url);
      if (res.status < 500) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

function ensureNginx(): string | null {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
  if (found) return found;
  if (process.getuid?.() !== 0) return null;
  spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'nginx-light'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p)) ?? null;
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-'));
  // nginx's workers read the same files
  fs.chmodSync(dataDir, 0o755);
  const children: ChildProcess[] = [];
  // folders removed at the end besides the data folder (nginx's configuration and temporary files)
  const leftovers: string[] = [];
  try {
    // ---- seed: 100,000 files in one folder, a folder with 100,000 descendants, big files ----
    const config = testConfig({ dataDir, logLevel: 'silent' });
    const database = openDatabase(config);
    const app = await buildApp({ config, database, logger: false });
    const { users, files, fileOps, indexer, db } = app.services;
    const owner = await users.initialize('bench', PASSWORD);
    const actor = (await app.services.auth.actorFor(owner.id))!;
    const bigFolder = await files.newFolder(actor, '/', 'hundred-k');
    const tree = await files.newFolder(actor, '/', 'tree');
    const now = Date.now();
    const seed = async (parentId: string, prefix: string, count: number, nest: boolean) => {
      let batch: NewFileRow[] = [];
      for (let i = 0; i < count; i++) {
        const sub = nest ? `${prefix}d${Math.floor(i / 1000)}/` : prefix;
        batch.push({
          id: newId(),
          userId: owner.id,
          parentId,
          // rows without bytes on disk: archives, a type the server's text reading never opens,
          // so it does not look for 200,000 missing files while the figures are measured
          name: `file-${String(i).padStart(6, '0')}-${(i * 7919) % 100000}.gz`,
          path: sub,
          isFolder: 0,
          size: 10,
          contentType: 'application/gzip',
          suffix: 'gz',
          fileType: 'archive',
          hash: null,
          uploadDate: now - i,
          updateDate: now - i,
          isFavorite: 0,
          media: null,
          childrenCount: 0,
          trashId: null,
          trashedAt: null,
        });
        if (batch.length === 500) {
          await db.transaction().execute((trx) => files.repo.insertMany(batch, trx));
          batch = [];
        }
      }
      if (batch.length) await db.transaction().execute((trx) => files.repo.insertMany(batch, trx));
    };
    let t0 = performance.now();
    await seed(bigFolder.id, '/hundred-k/', 100_000, false);
    await seed(tree.id, '/tree/', 100_000, true);
    const seedSeconds = (performance.now() - t0) / 1000;
    // a server yields to its event loop between requests, and the planner's statistics are
    // refreshed there after a bulk write; this loop of awaits on synchronous SQLite never yields
    await new Promise((resolve) => setTimeout(resolve, 500));

    // ---- first page of a 100,000-file folder, sorted by name ----
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const s = performance.now();
      await files.list(actor, {
        currentDirectory: '/hundred-k',
        sortableProp: 'name',
        order: i % 2 ? 'ascending' : 'descending',
        pageIndex: 1,
        pageSize: 100,
      });
      times.push(performance.now() - s);
    }
    const p95 = percentile(times, 95);
    report.record({
      what: 'first page of 100,000 files by name (SQLite)',
      measured: `p95 ${p95.toFixed(1)} ms, p50 ${percentile(times, 50).toFixed(1)} ms`,
      target: 'p95 < 50 ms',
      met: p95 < 50,
    });

    // ---- rename and move of a folder with 100,000 descendants ----
    t0 = performance.now();
    await fileOps.rename(actor, tree.id, 'tree-renamed');
    const renameSeconds = (performance.now() - t0) / 1000;
    report.record({
      what: 'rename a folder with 100,000 descendants',
      measured: `${renameSeconds.toFixed(2)} s`,
      target: '< 5 s',
      met: renameSeconds < 5,
    });
    const target = await files.newFolder(actor, '/', 'target');
    t0 = performance.now();
    await fileOps.move(actor, [tree.id], target.id, false);
    const moveSeconds = (performance.now() - t0) / 1000;
    report.record({
      what: 'move a folder with 100,000 descendants',
      measured: `${moveSeconds.toFixed(2)} s`,
      target: '< 5 s',
      met: moveSeconds < 5,
    });

    // the 200,000 rows have given their figures: they go now, in one statement, and their
    // folders with them, so the server below starts on the drive the transfers need (not
    // reading 200,000 rows whose bytes were never written into its search index at start)
    await db
      .deleteFrom('file')
      .where('userId', '=', owner.id)
      .where((eb) =>
        eb.or([
          eb('path', 'like', '/hundred-k/%'),
          eb('path', 'like', '/target/%'),
          eb('id', 'in', [bigFolder.id, target.id]),
        ]),
      )
      .execute();
    for (const folder of ['hundred-k', 'target'])
      fs.rmSync(path.join(dataDir, 'files', 'bench', folder), { recursive: true, force: true });

    // ---- 1 GiB file and 1,000 files of 1 MiB on disk, indexed ----
    const userRoot = path.join(dataDir, 'files', 'bench');
    const block = randomBytes(MiB);
    const bigPath = path.join(userRoot, 'big.bin');
    const fd = fs.openSync(bigPath, 'w');
    for (let i = 0; i < 1024; i++) fs.writeSync(fd, block);
    fs.closeSync(fd);
    // the folders that hold files are made as the user would (a row and a folder on disk), and
    // only they are synced below: a sync from the root would also walk the 200,000 seeded rows,
    // which have no bytes on disk, and remove them one by one (most of a run's time)
    await files.newFolder(actor, '/', 'thousand');
    await files.newFolder(actor, '/', 'sixteen');
    fs.mkdirSync(path.join(userRoot, 'thousand'), { recursive: true });
    for (let i = 0; i < 1000; i++)
      fs.writeFileSync(path.join(userRoot, 'thousand', `part-${i}.bin`), block);
    fs.mkdirSync(path.join(userRoot, 'sixteen'), { recursive: true });
    for (let f = 0; f < PARALLEL; f++) {
      const partFd = fs.openSync(path.join(userRoot, 'sixteen', `part-${f}.bin`), 'w');
      const own = randomBytes(MiB);
      for (let i = 0; i < PART_MIB; i++) fs.writeSync(partFd, own);
      fs.closeSync(partFd);
    }
    const bigId = newId();
    await db.transaction().execute((trx) =>
      files.repo.insertMany(
        [
          {
            id: bigId,
            userId: owner.id,
            parentId: '0',
            name: 'big.bin',
            path: '/',
            isFolder: 0,
            size: GiB,
            contentType: 'application/octet-stream',
            suffix: 'bin',
            fileType: 'other',
            hash: createHash('sha256').update('bench').digest('hex'),
            uploadDate: now,
            updateDate: now,
            isFavorite: 0,
            media: null,
            childrenCount: 0,
            trashId: null,
            trashedAt: null,
          },
        ],
        trx,
      ),
    );
    await indexer.sync(actor, await files.resolveFolder(owner.id, '/thousand'));
    await indexer.sync(actor, await files.resolveFolder(owner.id, '/sixteen'));
    const thousand = await files.resolveFolder(owner.id, '/thousand');
    const parts = await Promise.all(
      Array.from({ length: PARALLEL }, (_, f) => files.byPath(owner.id, `/sixteen/part-${f}.bin`)),
    );
    // whatever the seeding above left out of the search index is mended here, not by the
    // server's repair pass while the transfers below are measured
    await app.services.searchIndex.repair();
    await app.close();
    await database.close();

    // ---- the real server, as a child process ----
    const port = await freePort();
    // NIMBUS_BENCH_CPU_PROF=<folder>: the server writes a CPU profile there when it stops
    const profile = process.env.NIMBUS_BENCH_CPU_PROF;
    const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
    const server = spawn(process.execPath, [...profiling, await ensureServerBuild()], {
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
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/api/public/health`);
    // measure a drive at rest: let the work the server starts with (the search index's repair
    // pass, content indexing) finish first
    const settled = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 4000));
    const jobsDb = new Database(path.join(dataDir, 'nimbus.db'), { readonly: true });
    try {
      const busy = jobsDb.prepare(
        // work due now: a job queued for later (the cache sweep, minutes after the start) is not
        "select count(*) as n from job where (state = 'running' or (state = 'queued' and run_at <= ?)) and type != 'uploadCleanup'",
      );
      for (let i = 0; i < 600 && (busy.get(Date.now()) as { n: number }).n > 0; i++)
        await new Promise((resolve) => setTimeout(resolve, 500));
    } finally {
      jobsDb.close();
    }
    const settleSeconds = (performance.now() - settled) / 1000;
    const login = await fetch(`${base}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'bench', password: PASSWORD }),
    });
    const token = ((await login.json()) as { data: Record<string, string> }).data['nimbus-token']!;
    const auth = { 'nimbus-token': token };

    // a public share of the 1 GiB file, made through the API as its owner would
    const shared = (await (
      await fetch(`${base}/api/share/generate`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ fileId: bigId }),
      })
    ).json()) as { code: number; message: string; data?: { shareId: string } };
    if (shared.code !== 0 || !shared.data) throw new Error(`share: ${shared.message}`);
    const davAuth = {
      authorization: `Basic ${Buffer.from(`bench:${PASSWORD}`).toString('base64')}`,
    };

    // ---- nginx (sendfile) on the same files, the reference of every download ----
    const nginxBin = ensureNginx();
    let nginxBase: string | null = null;
    if (nginxBin) {
      const nginxPort = await freePort();
      const confDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-nginx-'));
      leftovers.push(confDir);
      // nginx as it would be set up to serve files fast: a worker per core (`auto`), the file
      // handed to the kernel (sendfile) 2 MiB per call so one transfer never holds a worker
      // (`sendfile_max_chunk`, nginx's own default since 1.21.4, said here for older ones), and
      // full packets with the headers in the first (tcp_nopush); no access log, as ours has none
      fs.writeFileSync(
        path.join(confDir, 'nginx.conf'),
        `worker_processes auto; pid ${confDir}/nginx.pid; error_log ${confDir}/error.log; daemon off;\n` +
          `events { worker_connections 256; }\n` +
          `http { access_log off; sendfile on; sendfile_max_chunk 2m; tcp_nopush on; tcp_nodelay on;\n` +
          `client_body_temp_path ${confDir}; proxy_temp_path ${confDir}; fastcgi_temp_path ${confDir}; uwsgi_temp_path ${confDir}; scgi_temp_path ${confDir};\n` +
          `server { listen 127.0.0.1:${nginxPort}; root ${userRoot}; } }\n`,
      );
      const nginx = spawn(nginxBin, ['-c', path.join(confDir, 'nginx.conf')], { stdio: 'ignore' });
      children.push(nginx);
      nginxBase = `http://127.0.0.1:${nginxPort}`;
      await waitFor(`${nginxBase}/big.bin`);
    }

    /** One download of `bytes` bytes read with curl: bytes per second. */
    const rateOf = async (url: string, bytes: number, headers: Record<string, string> = {}) => {
      const r = await curlDownload(url, headers);
      if (r.bytes !== bytes) throw new Error(`${url}: ${r.bytes} bytes, not ${bytes}`);
      return r.bytes / r.total;
    };
    /** The best rate of `runs` downloads. */
    const bestOf = async (runs: number, download: () => Promise<number>) => {
      let best = 0;
      for (let i = 0; i < runs; i++) best = Math.max(best, await download());
      return best;
    };
    const GBs = (rate: number) => `${(rate / 1e9).toFixed(2)} GB/s`;
    /** A download figure: Nimbus beside nginx, target 90% of nginx. */
    const compare = (what: string, ours: number, theirs: number | null, reference?: string) =>
      report.record({
        what,
        measured:
          theirs === null
            ? GBs(ours)
            : `${GBs(ours)} (${((ours / theirs) * 100).toFixed(0)}% of nginx)`,
        reference:
          theirs === null
            ? 'nginx not available to compare'
            : (reference ?? `nginx ${GBs(theirs)}`),
        target: '>= 90% of nginx',
        met: theirs === null ? null : ours >= 0.9 * theirs,
      });

    // ---- 1 GiB: the page cache warmed, then the best of three, each way in ----
    const bigUrl = `${base}/api/pre-file/${bigId}/big.bin`;
    await rateOf(bigUrl, GiB, auth);
    const nimbusBest = await bestOf(3, () => rateOf(bigUrl, GiB, auth));
    const nginxBest = nginxBase ? await bestOf(3, () => rateOf(`${nginxBase}/big.bin`, GiB)) : null;
    compare('download 1 GiB (best of 3)', nimbusBest, nginxBest);

    const shareUrl = `${base}/api/share-file/${bigId}/big.bin?shareId=${shared.data.shareId}&o=download`;
    compare(
      'download 1 GiB through a public share link (best of 3)',
      await bestOf(3, () => rateOf(shareUrl, GiB)),
      nginxBest,
    );
    compare(
      'WebDAV GET 1 GiB (best of 3)',
      await bestOf(3, () => rateOf(`${base}/webdav/big.bin`, GiB, davAuth)),
      nginxBest,
    );

    // ---- 16 different files of 64 MiB at once: the bytes of all over the time of all ----
    const partBytes = PART_MIB * MiB;
    const together = async (urls: string[], headers: Record<string, string> = {}) => {
      const started = performance.now();
      await Promise.all(urls.map((url) => rateOf(url, partBytes, headers)));
      return (urls.length * partBytes) / ((performance.now() - started) / 1000);
    };
    const ourParts = parts.map((row) => `${base}/api/pre-file/${row.id}/${row.name}`);
    await together(ourParts, auth);
    const ourParallel = await bestOf(3, () => together(ourParts, auth));
    const theirParallel = nginxBase
      ? await bestOf(3, () => together(parts.map((row) => `${nginxBase}/sixteen/${row.name}`)))
      : null;
    compare(
      `${PARALLEL} parallel downloads of ${PARALLEL} files of ${PART_MIB} MiB, aggregate (best of 3)`,
      ourParallel,
      theirParallel,
    );

    const zip = await curlDownload(`${base}/api/packageDownload?fileIds=${thousand.id}`, auth);
    const zipRate = zip.bytes / zip.total / 1e6;
    report.record({
      what: 'zip of 1 GiB in 1,000 files: first byte',
      measured: `${(zip.firstByte * 1000).toFixed(0)} ms`,
      target: '< 1 s',
      met: zip.firstByte < 1,
    });
    report.record({
      what: 'zip of 1 GiB in 1,000 files: throughput',
      measured: `${zipRate.toFixed(0)} MB/s`,
      target: '>= 200 MB/s',
      met: zipRate >= 200,
    });

    // ---- upload 1 GiB through the chunk protocol, 3 chunks at a time ----
    // the run's disk figure (`dd … conv=fsync` beside the data folders), the same for every
    // upload ratio of the run
    const ddRate = diskFigure();
    for (const chunkSize of [8 * MiB, MiB]) {
      const totalSize = GiB;
      const payload = Buffer.alloc(chunkSize, 3);
      const hash = createHash('sha256');
      const totalChunks = Math.floor(totalSize / chunkSize);
      for (let i = 0; i < totalChunks; i++) hash.update(payload);
      const identifier = hash.digest('hex');
      const params = {
        chunkSize,
        totalSize,
        totalChunks,
        identifier,
        filename: `upload-${chunkSize}.bin`,
        relativePath: `upload-${chunkSize}.bin`,
        currentDirectory: '/',
      };
      let peakRss = 0;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb(server.pid!))), 50);
      const started = performance.now();
      let next = 1;
      const worker = async () => {
        while (next <= totalChunks) {
          const n = next++;
          const form = new FormData();
          for (const [k, v] of Object.entries({
            ...params,
            chunkNumber: n,
            currentChunkSize: chunkSize,
          }))
            form.append(k, String(v));
          form.append('file', new Blob([payload]), params.filename);
          const res = await fetch(`${base}/api/upload`, {
            method: 'POST',
            headers: auth,
            body: form,
          });
          const body = (await res.json()) as { code: number; message: string };
          if (body.code !== 0) throw new Error(body.message);
        }
      };
      await Promise.all([worker(), worker(), worker()]);
      const query = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
      // a large file merges in the background: ask again while the answer is "still merging"
      for (;;) {
        const merged = (await (
          await fetch(`${base}/api/merge?${query}`, { method: 'POST', headers: auth })
        ).json()) as { code: number; message: string; data?: { merging?: boolean } };
        if (merged.code !== 0) throw new Error(merged.message);
        if (!merged.data?.merging) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const seconds = (performance.now() - started) / 1000;
      clearInterval(sampler);
      const rate = GiB / seconds;
      const label = chunkSize === 8 * MiB ? '8 MiB' : '1 MiB';
      report.record({
        what: `upload 1 GiB, ${label} chunks x3 (incl. merge and hash check)`,
        measured: `${(rate / 1e6).toFixed(0)} MB/s (${((rate / ddRate) * 100).toFixed(0)}% of dd)`,
        reference: `dd ${(ddRate / 1e6).toFixed(0)} MB/s`,
        ...(chunkSize === 8 * MiB ? { target: '>= 85% of dd', met: rate >= 0.85 * ddRate } : {}),
      });
      report.record({
        what: `server RSS while receiving (${label} chunks)`,
        measured: `${peakRss.toFixed(0)} MB peak`,
        target: '< 200 MB',
        met: peakRss < 200,
      });
    }
    // ---- WebDAV PUT of 1 GiB with curl (the 1 GiB file above as its source, from the cache) ----
    await curlUpload(
      `${base}/webdav/put-warm.bin`,
      path.join(userRoot, 'thousand', 'part-0.bin'),
      davAuth,
    );
    let davPeak = 0;
    const davSampler = setInterval(() => (davPeak = Math.max(davPeak, rssMb(server.pid!))), 50);
    const put = await curlUpload(`${base}/webdav/put-1g.bin`, bigPath, davAuth);
    clearInterval(davSampler);
    if (put.bytes !== GiB) throw new Error(`WebDAV PUT: ${put.bytes} bytes sent, not ${GiB}`);
    const putRate = GiB / put.total;
    report.record({
      what: 'WebDAV PUT 1 GiB with curl (until the answer)',
      measured: `${(putRate / 1e6).toFixed(0)} MB/s (${((putRate / ddRate) * 100).toFixed(0)}% of dd), RSS ${davPeak.toFixed(0)} MB peak`,
      reference: `dd ${(ddRate / 1e6).toFixed(0)} MB/s`,
      target: '>= 85% of dd',
      met: putRate >= 0.85 * ddRate,
    });

    // ---- one download after the server has been left idle, then nginx's after the same wait ----
    const idleWhat = `download 1 GiB after ${IDLE_SECONDS > 0 ? `${IDLE_SECONDS} s ` : ''}idle`;
    if (IDLE_SECONDS > 0) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
      const ours = await rateOf(bigUrl, GiB, auth);
      const theirs = nginxBase ? await rateOf(`${nginxBase}/big.bin`, GiB) : null;
      compare(idleWhat, ours, theirs, theirs === null ? undefined : `nginx next ${GBs(theirs)}`);
    } else {
      report.record({
        what: idleWhat,
        measured: 'skipped (FILES_BENCH_IDLE_SECONDS=0)',
        target: '>= 90% of nginx',
        met: null,
      });
    }
    report.record({
      what: 'seeding 200,000 rows (setup)',
      measured: `${seedSeconds.toFixed(1)} s`,
    });
    report.record({
      what: 'background work after the server started (setup)',
      measured: `${settleSeconds.toFixed(1)} s`,
    });
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    for (const dir of [dataDir, ...leftovers]) fs.rmSync(dir, { recursive: true, force: true });
  }

  report.print();
}

await main();
