/**
 * Text preview targets of issue 11 (measured, never asserted in tests): a 100 MB text file shows
 * its first screen in under 1 s. Beside it, in the same run: the same browser fetching the
 * file's first 64 KB raw (the floor any viewer stands on), and on the server the time to the
 * first byte and the throughput of the streamed preview (UTF-8 and GB18030, converted) beside
 * reading the raw bytes of the same file.
 *
 * Starts a Nimbus server on a temporary data folder (it serves the built web app) and Debian's
 * Chromium.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  launchBrowser,
  openPage,
  signInPage,
  startServer,
  type NimbusServer,
} from '../e2e/harness.ts';
import { Report } from './harness.ts';

const MB = 1024 * 1024;
const SIZE_MB = Number(process.env.PREVIEW_BENCH_MB ?? 100);
const TARGET_MS = 1000;
const USER = { username: 'bench', password: 'bench-password-1' };
const report = new Report('preview');

// a line of Chinese in GBK (a part of GB18030)
const GBK_LINE = Buffer.concat([
  Buffer.from(
    'd5e2cac7d2bbb8f6d3c3c0b4b2e2cad4d7d6b7fbbcafbcecb2e2b5c4d6d0cec4cec4b1becec4bcfea1a3',
    'hex',
  ),
  Buffer.from('\n'),
]);

function writeRepeated(file: string, line: (i: number) => Buffer, bytes: number): void {
  const fd = fs.openSync(file, 'w');
  let written = 0;
  let batch: Buffer[] = [];
  let batchBytes = 0;
  for (let i = 0; written + batchBytes < bytes; i++) {
    const b = line(i);
    batch.push(b);
    batchBytes += b.length;
    if (batchBytes > 4 * MB) {
      written += fs.writeSync(fd, Buffer.concat(batch));
      batch = [];
      batchBytes = 0;
    }
  }
  if (batch.length) fs.writeSync(fd, Buffer.concat(batch));
  fs.closeSync(fd);
}

const ms = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e6;

/** Time to the first chunk and to the end of a GET, reading the whole body. */
async function timed(
  url: string,
  token: string,
): Promise<{ first: number; all: number; bytes: number }> {
  const at = process.hrtime.bigint();
  const res = await fetch(url, { headers: { 'nimbus-token': token } });
  if (!res.ok || !res.body) throw new Error(`GET ${url}: ${res.status}`);
  const reader = res.body.getReader();
  let first = 0;
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!first) first = ms(at);
    bytes += value.length;
  }
  return { first, all: ms(at), bytes };
}

async function main(): Promise<void> {
  let server: NimbusServer | undefined;
  const browser = await launchBrowser();
  try {
    server = await startServer();
    const base = `${server.baseUrl}/api`;
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
    const userId = login.data.userId!;

    // the browser signs in before the big files arrive (their indexing keeps the server busy)
    const { context, page } = await openPage(browser, server);
    await signInPage(page, { token, userId, username: USER.username });

    const tree = path.join(server.dataDir, 'files', USER.username);
    fs.mkdirSync(tree, { recursive: true });
    writeRepeated(
      path.join(tree, 'big.log'),
      (i) =>
        Buffer.from(`${String(i).padStart(9, '0')} GET /api/list 200 12ms the quick brown fox\n`),
      SIZE_MB * MB,
    );
    writeRepeated(path.join(tree, 'big-gbk.txt'), () => GBK_LINE, SIZE_MB * MB);
    await fetch(`${base}/user/setting/sync?path=%2F`, { headers: { 'nimbus-token': token } });
    let items: Array<{ id: string; name: string }> = [];
    for (let i = 0; items.length < 2; i++) {
      const res = (await (
        await fetch(`${base}/list?currentDirectory=%2F`, { headers: { 'nimbus-token': token } })
      ).json()) as { data?: typeof items };
      items = res.data ?? [];
      if (i > 600) throw new Error('the files were not indexed');
      await new Promise((r) => setTimeout(r, 100));
    }
    const idOf = (name: string) => items.find((i) => i.name === name)!.id;

    // ---- the server: streamed previews beside the raw bytes --------------------------------
    for (const name of ['big.log', 'big-gbk.txt']) {
      const id = idOf(name);
      const raw = await timed(`${base}/pre-file/${id}/${name}`, token);
      const text = await timed(`${base}/preview/text/stream?id=${id}`, token);
      const rate = (r: { all: number; bytes: number }) =>
        `${((r.bytes / MB / r.all) * 1000).toFixed(0)} MB/s`;
      report.record({
        what: `${name}: streamed preview, first byte / throughput`,
        measured: `${text.first.toFixed(0)} ms / ${rate(text)}`,
        reference: `raw bytes of the file: ${raw.first.toFixed(0)} ms / ${rate(raw)}`,
        target: `first byte < ${TARGET_MS} ms`,
        met: text.first < TARGET_MS,
      });
    }

    // ---- the browser: the first screen of the 100 MB log ------------------------------------
    await page.reload();
    const tile = page.locator('[data-testid="file-item"][data-name="big.log"]');
    await tile.waitFor({ state: 'visible' });
    // warm the viewer's code once (a user's second file), then measure a cold file open
    await page.locator('[data-testid="file-item"][data-name="big-gbk.txt"]').dblclick();
    await page.getByTestId('text-preview-content').waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await page.getByTestId('text-preview-content').waitFor({ state: 'detached' });

    const reference = await page.evaluate(
      async ({ url, token: t }) => {
        const at = performance.now();
        const res = await fetch(url, { headers: { 'nimbus-token': t, Range: 'bytes=0-65535' } });
        await res.arrayBuffer();
        return performance.now() - at;
      },
      { url: `/api/pre-file/${idOf('big.log')}/big.log`, token },
    );
    const raw64k = `the browser fetching the first 64 KB raw: ${reference.toFixed(0)} ms`;

    let sentAt = 0n;
    let answeredAt = 0n;
    page.on('request', (r) => {
      if (r.url().includes('/preview/text/stream')) sentAt ||= process.hrtime.bigint();
    });
    page.on('response', (r) => {
      if (r.url().includes('/preview/text/stream')) answeredAt ||= process.hrtime.bigint();
    });
    const at = process.hrtime.bigint();
    await tile.dblclick();
    await page
      .getByTestId('text-preview-content')
      .getByText('000000000 GET /api/list', { exact: false })
      .waitFor({ state: 'visible' });
    const firstScreen = ms(at);
    report.record({
      what: `browser: ${SIZE_MB} MB log, click to first screen`,
      measured: `${firstScreen.toFixed(0)} ms`,
      reference: raw64k,
      target: `< ${TARGET_MS} ms`,
      met: firstScreen < TARGET_MS,
    });
    if (sentAt && answeredAt)
      report.record({
        what: 'browser: of which click to request sent / to response headers',
        measured: `${Number((sentAt - at) / 1_000_000n)} ms / ${Number((answeredAt - at) / 1_000_000n)} ms`,
      });
    await context.close();
  } finally {
    await browser.close();
    await server?.stop();
  }

  report.print();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
