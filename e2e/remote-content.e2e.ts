import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  launchBrowser,
  openPage,
  saveScreenshot,
  signInPage,
  startServer,
  until,
  type NimbusServer,
  api,
  shareFromRoot,
  closeAll,
} from './harness.ts';

// A markdown document with an image from another site: reading it tells that site nothing until
// the reader asks for it. Every request for an address off this machine is answered here (never
// sent), and recorded: none may be made before the reader's click.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const REMOTE = 'https://example.invalid/x.png';
const DOCUMENT = [
  '# Trip',
  '',
  '![beach](assets/beach.png)',
  '',
  `![far](${REMOTE})`,
  '',
  '<img src="https://example.invalid/raw.png" alt="raw">',
  '',
].join('\n');

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let remotePng: Buffer;
/** Requests for addresses off this machine, in order. */
const offMachine: string[] = [];
/** What the console said about the content security policy, and errors thrown in the page. */
const policyComplaints: string[] = [];

const LOOPBACK = new Set(['127.0.0.1', '[::1]', '::1', 'localhost']);
const isOffMachine = (url: string) => {
  const parsed = new URL(url);
  return /^(https?|wss?|ftp):$/.test(parsed.protocol) && !LOOPBACK.has(parsed.hostname);
};

const notes = () => path.join(server.dataDir, 'files', ADMIN.username, 'notes');
const item = (target: Page, name: string) =>
  target.locator(`[data-testid="file-item"][data-name="${name}"]`);
const surface = () => page.locator('[data-testid="markdown-editor"] .vditor-ir .vditor-reset');
const loadedWidth = (selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

/** Never let a request leave the machine: answer it with a picture made here. */
async function keepOnMachine(target: BrowserContext): Promise<void> {
  await target.route(
    (url) => isOffMachine(url.href),
    (route) => route.fulfill({ status: 200, contentType: 'image/png', body: remotePng }),
  );
}

function watch(target: Page): void {
  target.on('request', (request: Request) => {
    if (isOffMachine(request.url())) offMachine.push(request.url());
  });
  target.on('console', (message) => {
    if (/content.security.policy/i.test(message.text())) policyComplaints.push(message.text());
  });
  target.on('pageerror', (error) => policyComplaints.push(`page error: ${error.message}`));
}

async function closeEditor(): Promise<void> {
  await page.getByTestId('editor-close').click();
  await until(
    async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
    'the editor closes',
  );
}

beforeAll(async () => {
  server = await startServer();
  const session = await createAdmin(server, ADMIN);
  token = session.token;
  remotePng = await sharp({
    create: { width: 7, height: 5, channels: 3, background: { r: 200, g: 30, b: 30 } },
  })
    .png()
    .toBuffer();
  fs.mkdirSync(path.join(notes(), 'assets'), { recursive: true });
  fs.writeFileSync(path.join(notes(), 'trip.md'), DOCUMENT);
  fs.writeFileSync(
    path.join(notes(), 'assets', 'beach.png'),
    await sharp({
      create: { width: 30, height: 20, channels: 3, background: { r: 30, g: 120, b: 200 } },
    })
      .png()
      .toBuffer(),
  );
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2Fnotes', {
          token,
        }).catch(() => [])
      ).length >= 2,
    'the files are indexed',
    30_000,
  );
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server));
  await keepOnMachine(context);
  watch(page);
  await signInPage(page, { token, userId: session.userId, username: ADMIN.username });
  await item(page, 'notes').dblclick();
  await item(page, 'trip.md').waitFor({ state: 'visible' });
});

afterAll(() => closeAll({ context, browser, server }));

describe('the markdown editor', () => {
  it('shows the drive’s image and holds the other site’s back until asked', async () => {
    await item(page, 'trip.md').dblclick();
    await surface().waitFor({ state: 'visible' });
    await until(
      async () =>
        (await loadedWidth('[data-testid="markdown-editor"] img[src*="assets/beach"]')) === 30,
      'the image beside the document loads',
    );
    const held = surface().locator(`img[data-nb-remote-src="${REMOTE}"]`);
    await held.waitFor({ state: 'attached' });
    expect(await held.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    // raw HTML in the document is held back the same way
    expect(
      await surface().locator('img[data-nb-remote-src="https://example.invalid/raw.png"]').count(),
    ).toBeGreaterThan(0);
    await page.getByTestId('remote-content-held').waitFor({ state: 'visible' });
    await saveScreenshot(page, 'editor-markdown-remote-held');
    expect(offMachine).toEqual([]);

    // an edit and a save keep the addresses in the text
    await surface().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('Back home.');
    await page.getByTestId('editor-save').click();
    await until(
      async () => (await page.getByTestId('editor-title').textContent()) === 'trip.md',
      'saved',
    );
    const saved = fs.readFileSync(path.join(notes(), 'trip.md'), 'utf8');
    expect(saved).toContain(`![far](${REMOTE})`);
    expect(saved).toContain('<img src="https://example.invalid/raw.png" alt="raw">');
    expect(saved).not.toContain('data-nb-remote');
    expect(offMachine).toEqual([]);

    await page.getByTestId('remote-content-load').click();
    await until(() => offMachine.includes(REMOTE), 'the image is asked for');
    await until(
      async () => (await loadedWidth(`[data-testid="markdown-editor"] img[src="${REMOTE}"]`)) === 7,
      'the image shows (as answered here)',
    );
    expect(await page.getByTestId('remote-content-held').count()).toBe(0);
    await closeEditor();
  });

  it('holds it back again in a new view, in the preview pane too', async () => {
    offMachine.length = 0;
    // a fresh page: the browser would otherwise reuse the picture it already has
    await page.reload();
    await item(page, 'trip.md').dblclick();
    await surface().waitFor({ state: 'visible' });
    await page.getByTestId('remote-content-held').waitFor({ state: 'visible' });
    await page
      .locator('[data-testid="markdown-editor"] .vditor-toolbar [data-type="more"]')
      .click();
    await page
      .locator('[data-testid="markdown-editor"] .vditor-toolbar [data-type="preview"]')
      .click();
    const preview = page.locator('[data-testid="markdown-editor"] .vditor-preview');
    await preview.waitFor({ state: 'visible' });
    await until(
      async () =>
        (await loadedWidth(
          '[data-testid="markdown-editor"] .vditor-preview img[src*="assets/beach"]',
        )) === 30,
      'the image beside the document loads in the preview',
    );
    await preview.locator(`img[data-nb-remote-src="${REMOTE}"]`).waitFor({ state: 'attached' });
    await saveScreenshot(page, 'editor-markdown-preview-remote-held');
    expect(offMachine).toEqual([]);

    await page.getByTestId('remote-content-load').click();
    await until(() => offMachine.includes(REMOTE), 'the image is asked for');
    await until(
      async () =>
        (await loadedWidth(
          `[data-testid="markdown-editor"] .vditor-preview img[src="${REMOTE}"]`,
        )) === 7,
      'the image shows in the preview',
    );
    await closeEditor();
  });
});

describe('the mind-map editor', () => {
  const MAP_REMOTE = 'https://example.invalid/topic.png';
  const images = () => page.locator('[data-testid="mind-map"] image');
  const hrefs = async () =>
    images().evaluateAll((list) =>
      list.map((image) => image.getAttribute('href') ?? image.getAttribute('xlink:href') ?? ''),
    );

  it('holds a topic’s image from another site back until asked, and saves it unchanged', async () => {
    offMachine.length = 0;
    const local = `/api/file/${ADMIN.username}/notes/assets/beach.png`;
    const km = JSON.stringify({
      root: {
        data: { id: 'r1', text: 'Plan', image: MAP_REMOTE, imageSize: { width: 40, height: 30 } },
        children: [
          {
            data: { id: 'c1', text: 'Beach', image: local, imageSize: { width: 30, height: 20 } },
            children: [],
          },
        ],
      },
      template: 'default',
      theme: 'fresh-blue',
      version: '1.4.43',
    });
    fs.writeFileSync(path.join(notes(), 'plan.km'), km);
    await api(server, 'GET', '/user/setting/sync?path=%2Fnotes', { token });
    // the sync indexes in the background: the page is loaded again once the file is listed
    await until(
      async () =>
        (
          await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2Fnotes', {
            token,
          }).catch(() => [])
        )
          .map((i) => i.name)
          .includes('plan.km'),
      'the map is indexed',
    );
    await page.reload();
    await item(page, 'plan.km').waitFor({ state: 'visible' });
    // a double-click that lands while the list still redraws is asked again
    await until(async () => {
      if (!(await page.getByTestId('mind-map').isVisible())) await item(page, 'plan.km').dblclick();
      return page
        .getByTestId('mind-map')
        .waitFor({ state: 'visible', timeout: 5000 })
        .then(
          () => true,
          () => false,
        );
    }, 'the map opens');
    await until(async () => (await images().count()) === 2, 'both topic images are drawn');
    const drawn = await hrefs();
    expect(drawn).toContain(local);
    expect(drawn.some((href) => href.startsWith('data:image/svg+xml'))).toBe(true);
    expect(drawn).not.toContain(MAP_REMOTE);
    await page.getByTestId('remote-content-held').waitFor({ state: 'visible' });
    expect(await page.getByTestId('editor-title').textContent()).toBe('plan.km');
    expect(offMachine).toEqual([]);

    await page.getByTestId('remote-content-load').click();
    await until(() => offMachine.includes(MAP_REMOTE), 'the image is asked for');
    await until(async () => (await hrefs()).includes(MAP_REMOTE), 'the image is drawn');
    expect(await page.getByTestId('editor-title').textContent()).toBe('plan.km');
    expect(fs.readFileSync(path.join(notes(), 'plan.km'), 'utf8')).toBe(km);
    await closeEditor();
  });
});

describe('a visitor of a share', () => {
  it('reads the document as text and asks no other site for anything', async () => {
    await shareFromRoot(server, token, 'notes', 'trip-notes');
    const visitor = await openPage(browser, server);
    await keepOnMachine(visitor.context);
    const requests: string[] = [];
    visitor.page.on('request', (request) => {
      if (isOffMachine(request.url())) requests.push(request.url());
    });
    try {
      await visitor.page.goto('/s/trip-notes');
      await item(visitor.page, 'trip.md').dblclick();
      const text = visitor.page.getByTestId('text-preview-content');
      await text.waitFor({ state: 'visible' });
      await until(async () => ((await text.innerText()) ?? '').includes(REMOTE), 'the text shows');
      expect(await text.locator('img').count()).toBe(0);
      expect(requests).toEqual([]);
    } finally {
      await visitor.context.close();
    }
  });
});

describe('the whole visit', () => {
  it('logged no breach of the content security policy and no page error', () => {
    expect(policyComplaints).toEqual([]);
  });
});
