import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  PHONE,
  launchBrowser,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  signInPage,
  api,
} from './harness.ts';

// The uploader in a real browser against a real server: file chooser, folder chooser, drag and
// drop of files and folders, same-name overwrite, pause and resume, server errors and retry,
// a 50 MB file, resume after a reload, the close confirmation and the mobile transfer page.
// Every upload is checked byte for byte on disk. The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const MiB = 1024 * 1024;

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let tmp: string;

/** Chunk POSTs: how many were sent and how many are pending; a delay to slow them down. */
const chunkPosts = { sent: 0, inflight: 0, finished: 0, delayMs: 0 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const onDisk = (...parts: string[]) => path.join(server.dataDir, 'files', ADMIN.username, ...parts);

function writeTemp(relative: string, content: Buffer | string): string {
  const file = path.join(tmp, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return file;
}

function expectSameBytes(diskPath: string, source: string | Buffer): void {
  expect(fs.existsSync(diskPath), diskPath).toBe(true);
  const expected = typeof source === 'string' ? fs.readFileSync(source) : source;
  const actual = fs.readFileSync(diskPath);
  expect(actual.length, diskPath).toBe(expected.length);
  expect(sha256(actual), diskPath).toBe(sha256(expected));
}

/** The panel's counters (the list is virtualised: rows off screen are not in the page). */
async function panelCounts(): Promise<{
  count: number;
  success: number;
  failure: number;
  unfinished: number;
}> {
  const panel = page.getByTestId('upload-panel');
  const read = async (name: string) => Number((await panel.getAttribute(`data-${name}`)) ?? 0);
  return {
    count: await read('count'),
    success: await read('success'),
    failure: await read('failure'),
    unfinished: await read('unfinished'),
  };
}

async function waitForUploads(success: number, timeoutMs = 60_000): Promise<void> {
  await until(
    async () => {
      const counts = await panelCounts();
      if (counts.failure > 0) {
        const errors = await page.getByTestId('upload-item-error').allTextContents();
        throw new Error(`an upload failed: ${errors.join('; ')}`);
      }
      return counts.success >= success && counts.unfinished === 0;
    },
    `${success} uploads finish`,
    timeoutMs,
  );
}

const row = (relativePath: string) =>
  page.locator(`[data-testid="upload-item"][data-name="${relativePath}"]`);

async function rowStatus(relativePath: string): Promise<string | null> {
  return row(relativePath).getAttribute('data-status', { timeout: 2000 });
}

async function clearList(): Promise<void> {
  const clear = page.getByTestId('upload-clear-finished');
  // a list where every upload is done clears itself a few seconds after: it may go meanwhile
  if (await clear.isVisible()) await clear.click({ timeout: 5000 }).catch(() => undefined);
  await until(
    async () =>
      (await page.locator('[data-testid="upload-item"][data-status="success"]').count()) === 0,
    'the finished uploads leave the list',
  );
}

async function chooseTheme(value: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('theme-switch').click();
  await page.getByTestId(`theme-${value}`).click();
}

/** Fires a drag event on the page with a DataTransfer holding these in-page files. */
async function dragFiles(type: 'dragenter' | 'dragleave' | 'drop', files: Record<string, string>) {
  await page.evaluate(
    ({ type, files }) => {
      const transfer = new DataTransfer();
      for (const [name, text] of Object.entries(files)) {
        transfer.items.add(
          new File([text], name, { type: 'text/plain', lastModified: 1_700_000_000_000 }),
        );
      }
      const target = document.querySelector('#main-content') ?? document.body;
      target.dispatchEvent(
        new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }),
      );
    },
    { type, files },
  );
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-upload-e2e-'));
  server = await startServer();
  await api(server, 'POST', '/public/initialization', { body: ADMIN });
  const login = await api<{ 'nimbus-token': string; userId: string }>(server, 'POST', '/login', {
    body: {
      ...ADMIN,
      rememberMe: true,
    },
  });
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server));
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload') {
      chunkPosts.sent += 1;
      chunkPosts.inflight += 1;
    }
  });
  const settled = (request: { method(): string; url(): string }) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload') {
      chunkPosts.inflight -= 1;
    }
  };
  page.on('requestfinished', (request) => {
    settled(request);
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload')
      chunkPosts.finished += 1;
  });
  page.on('requestfailed', settled);
  // slows chunk requests down when a step needs time to act in the middle of an upload
  await page.route('**/api/upload', async (route) => {
    if (route.request().method() === 'POST' && chunkPosts.delayMs) await sleep(chunkPosts.delayMs);
    await route.continue().catch(() => undefined);
  });
  // counts the chunk requests the page has open at once, exactly as the page sees them
  await context.addInitScript(() => {
    const meter = { open: 0, max: 0 };
    (window as unknown as { __chunks: typeof meter }).__chunks = meter;
    // the originals, called with the request as `this` below
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const open = XMLHttpRequest.prototype.open;
    // eslint-disable-next-line @typescript-eslint/unbound-method
    const send = XMLHttpRequest.prototype.send;
    XMLHttpRequest.prototype.open = function (
      this: XMLHttpRequest & { __chunk?: boolean },
      ...args: unknown[]
    ) {
      this.__chunk = args[0] === 'POST' && String(args[1]).endsWith('/api/upload');
      return (open as (...a: unknown[]) => void).apply(this, args);
    };
    XMLHttpRequest.prototype.send = function (this: XMLHttpRequest & { __chunk?: boolean }, body) {
      if (this.__chunk) {
        meter.open += 1;
        meter.max = Math.max(meter.max, meter.open);
        // DONE comes before load, whose handler starts the next chunk
        const done = () => {
          if (this.readyState !== XMLHttpRequest.DONE) return;
          meter.open -= 1;
          this.removeEventListener('readystatechange', done);
        };
        this.addEventListener('readystatechange', done);
      }
      return send.call(this, body);
    };
  });
  await signInPage(page, {
    token: login['nimbus-token'],
    userId: login.userId,
    username: ADMIN.username,
  });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the uploader', () => {
  it('uploads three files chosen with the file chooser', async () => {
    const files = [
      writeTemp('three/notes.txt', 'plain notes\n'),
      writeTemp('three/报告 📊.txt', '季度报告 ✅\n'.repeat(1000)),
      writeTemp('three/photo 🌅.bin', randomBytes(2 * MiB + 12345)),
    ];
    await page.getByTestId('upload-input-files').setInputFiles(files);
    await page.getByTestId('upload-panel').waitFor({ state: 'visible' });
    await waitForUploads(3);
    for (const file of files) expectSameBytes(onDisk(path.basename(file)), file);
    expect(await rowStatus('报告 📊.txt')).toBe('success');
  });

  it('uploads a nested folder with Chinese and emoji names from the folder chooser', async () => {
    const root = path.join(tmp, 'pick', '旅行 🌍');
    const content = {
      '照片/第一天 ☀️/日记.txt': Buffer.from('第一天：晴 ☀️'),
      '照片/notes.md': Buffer.from('# trip\n'),
      '计划.txt': Buffer.from('plan'),
      '空文件.txt': Buffer.alloc(0),
      '视频/clip 🎬.bin': randomBytes(3 * MiB + 7),
    };
    for (const [rel, bytes] of Object.entries(content))
      writeTemp(path.join('pick', '旅行 🌍', rel), bytes);
    await clearList();
    await page.getByTestId('upload-input-folder').setInputFiles(root);
    await waitForUploads(5);
    for (const [rel, bytes] of Object.entries(content)) {
      expectSameBytes(onDisk('旅行 🌍', ...rel.split('/')), bytes);
    }
  });

  it('opens the file chooser from the panel', async () => {
    await clearList();
    // a finished list goes after a few seconds, but not from under the pointer
    await page.getByTestId('upload-input-files').setInputFiles(writeTemp('chooser/first.txt', '1'));
    await page.getByTestId('upload-panel').hover();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('upload-add-files').click();
    const file = writeTemp('chooser/from the panel.txt', 'chosen in the dialog');
    await (await chooser).setFiles(file);
    await waitForUploads(2);
    expectSameBytes(onDisk('from the panel.txt'), file);
    await page.mouse.move(0, 0);
  });

  it("uploads from the file toolbar's button, and the folder listing shows the new file", async () => {
    await clearList();
    const chooser = page.waitForEvent('filechooser');
    await page.getByTestId('upload-button').click();
    await page.getByTestId('upload-menu-files').click();
    const file = writeTemp('toolbar/工具栏 ⬆.txt', 'from the toolbar');
    await (await chooser).setFiles(file);
    await waitForUploads(1);
    expectSameBytes(onDisk('工具栏 ⬆.txt'), file);
    await page
      .locator('[data-testid="file-item"][data-name="工具栏 ⬆.txt"]')
      .first()
      .waitFor({ state: 'visible' });
  });

  it('shows the drop overlay while files are dragged over the page and clears it after', async () => {
    await dragFiles('dragenter', { 'x.txt': 'x' });
    const overlay = page.getByTestId('upload-drop-overlay');
    await overlay.waitFor({ state: 'visible' });
    expect(await overlay.textContent()).toContain('Upload files to the current directory');
    await dragFiles('dragleave', { 'x.txt': 'x' });
    await overlay.waitFor({ state: 'hidden', timeout: 1000 });
  });

  it('uploads files dropped on the page', async () => {
    await clearList();
    await dragFiles('dragenter', { 'dropped one.txt': 'one' });
    await dragFiles('drop', { 'dropped one.txt': 'one', '拖放 🎯.txt': '拖放的文件' });
    await page.getByTestId('upload-drop-overlay').waitFor({ state: 'hidden' });
    await waitForUploads(2);
    expectSameBytes(onDisk('dropped one.txt'), Buffer.from('one'));
    expectSameBytes(onDisk('拖放 🎯.txt'), Buffer.from('拖放的文件'));
  });

  it('uploads a dropped folder, walking it recursively, empty folders included', async () => {
    await clearList();
    await page.evaluate(() => {
      // the File and Directory Entries a real folder drop hands over
      type Node = { [name: string]: Node | string };
      const tree: Node = {
        'Drop 📁': { 'a 一': { '深 🌊': { 'x.txt': 'deep x' } }, 'b.txt': 'b file', empty: {} },
      };
      const entry = (name: string, node: Node | string, parent: string): unknown => {
        const fullPath = `${parent}/${name}`;
        if (typeof node === 'string') {
          return {
            isFile: true,
            isDirectory: false,
            name,
            fullPath,
            file: (ok: (f: File) => void) =>
              ok(new File([node], name, { lastModified: 1_700_000_000_000 })),
          };
        }
        const children = Object.entries(node).map(([n, v]) => entry(n, v, fullPath));
        return {
          isFile: false,
          isDirectory: true,
          name,
          fullPath,
          createReader: () => {
            let given = false;
            // answers in batches like Chromium: first everything, then an empty batch
            return {
              readEntries: (ok: (e: unknown[]) => void) =>
                ok(given ? [] : ((given = true), children)),
            };
          },
        };
      };
      const folder = entry('Drop 📁', tree['Drop 📁']!, '');
      const transfer = {
        types: ['Files'],
        files: [],
        items: [{ kind: 'file', webkitGetAsEntry: () => folder, getAsFile: () => null }],
        dropEffect: 'none',
      };
      const event = new Event('drop', { bubbles: true, cancelable: true });
      Object.defineProperty(event, 'dataTransfer', { value: transfer });
      document.body.dispatchEvent(event);
    });
    await waitForUploads(2);
    expectSameBytes(onDisk('Drop 📁', 'a 一', '深 🌊', 'x.txt'), Buffer.from('deep x'));
    expectSameBytes(onDisk('Drop 📁', 'b.txt'), Buffer.from('b file'));
    await until(() => fs.existsSync(onDisk('Drop 📁', 'empty')), 'the empty folder is created');
    expect(fs.statSync(onDisk('Drop 📁', 'empty')).isDirectory()).toBe(true);
  });

  it('asks before overwriting a same-named file; cancel uploads nothing', async () => {
    await clearList();
    const newer = writeTemp('overwrite/notes.txt', 'the newer notes');
    const sentBefore = chunkPosts.sent;
    await page.getByTestId('upload-input-files').setInputFiles(newer);
    const cancel = page.getByTestId('upload-overwrite-cancel');
    await cancel.waitFor({ state: 'visible' });
    await page
      .getByText('File already exists, overwrite?')
      .filter({ visible: true })
      .waitFor({ state: 'visible' });
    await cancel.click();
    await sleep(500);
    expect(chunkPosts.sent).toBe(sentBefore);
    expect(fs.readFileSync(onDisk('notes.txt'), 'utf8')).toBe('plain notes\n');

    await page.getByTestId('upload-input-files').setInputFiles(newer);
    await page.getByTestId('upload-overwrite-ok').click();
    await waitForUploads(1);
    expect(fs.readFileSync(onDisk('notes.txt'), 'utf8')).toBe('the newer notes');
  });

  it('pauses and resumes a 50 MB file, 3 chunks on the wire at most, title NN% | speed', async () => {
    await clearList();
    const big = writeTemp('big/fifty 🐘.bin', randomBytes(50 * MiB));
    chunkPosts.delayMs = 150;
    await page.evaluate(
      () => ((window as unknown as { __chunks: { max: number } }).__chunks.max = 0),
    );
    const sentAtStart = chunkPosts.sent;
    const finishedAtStart = chunkPosts.finished;
    await page.getByTestId('upload-input-files').setInputFiles(big);
    const item = row('fifty 🐘.bin');
    // a pause keeps what the server confirmed: wait until some chunks have been answered, not
    // only sent (on a busy machine the bar runs ahead of the answers)
    await until(
      async () =>
        Number((await item.getAttribute('data-percent')) ?? 0) >= 15 &&
        chunkPosts.finished - finishedAtStart >= 4 &&
        (await item.getAttribute('data-status')) === 'uploading',
      'the upload is under way',
      30_000,
    );
    expect(await page.title()).toMatch(/^\d{1,3}% \| [\d.]+ (B|KB|MB|GB)\/s$/);
    const maxInflight = await page.evaluate(
      () => (window as unknown as { __chunks: { max: number } }).__chunks.max,
    );
    await item.getByTestId('upload-item-pause').click();
    await until(async () => (await item.getAttribute('data-status')) === 'paused', 'paused');
    await until(() => chunkPosts.inflight === 0, 'chunks on the wire settle');
    const sentAtPause = chunkPosts.sent;
    const percentAtPause = Number(await item.getAttribute('data-percent'));
    await sleep(1200);
    expect(chunkPosts.sent).toBe(sentAtPause);
    expect(await item.textContent()).toContain('Paused');
    await item.getByTestId('upload-item-resume').click();
    await waitForUploads(1, 90_000);
    chunkPosts.delayMs = 0;
    expectSameBytes(onDisk('fifty 🐘.bin'), big);
    expect(percentAtPause).toBeGreaterThan(0);
    expect(maxInflight).toBe(3);
    // 50 chunks of 1 MiB: nothing was sent twice beyond the ones cut by the pause
    expect(chunkPosts.sent - sentAtStart).toBeLessThanOrEqual(50 + 3);
    // the title is the page's own again
    await until(async () => !/%/.test(await page.title()), 'the title comes back');
  });

  it("shows the server's error text, and retry finishes the upload", async () => {
    await clearList();
    await page.route('**/api/upload', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      await route.fulfill({
        status: 413,
        contentType: 'application/json',
        body: JSON.stringify({ code: 20, message: 'Not enough space: 0.5 MB left of 1 GB' }),
      });
    });
    const file = writeTemp('error/too big.txt', 'will not fit');
    await page.getByTestId('upload-input-files').setInputFiles(file);
    const item = row('too big.txt');
    await until(
      async () => (await item.getAttribute('data-status')) === 'failure',
      'the upload fails',
    );
    // the code's text in the user's language, the server's words as the detail
    expect(await item.getByTestId('upload-item-error').textContent()).toBe(
      'Your storage is full — Not enough space: 0.5 MB left of 1 GB',
    );
    await page.unroute('**/api/upload');
    await page.route('**/api/upload', async (route) => {
      if (route.request().method() === 'POST' && chunkPosts.delayMs)
        await sleep(chunkPosts.delayMs);
      await route.continue().catch(() => undefined);
    });
    await item.getByTestId('upload-item-retry').click();
    await waitForUploads(1);
    expectSameBytes(onDisk('too big.txt'), file);
  });

  it('resumes after a reload: the same file chosen again sends only what the server lacks', async () => {
    await clearList();
    const big = writeTemp('reload/resume me 🔁.bin', randomBytes(50 * MiB + 333));
    chunkPosts.delayMs = 200;
    await page.getByTestId('upload-input-files').setInputFiles(big);
    const item = row('resume me 🔁.bin');
    await until(
      async () =>
        (await item.getAttribute('data-status')) === 'uploading' &&
        Number((await item.getAttribute('data-percent')) ?? 0) >= 40,
      'two fifths are on the server',
      60_000,
    );
    // leaving the page while uploading warns; a new page load forgets the File objects
    let warned = false;
    page.once('dialog', (dialog) => {
      warned = dialog.type() === 'beforeunload';
      void dialog.accept();
    });
    await page.reload();
    expect(warned).toBe(true);
    chunkPosts.delayMs = 0;
    await page.getByTestId('upload-panel').waitFor({ state: 'visible' });
    await until(
      async () => (await item.getAttribute('data-needs-file')) === 'true',
      'the upload is remembered',
    );
    expect(await item.getAttribute('data-status')).toBe('paused');
    expect(await item.textContent()).toContain('Choose the file again to resume');
    // what the server already has shows before the file is chosen again
    await until(
      async () => Number((await item.getAttribute('data-percent')) ?? 0) >= 30,
      'the server progress of the remembered upload shows',
    );
    await saveScreenshot(page, 'upload-1440-light-resume');

    const sentBefore = chunkPosts.sent;
    await page.getByTestId('upload-input-files').setInputFiles(big);
    await waitForUploads(1, 90_000);
    const sentAfter = chunkPosts.sent - sentBefore;
    expect(sentAfter).toBeGreaterThan(0);
    expect(sentAfter).toBeLessThan(50 - 15);
    expectSameBytes(onDisk('resume me 🔁.bin'), big);
  });

  it('asks before closing the panel while uploading', async () => {
    await clearList();
    // slow enough that the upload is still under way when the panel is closed at the end
    chunkPosts.delayMs = 1000;
    const slow = writeTemp('close/slow.bin', randomBytes(40 * MiB));
    await page.getByTestId('upload-input-files').setInputFiles(slow);
    await until(async () => (await rowStatus('slow.bin')) === 'uploading', 'uploading');
    await page.getByTestId('upload-close').click();
    await page
      .getByText('Still files uploading, sure to exit?')
      .filter({ visible: true })
      .waitFor({ state: 'visible' });
    await page.getByTestId('upload-exit-cancel').click();
    expect(await page.getByTestId('upload-panel').isVisible()).toBe(true);

    // minimised, the panel is a one-line bar with the counts, speed and time left
    await page.getByTestId('upload-collapse').click();
    const bar = page.getByTestId('upload-panel');
    await until(
      async () => /[\d.]+ (B|KB|MB|GB)\/s/.test((await bar.textContent()) ?? ''),
      'the bar shows the speed',
    );
    expect((await bar.boundingBox())?.height).toBeLessThanOrEqual(48);
    expect(await page.getByTestId('upload-list').count()).toBe(0);
    await saveScreenshot(page, 'upload-1440-light-bar');
    await page.getByTestId('upload-expand').click();
    await page.getByTestId('upload-list').waitFor({ state: 'visible' });
    await saveScreenshot(page, 'upload-1440-light-panel');

    await page.getByTestId('upload-close').click();
    await page.getByTestId('upload-exit-ok').click();
    await page.getByTestId('upload-panel').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('upload-ball').count()).toBe(0);
    chunkPosts.delayMs = 0;
    await until(() => chunkPosts.inflight === 0, 'the cancelled chunks settle');
    expect(fs.existsSync(onDisk('slow.bin'))).toBe(false);
  });

  it('uses the chunk size kept in local storage, and 3 files at a time', async () => {
    await clearList();
    await page.evaluate(() => localStorage.setItem('uploader_chunk_size', String(2 * 1024 * 1024)));
    chunkPosts.delayMs = 250;
    const files = [1, 2, 3, 4, 5].map((n) => writeTemp(`five/file ${n}.bin`, randomBytes(5 * MiB)));
    const sentAtStart = chunkPosts.sent;
    await page.getByTestId('upload-input-files').setInputFiles(files);
    let mostActive = 0;
    let sawWaiting = false;
    await until(
      async () => {
        const statuses = await page
          .getByTestId('upload-item')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')));
        const active = statuses.filter(
          (s) => s === 'checking' || s === 'uploading' || s === 'merging',
        );
        mostActive = Math.max(mostActive, active.length);
        sawWaiting ||= statuses.includes('waiting') && active.length > 0;
        return statuses.length === 5 && statuses.every((s) => s === 'success');
      },
      'five files uploaded',
      60_000,
    );
    chunkPosts.delayMs = 0;
    await page.evaluate(() => localStorage.removeItem('uploader_chunk_size'));
    expect(mostActive).toBe(3);
    expect(sawWaiting).toBe(true);
    // 5 MiB in 2 MiB chunks: 2 chunks each, the second taking the remainder
    expect(chunkPosts.sent - sentAtStart).toBe(10);
    for (const file of files) expectSameBytes(onDisk(path.basename(file)), file);
  });

  it('a response without data shows its message and closes the uploader (spec §8)', async () => {
    await clearList();
    await page.route('**/api/upload?*', async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      await route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify({ code: 0, message: 'The upload service is being restarted' }),
      });
    });
    await page.getByTestId('upload-input-files').setInputFiles(writeTemp('nodata/x.txt', 'x'));
    await page.getByText('The upload service is being restarted').waitFor({ state: 'visible' });
    await page.getByTestId('upload-panel').waitFor({ state: 'hidden' });
    expect(await page.getByTestId('upload-ball').count()).toBe(0);
    await page.unroute('**/api/upload?*');
  });

  it('looks right: ball, panel and overlay at 1440 and 375 px, light and dark', async () => {
    // a finished list and one paused upload give the ball and the panel something to show
    chunkPosts.delayMs = 300;
    const files = [
      writeTemp('shots/季度报告 2024.pdf', randomBytes(300_000)),
      writeTemp(
        'shots/a rather long file name that needs to be truncated somewhere.mp4',
        randomBytes(200_000),
      ),
      writeTemp('shots/paused.bin', randomBytes(20 * MiB)),
    ];
    await page.getByTestId('upload-input-files').setInputFiles(files);
    const paused = row('paused.bin');
    await until(
      async () => (await paused.getAttribute('data-status')) === 'uploading',
      'uploading',
    );
    await paused.getByTestId('upload-item-pause').click();
    chunkPosts.delayMs = 0;
    await until(async () => (await panelCounts()).success === 2, 'two done');

    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize(DESKTOP);
      await chooseTheme(theme);
      await sleep(300);
      await saveScreenshot(page, `upload-1440-${theme}-panel-list`);
      await dragFiles('dragenter', { 'x.txt': 'x' });
      await page.getByTestId('upload-drop-overlay').waitFor({ state: 'visible' });
      await saveScreenshot(page, `upload-1440-${theme}-overlay`);
      await dragFiles('dragleave', { 'x.txt': 'x' });
      await page.getByTestId('upload-drop-overlay').waitFor({ state: 'hidden' });
      await page.getByTestId('upload-collapse').click();
      await saveScreenshot(page, `upload-1440-${theme}-bar-done`);

      await page.setViewportSize(PHONE);
      const ball = page.getByTestId('upload-ball');
      await ball.waitFor({ state: 'visible' });
      const box = await ball.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
      await saveScreenshot(page, `upload-375-${theme}-ball`);
      await dragFiles('dragenter', { 'x.txt': 'x' });
      await page.getByTestId('upload-drop-overlay').waitFor({ state: 'visible' });
      await saveScreenshot(page, `upload-375-${theme}-overlay`);
      await dragFiles('dragleave', { 'x.txt': 'x' });
      await page.getByTestId('upload-drop-overlay').waitFor({ state: 'hidden' });
      // on a phone the ball opens the file-transfer page instead of the panel
      await ball.click();
      await page.waitForURL((url) => url.pathname === '/upload/index_m');
      await page.getByTestId('transfer-page').waitFor({ state: 'visible' });
      expect(await page.getByTestId('upload-item').count()).toBe(theme === 'light' ? 3 : 4);
      await saveScreenshot(page, `upload-375-${theme}-transfer`);
      if (theme === 'light') {
        // the transfer page uploads into the folder last open
        expect(await page.getByTestId('transfer-target').textContent()).toBe('To All files');
        const chooser = page.waitForEvent('filechooser');
        await page.getByTestId('upload-add-files').click();
        const phoneFile = writeTemp('phone/从手机 📱.txt', 'sent from a phone');
        await (await chooser).setFiles(phoneFile);
        await until(async () => (await rowStatus('从手机 📱.txt')) === 'success', 'phone upload');
        expectSameBytes(onDisk('从手机 📱.txt'), phoneFile);
      }
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
      await page.goBack();
      await page.setViewportSize(DESKTOP);
      await page.getByTestId('upload-expand').click();
      await page.getByTestId('upload-list').waitFor({ state: 'visible' });
    }
    await chooseTheme('light');
    // the uploader speaks the chosen language
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-zh_CN').click();
    await page.getByTestId('upload-panel').getByText('上传列表').waitFor({ state: 'visible' });
    expect(await page.getByTestId('upload-summary').textContent()).toContain('已上传 3 个');
    await saveScreenshot(page, 'upload-1440-light-panel-zh');
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-en_US').click();
    await page.getByTestId('upload-panel').getByText('Uploads').waitFor({ state: 'visible' });
  });
});
