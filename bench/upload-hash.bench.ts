/**
 * Upload identifier speed: the SHA-256 the web app computes in the browser before it sends a
 * byte (the "md5 check" status). Target: a 1 GiB file in under 10 s in Chromium. Measured,
 * never asserted in tests.
 *
 * Starts a Nimbus server on a temporary data folder (it serves the built web app, so the worker
 * measured is the one users get) and Debian's Chromium with a profile on disk, then hashes in
 * the app's checksum
 * worker: a 1 GiB File generated in the page, and a 1 GiB file on disk picked through a file
 * input. Each digest is checked against Node's own SHA-256 of the same bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../e2e/harness.ts';
import { Report } from './harness.ts';

const root = path.resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;
const SIZE_MIB = Number(process.env.UPLOAD_HASH_BENCH_MIB ?? 1024);
const TARGET_S = 10;
const report = new Report('upload-hash');

function workerAsset(): string {
  const assets = path.join(process.env.NIMBUS_WEB_DIR ?? path.join(root, 'web', 'dist'), 'assets');
  const name = fs.existsSync(assets)
    ? fs.readdirSync(assets).find((n) => /^hash\.worker-.*\.js$/.test(n))
    : undefined;
  if (!name) throw new Error('no checksum worker in the built web app: run `npm run build -w web`');
  return `/assets/${name}`;
}

/** SHA-256 of `seed` repeated `times` times, the content both measurements hash. */
function expectedDigest(seed: Buffer, times: number): string {
  const hash = createHash('sha256');
  for (let i = 0; i < times; i++) hash.update(seed);
  return hash.digest('hex');
}

async function main(): Promise<void> {
  const workerUrl = workerAsset();
  const seed = randomBytes(MiB);
  const expected = expectedDigest(seed, SIZE_MIB);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-hash-bench-'));
  const server = await startServer();
  // a profile on disk, like a user's: Chromium keeps big Blobs on disk there, while a throwaway
  // context holds them in a small memory quota and a 1 GiB File cannot be read back
  const browser = await chromium.launchPersistentContext(path.join(tmp, 'profile'), {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
    baseURL: server.baseUrl,
  });
  try {
    const page = browser.pages()[0] ?? (await browser.newPage());
    await page.goto('/login');

    // the checksum worker as the app starts it, one job, timed from post to digest
    await page.evaluate((url) => {
      const w = window as unknown as {
        hashInWorker: (blob: Blob, oneShot: boolean) => Promise<[string, number]>;
      };
      w.hashInWorker = (blob, oneShot) =>
        new Promise((resolve, reject) => {
          const worker = new Worker(url, { type: 'module' });
          const started = performance.now();
          worker.onmessage = (
            event: MessageEvent<{ type: string; hash?: string; message?: string }>,
          ) => {
            if (event.data.type === 'done') {
              resolve([event.data.hash ?? '', performance.now() - started]);
              worker.terminate();
            } else if (event.data.type === 'error') {
              reject(new Error(event.data.message));
              worker.terminate();
            }
          };
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage({ id: 1, blob, oneShot });
        });
    }, workerUrl);

    const deviceMemory = await page.evaluate(
      () => (navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 0,
    );
    // the app digests files up to 1 GiB natively on devices with 8 GB or more, else streams
    const appOneShot = deviceMemory >= 8 && SIZE_MIB <= 1024;

    // 1. a File generated in the page, written to the origin-private file system (Chromium
    // refuses to read back a Blob of that size built in memory)
    await page.evaluate(
      async ({ seedBase64, mib }) => {
        const bytes = Uint8Array.from(atob(seedBase64), (c) => c.charCodeAt(0));
        const dir = await navigator.storage.getDirectory();
        const handle = await dir.getFileHandle('generated.bin', { create: true });
        const writable = await handle.createWritable();
        for (let i = 0; i < mib; i++) await writable.write(bytes);
        await writable.close();
        (window as unknown as { generated: File }).generated = await handle.getFile();
      },
      { seedBase64: seed.toString('base64'), mib: SIZE_MIB },
    );
    for (const oneShot of [true, false]) {
      const [hash, ms] = await page.evaluate((one) => {
        const w = window as unknown as {
          generated: File;
          hashInWorker: (blob: Blob, oneShot: boolean) => Promise<[string, number]>;
        };
        return w.hashInWorker(w.generated, one);
      }, oneShot);
      record(
        `${SIZE_MIB} MiB File generated in the page, ${oneShot ? 'native one-shot digest' : 'streamed WASM'}${oneShot === appOneShot ? ' (the app here)' : ''}`,
        ms,
        hash === expected,
      );
    }
    await page.evaluate(() => delete (window as unknown as { generated?: File }).generated);

    // 2. a file on disk, chosen through a file input like a user's
    const onDisk = path.join(tmp, 'picked.bin');
    const fd = fs.openSync(onDisk, 'w');
    for (let i = 0; i < SIZE_MIB; i++) fs.writeSync(fd, seed);
    fs.closeSync(fd);
    await page.setContent('<input type="file" id="pick">');
    await page.setInputFiles('#pick', onDisk);
    for (const oneShot of [true, false]) {
      const [hash, ms] = await page.evaluate((one) => {
        const input = document.querySelector<HTMLInputElement>('#pick')!;
        const w = window as unknown as {
          hashInWorker: (blob: Blob, oneShot: boolean) => Promise<[string, number]>;
        };
        return w.hashInWorker(input.files![0]!, one);
      }, oneShot);
      record(
        `${SIZE_MIB} MiB file picked from disk, ${oneShot ? 'native one-shot digest' : 'streamed WASM'}${oneShot === appOneShot ? ' (the app here)' : ''}`,
        ms,
        hash === expected,
      );
    }
    console.log(
      `navigator.deviceMemory: ${deviceMemory || 'unknown'}; CPU load while measuring: ${os.loadavg()[0]!.toFixed(1)}`,
    );
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }

  // a wrong digest fails the bench
  report.print();
}

function record(what: string, ms: number, digestOk: boolean): void {
  const seconds = ms / 1000;
  const scaled = (seconds * 1024) / SIZE_MIB;
  const rate = SIZE_MIB / seconds;
  report.record({
    what,
    measured: `${seconds.toFixed(2)} s (${rate.toFixed(0)} MiB/s)`,
    target: `< ${TARGET_S} s per GiB`,
    met: scaled < TARGET_S,
    fault: digestOk ? undefined : 'WRONG DIGEST',
  });
}

await main();
