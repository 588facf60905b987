import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  createAdmin,
  openPage,
  saveScreenshot,
  signInPage,
  startServer,
  until,
  type ApiSession,
  type NimbusServer,
  api,
  openSignedIn,
} from './harness.ts';

// The upload panel as a person watches it: the speed of the bytes on a slow link, a progress
// that does not fall through a pause, a panel that stays small, folds to a bar and goes by
// itself once everything is done, and a drive without room that says so before any work.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const SMALL = { username: 'dora', password: 'dora-secret-1' };
const MiB = 1024 * 1024;

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: ApiSession;
let tmp: string;

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

function writeTemp(name: string, content: Buffer | string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return file;
}

/** Chooses files in the file chooser of the toolbar's upload button. */
async function chooseFiles(files: string[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser');
  await page.getByTestId('upload-button').click();
  await page.getByTestId('upload-menu-files').click();
  await (await chooser).setFiles(files);
}

interface Sample {
  status: string | null;
  percent: number;
  row: string;
  summary: string;
}

/** Records, every 50 ms in the page, what the row of `name` and the summary show. */
async function startSampling(name: string): Promise<void> {
  await page.evaluate((name) => {
    const w = window as unknown as { __samples: unknown[]; __sampler: number };
    w.__samples = [];
    w.__sampler = window.setInterval(() => {
      const row = document.querySelector(`[data-testid="upload-item"][data-name="${name}"]`);
      if (!row) return;
      w.__samples.push({
        status: row.getAttribute('data-status'),
        percent: Number(row.getAttribute('data-percent')),
        row: row.querySelector('[data-testid="upload-item-status"]')?.textContent ?? '',
        summary: document.querySelector('[data-testid="upload-summary"]')?.textContent ?? '',
      });
    }, 50);
  }, name);
}

async function samples(): Promise<Sample[]> {
  return page.evaluate(() => (window as unknown as { __samples: Sample[] }).__samples);
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-upload-panel-e2e-'));
  server = await startServer();
  admin = await createAdmin(server, ADMIN);
  // about 1 MiB of room
  await api(server, 'POST', '/user/add', {
    token: admin.token,
    body: { ...SMALL, quota: 0.001 },
  });
  ({ browser, context, page } = await openSignedIn(server, admin));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the upload panel', () => {
  it('shows the speed while bytes flow, and a progress that a pause does not take back', async () => {
    const bytes = randomBytes(6 * MiB);
    const file = writeTemp('slow.bin', bytes);
    // a slow uplink: 1 MiB/s
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 20,
      downloadThroughput: -1,
      uploadThroughput: MiB,
    });
    await page.getByTestId('upload-panel').waitFor({ state: 'detached' });
    await chooseFiles([file]);
    await startSampling('slow.bin');
    const row = page.locator('[data-testid="upload-item"][data-name="slow.bin"]');
    await until(
      async () =>
        (await row.getAttribute('data-status')) === 'uploading' &&
        Number(await row.getAttribute('data-percent')) >= 30,
      'a third is sent',
      60_000,
    );
    // mid-transfer: a speed and a time left, never "0 B/s"
    const summary = page.getByTestId('upload-summary');
    expect(await summary.textContent()).toMatch(/[\d.]+ (KB|MB)\/s · \d+ s left$/);
    await row.getByTestId('upload-item-pause').click();
    await until(async () => (await row.getAttribute('data-status')) === 'paused', 'paused');
    await saveScreenshot(page, 'upload-panel-1440-light-paused');
    await row.getByTestId('upload-item-resume').click();
    await until(async () => (await row.getAttribute('data-status')) === 'success', 'done', 60_000);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await cdp.detach();
    // the person looks away: the pointer leaves the panel
    await page.mouse.move(5, 5);

    const seen = await samples();
    const sending = seen.filter((s) => s.status === 'uploading' && s.percent > 0);
    expect(sending.length).toBeGreaterThan(10);
    for (const s of seen) {
      expect(s.summary).not.toContain('0 B/s');
      expect(s.row).not.toContain('0 B/s');
    }
    // once the bytes have flowed a while, the samples while sending show a speed (a resume
    // asks the server what it holds first: until its bytes flow it shows none, never "0 B/s")
    const pausedAt = seen.find((s) => s.status === 'paused')?.percent;
    const steady = sending
      .slice(Math.floor(sending.length / 4))
      .filter((s) => s.percent !== pausedAt);
    const withSpeed = steady.filter((s) => /[\d.]+ (KB|MB)\/s/.test(s.summary));
    const gaps = steady.filter((s) => !withSpeed.includes(s)).map((s) => s.percent);
    expect(withSpeed.length, `no speed at ${gaps.join(', ')}%`).toBeGreaterThanOrEqual(
      steady.length * 0.9,
    );
    // the row's percentage of bytes never falls: not at the pause, not at the resume (the
    // checksum before it has a bar of its own)
    const bytesShown = seen.filter((s) => s.status !== 'checking' && s.status !== 'waiting');
    for (let i = 1; i < bytesShown.length; i++) {
      expect(
        bytesShown[i]!.percent,
        JSON.stringify(bytesShown.slice(Math.max(0, i - 2), i + 1)),
      ).toBeGreaterThanOrEqual(bytesShown[i - 1]!.percent);
    }
    const paused = seen.find((s) => s.status === 'paused');
    expect(paused?.row).toMatch(/^Paused · \d+%$/);
    const onDisk = fs.readFileSync(path.join(server.dataDir, 'files', ADMIN.username, 'slow.bin'));
    expect(sha256(onDisk)).toBe(sha256(bytes));
  });

  it('stays small, folds to a one-line bar, and goes by itself once all is done', async () => {
    await page.getByTestId('upload-panel').waitFor({ state: 'detached' });
    expect(await page.getByTestId('upload-ball').count()).toBe(0);
    const files = ['a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt'].map((n) =>
      writeTemp(n, `${n}\n`.repeat(1000)),
    );
    await chooseFiles(files);
    const panel = page.getByTestId('upload-panel');
    await panel.waitFor({ state: 'visible' });
    // held open under the pointer while it is measured
    await panel.hover();
    await until(async () => (await panel.getAttribute('data-success')) === '5', 'five done');
    const main = await page.locator('#main-content').boundingBox();
    const box = await panel.boundingBox();
    expect(box && main).toBeTruthy();
    expect(box!.width).toBeLessThanOrEqual(440);
    // far less than a third of the file area
    expect(box!.width * box!.height).toBeLessThan((main!.width * main!.height) / 6);
    for (const theme of ['light', 'dark'] as const) {
      await page.getByTestId('theme-switch').click();
      await page.getByTestId(`theme-${theme}`).click();
      await panel.hover();
      await saveScreenshot(page, `upload-panel-1440-${theme}-done`);
    }
    await page.getByTestId('upload-collapse').click();
    const bar = await panel.boundingBox();
    expect(bar!.height).toBeLessThanOrEqual(48);
    await saveScreenshot(page, 'upload-panel-1440-dark-bar');
    await page.getByTestId('upload-expand').click();
    await page.getByTestId('upload-list').waitFor({ state: 'visible' });
    // the pointer leaves: a few seconds later the panel and the ball are gone
    await page.mouse.move(5, 5);
    await panel.waitFor({ state: 'detached', timeout: 15_000 });
    expect(await page.getByTestId('upload-ball').count()).toBe(0);

    // on a phone the ball is small, and it goes too
    await page.setViewportSize(PHONE);
    await chooseFiles([writeTemp('phone.txt', 'from a phone')]);
    const ball = page.getByTestId('upload-ball');
    await ball.waitFor({ state: 'visible' });
    const ballBox = await ball.boundingBox();
    expect(ballBox!.width * ballBox!.height).toBeLessThan((PHONE.width * PHONE.height) / 10);
    await saveScreenshot(page, 'upload-panel-375-dark-ball');
    await ball.waitFor({ state: 'detached', timeout: 15_000 });
    await page.setViewportSize(DESKTOP);
    await page.getByTestId('theme-switch').click();
    await page.getByTestId('theme-light').click();
  });

  it('keeps a failed upload on screen until it is dismissed', async () => {
    await page.route('**/api/upload', (route) =>
      route.request().method() === 'POST'
        ? route.fulfill({
            status: 413,
            contentType: 'application/json',
            body: JSON.stringify({ code: 20, message: 'totalSize: Not enough space' }),
          })
        : route.fallback(),
    );
    await chooseFiles([writeTemp('refused.txt', 'refused')]);
    const panel = page.getByTestId('upload-panel');
    await until(async () => (await panel.getAttribute('data-failure')) === '1', 'failed');
    await page.unroute('**/api/upload');
    // well past the time a finished list takes to go
    const since = Date.now();
    await until(async () => {
      expect(await panel.isVisible()).toBe(true);
      return Date.now() - since > 6000;
    }, 'the failure stays');
    await page.getByTestId('upload-close').click();
    await panel.waitFor({ state: 'detached' });
  });

  it('says a drive without room is full before hashing or sending anything', async () => {
    const session = await api<Record<string, string>>(server, 'POST', '/login', {
      body: { ...SMALL, rememberMe: true },
    });
    const small = await openPage(browser, server);
    const uploads: string[] = [];
    small.page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/upload') uploads.push(request.method());
    });
    await signInPage(small.page, {
      token: session['nimbus-token']!,
      userId: session.userId!,
      username: SMALL.username,
    });
    const chooser = small.page.waitForEvent('filechooser');
    await small.page.getByTestId('upload-button').click();
    await small.page.getByTestId('upload-menu-files').click();
    await (await chooser).setFiles(writeTemp('too big.bin', randomBytes(3 * MiB)));
    await small.page
      .getByText(/^Not enough space: needs 3\.00M, 1\.0\dM free$/)
      .waitFor({ state: 'visible' });
    await saveScreenshot(small.page, 'upload-panel-1440-light-no-room');
    // nothing was queued, hashed or sent
    expect(await small.page.getByTestId('upload-item').count()).toBe(0);
    expect(uploads).toEqual([]);
    // a file that fits goes
    await small.page.getByTestId('upload-input-files').setInputFiles(writeTemp('fits.txt', 'ok'));
    await until(
      async () =>
        (await small.page.getByTestId('upload-panel').getAttribute('data-success')) === '1',
      'the small file is uploaded',
    );
    await small.context.close();
  });
});
