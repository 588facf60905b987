import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startServer, until, type NimbusServer, api } from './harness.ts';

// A person signs in, opens every viewer (image, PDF, text, EPUB, video), plays a video,
// downloads a file and a zip, and visits a share with a code: the server's log, read at info
// level, holds neither their session's token nor the share's.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let scratch = '';

const run = (program: string, args: string[]) =>
  execFileSync(program, args, { stdio: 'ignore', env: { ...process.env, HOME: scratch } });

/** A document LibreOffice makes of a little HTML, by way of ODT (Writer/Web's own PDF is blank). */
function document(name: string, html: string, to: 'pdf' | 'epub'): string {
  const source = path.join(scratch, `${name}.html`);
  fs.writeFileSync(source, `<html><head><meta charset="utf-8"></head><body>${html}</body></html>`);
  const convert = (file: string, type: string) => {
    run('soffice', [
      `-env:UserInstallation=file://${scratch}/profile`,
      ...['--headless', '--norestore', '--convert-to', type, '--outdir', scratch, file],
    ]);
    return file.replace(/\.[^.]+$/, `.${type}`);
  };
  return convert(convert(source, 'odt'), to);
}

/** The files, made before the server starts (LibreOffice takes a while). */
function makeFiles(): string {
  const made = path.join(scratch, 'made');
  fs.mkdirSync(made);
  const ffmpeg = (args: string[]) =>
    run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=64x48',
    '-frames:v',
    '1',
    path.join(made, 'photo.png'),
  ]);
  ffmpeg([
    ...['-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=25:duration=6'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'],
    ...['-movflags', '+faststart', path.join(made, 'clip.mp4')],
  ]);
  fs.writeFileSync(path.join(made, 'notes.txt'), 'Meeting notes of the credentials check');
  fs.copyFileSync(
    document('paper', '<h1>A paper about lighthouses</h1>', 'pdf'),
    path.join(made, 'paper.pdf'),
  );
  fs.copyFileSync(
    document('story', '<h1>Chapter one</h1><p>A quiet morning in the valley.</p>', 'epub'),
    path.join(made, 'story.epub'),
  );
  return made;
}

/** The files, copied into the admin's tree on disk, then indexed. */
async function seed(made: string): Promise<void> {
  const root = path.join(server.dataDir, 'files', ADMIN.username);
  fs.mkdirSync(root, { recursive: true });
  for (const name of fs.readdirSync(made))
    fs.copyFileSync(path.join(made, name), path.join(root, name));
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<unknown[]>(server, 'GET', '/list?currentDirectory=%2F&pageSize=50', {
          token,
        }).catch(() => [])
      ).length === 5,
    'the files are indexed',
    30_000,
  );
}

const item = (p: Page, name: string) => p.locator(`[data-testid="file-item"][data-name="${name}"]`);

async function closeViewer(): Promise<void> {
  await page.keyboard.press('Escape');
  await until(
    async () =>
      (await page.locator('.ant-modal-wrap:visible, .ant-image-preview-root').count()) === 0,
    'the viewer closes',
  );
}

beforeAll(async () => {
  scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-credentials-e2e-'));
  const made = makeFiles();
  server = await startServer({ NIMBUS_LOG_LEVEL: 'info' });
  await api(server, 'POST', '/public/initialization', { body: ADMIN });
  // a session of the test's own, for seeding only: its token is looked for in the log too
  token = (await api<{ 'nimbus-token': string }>(server, 'POST', '/login', { body: ADMIN }))[
    'nimbus-token'
  ];
  await seed(made);
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server, { acceptDownloads: true }));
}, 180_000);

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
});

describe('credentials in addresses', () => {
  const secrets: string[] = [];

  it('signs in with the form, and the session lives in storage and a cookie only', async () => {
    secrets.push(token);
    await page.goto('/login');
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL((url) => url.pathname === '/');
    await item(page, 'photo.png').waitFor({ state: 'visible' });
    const session = await page.evaluate(
      () =>
        (JSON.parse(localStorage.getItem('store')!) as { state: { token: string } }).state.token,
    );
    expect(session).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    secrets.push(session);
  });

  it('opens the image, text, PDF and EPUB viewers', async () => {
    await item(page, 'photo.png').dblclick();
    const image = page.getByTestId('image-viewer-img');
    await until(
      async () => (await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)) === 64,
      'the image loads',
    );
    await closeViewer();

    // the owner's text opens in the editor, read through the same session
    await item(page, 'notes.txt').dblclick();
    const text = page.getByTestId('text-editor-input');
    await until(async () => (await text.inputValue()).includes('Meeting notes'), 'the text shows');
    await page.getByTestId('editor-close').click();
    await until(
      async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
      'the editor closes',
    );

    await item(page, 'paper.pdf').dblclick();
    const pdf = page.frameLocator('[data-testid="iframe-viewer"]');
    await until(
      async () =>
        (
          await pdf
            .locator('.textLayer')
            .allTextContents()
            .catch(() => [])
        )
          .join(' ')
          .includes('lighthouses'),
      'the PDF shows',
      60_000,
    );
    await page.getByTestId('iframe-viewer-close').click();

    await item(page, 'story.epub').dblclick();
    const book = page
      .frameLocator('[data-testid="iframe-viewer"]')
      .frameLocator('[data-testid="epub-viewer"] iframe');
    await book.getByText('A quiet morning in the valley.').waitFor({ timeout: 30_000 });
    await page.getByTestId('iframe-viewer-close').click();
  });

  it('plays a video', async () => {
    await item(page, 'clip.mp4').dblclick();
    const video = page.getByTestId('video-element');
    await video.waitFor({ state: 'visible' });
    await until(
      async () => (await video.evaluate((el) => (el as HTMLVideoElement).currentTime)) > 1,
      'the video plays',
      20_000,
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('video-viewer').waitFor({ state: 'detached' });
  });

  it('downloads a file and a zip', async () => {
    await page.goto('/?vmode=list');
    await item(page, 'notes.txt').click();
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('toolbar-download').click(),
    ]);
    expect(fs.readFileSync(await file.path(), 'utf8')).toContain('Meeting notes');
    await item(page, 'photo.png').click({ modifiers: ['Control'] });
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('toolbar-download').click(),
    ]);
    expect(zip.suggestedFilename()).toMatch(/\.zip$/);
  });

  it('visits a share with a code and previews its image', async () => {
    const files = await api<Array<{ id: string; name: string }>>(
      server,
      'GET',
      '/list?pageSize=50',
      { token },
    );
    const share = await api<{ shareId: string; shortId: string; extractionCode: string }>(
      server,
      'POST',
      '/share/generate',
      { token, body: { fileId: files.find((f) => f.name === 'photo.png')!.id, isPrivacy: true } },
    );
    const visitor = await context.browser()!.newContext({ baseURL: server.baseUrl });
    try {
      const visit = await visitor.newPage();
      await visit.goto(`/s/${share.shortId}`);
      await visit.getByTestId('share-code-input').fill(share.extractionCode);
      await visit.getByTestId('share-code-submit').click();
      await item(visit, 'photo.png').dblclick();
      const image = visit.getByTestId('image-viewer-img');
      await until(
        async () => (await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)) === 64,
        'the shared image loads',
      );
      const shareToken = await visit.evaluate(() => {
        const kept = JSON.parse(localStorage.getItem('shareTokens') ?? '{}') as {
          state?: { tokens?: Record<string, { token: string }> };
        };
        return Object.values(kept.state?.tokens ?? {})[0]?.token ?? '';
      });
      expect(shareToken.length).toBeGreaterThan(20);
      secrets.push(shareToken);
    } finally {
      await visitor.close();
    }
  });

  it('leaves no token in the server log', () => {
    const log = server.output();
    // the log did record the requests, their addresses masked
    expect(log).toContain('/api/pre-file/');
    expect(log).toContain('/api/public/s/');
    for (const secret of secrets) {
      expect(log.includes(secret), 'a token is in the log').toBe(false);
      expect(log.includes(encodeURIComponent(secret)), 'an encoded token is in the log').toBe(
        false,
      );
    }
    // and no address carries a session token, masked or not
    expect(log).not.toMatch(/nimbus-token(=|%3D)/i);
  });
});
