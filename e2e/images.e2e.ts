import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  openPage,
  PHONE,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  shareFromRoot,
  openSignedIn,
  closeAll,
} from './harness.ts';
import { linearDng, rgbPsd } from '../server/test/image-fixtures.ts';

// Photos as people look at them: the grid draws each tile from its 256 px thumbnail (a HEIC
// photo and a PDF's first page included), a photo opens in the gallery, which zooms, turns,
// steps through the folder by keys, buttons and swipes and tells the camera's details; a visitor
// of the shared folder sees the same without an account. The steps share pages and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const PHOTOS = ['a-red.jpg', 'b-green.jpg', 'c-phone.heic', 'd-logo.svg', 'e-blue.png'];

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let userId = '';

const solid = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } });

/** A one-page PDF with a dark box on it. */
function onePagePdf(): Buffer {
  const content = '0 0 0.6 rg 50 50 300 400 re f';
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 400 500] /Contents 4 0 R >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Photos made now, written into the admin's tree on disk, then indexed. */
async function seed(): Promise<void> {
  const dir = path.join(server.dataDir, 'files', ADMIN.username, 'photos');
  fs.mkdirSync(dir, { recursive: true });
  await solid(1600, 1000, '#d94040')
    .composite([{ input: await solid(500, 500, '#ffffff').png().toBuffer(), top: 250, left: 200 }])
    .jpeg()
    .withExif({ IFD0: { Make: 'Nimbus', Model: 'Field Camera', Software: 'e2e' } })
    .toFile(path.join(dir, 'a-red.jpg'));
  await solid(900, 1200, '#3a9a4a').jpeg().toFile(path.join(dir, 'b-green.jpg'));
  const png = path.join(dir, 'heic-source.png');
  await solid(640, 480, '#e0a020').png().toFile(png);
  execFileSync('heif-enc', ['-q', '60', png, '-o', path.join(dir, 'c-phone.heic')]);
  fs.rmSync(png);
  fs.writeFileSync(
    path.join(dir, 'd-logo.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><circle cx="200" cy="200" r="180" fill="#5050d0"/></svg>',
  );
  await solid(800, 600, '#2060d0').png().toFile(path.join(dir, 'e-blue.png'));
  fs.writeFileSync(path.join(dir, 'f-paper.pdf'), onePagePdf());
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2Fphotos', {
          token,
        }).catch(() => [])
      ).length === 6,
    'the photos are indexed',
    30_000,
  );
}

const item = (p: Page, name: string) => p.locator(`[data-testid="file-item"][data-name="${name}"]`);
const viewerImage = (p: Page) => p.getByTestId('image-viewer-img');
const count = async (p: Page) => (await p.getByTestId('image-count').textContent())?.trim();

/** The gallery shows `name`, fully loaded, `width` pixels wide. */
async function shows(p: Page, name: string, width: number): Promise<void> {
  await until(
    async () =>
      (await viewerImage(p).getAttribute('alt')) === name &&
      (await viewerImage(p).getAttribute('data-loaded')) === 'true' &&
      (await viewerImage(p).evaluate((img) => (img as HTMLImageElement).naturalWidth)) === width,
    `${name} loads in the gallery`,
  );
}

/** Every tile of these names has its thumbnail drawn from the thumbnail route. */
async function thumbnailsDrawn(p: Page, names: string[], route: RegExp): Promise<void> {
  for (const name of names) {
    const img = item(p, name).locator('img.nb-thumb');
    await until(
      async () =>
        (await img.count()) === 1 &&
        route.test((await img.getAttribute('src')) ?? '') &&
        (await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)) > 0,
      `the tile of ${name} shows its thumbnail`,
    );
  }
}

beforeAll(async () => {
  server = await startServer();
  const data = await createAdmin(server, ADMIN);
  token = data.token;
  userId = data.userId;
  await seed();
  ({ browser, context, page } = await openSignedIn(server, {
    token,
    userId,
    username: ADMIN.username,
  }));
}, 90_000);

afterAll(() => closeAll({ context, browser, server }));

describe('photos in the drive', () => {
  it('draws the grid from thumbnails, HEIC and a PDF page included', async () => {
    await page.goto('/?path=%2Fphotos%2F&vmode=grid');
    await thumbnailsDrawn(page, [...PHOTOS, 'f-paper.pdf'], /^\/api\/view\/thumbnail\?/);
    // a thumbnail is small: the 1600 px photo's tile is a 256 px picture
    const natural = await item(page, 'a-red.jpg')
      .locator('img.nb-thumb')
      .evaluate((img) => (img as HTMLImageElement).naturalWidth);
    expect(natural).toBe(256);
    await saveScreenshot(page, 'images-grid');
  });

  it('opens a photo in the gallery: zoom, turn, details, next and previous', async () => {
    await item(page, 'a-red.jpg').dblclick();
    await shows(page, 'a-red.jpg', 1600);
    expect(await count(page)).toBe('1 / 5');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();
    expect(await page.getByTestId('image-scale').textContent()).toBe('156%');
    await page.getByRole('button', { name: 'Rotate right' }).click();
    const turned = await viewerImage(page).evaluate((img) => (img as HTMLElement).style.transform);
    expect(turned).toContain('rotate(90deg)');
    await page.keyboard.press('i');
    const info = page.getByTestId('image-info');
    await until(
      async () => (await info.innerText()).includes('Nimbus Field Camera'),
      'the camera shows in the details',
    );
    expect(await info.innerText()).toContain('1600 × 1000');
    await saveScreenshot(page, 'images-gallery-details');
    await page.keyboard.press('0');
    expect(await page.getByTestId('image-scale').textContent()).toBe('100%');

    await page.keyboard.press('ArrowRight');
    await shows(page, 'b-green.jpg', 900);
    expect(await count(page)).toBe('2 / 5');
    // HEIC is shown as the WebP the server makes of it
    await page.getByTestId('image-next').click();
    await shows(page, 'c-phone.heic', 640);
    expect(await viewerImage(page).getAttribute('src')).toMatch(/^\/api\/view\/image\?/);
    await saveScreenshot(page, 'images-gallery-heic');
    // the SVG is drawn by the server, never loaded as markup
    await page.keyboard.press('ArrowRight');
    await shows(page, 'd-logo.svg', 400);
    await page.keyboard.press('ArrowLeft');
    await shows(page, 'c-phone.heic', 640);
    // from the first back to the last
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await shows(page, 'e-blue.png', 800);
    expect(await count(page)).toBe('5 / 5');
    await page.keyboard.press('Escape');
    await page.getByTestId('image-viewer').waitFor({ state: 'detached' });
  });

  it('tells a photo\u2019s size and camera in the details drawer', async () => {
    await item(page, 'a-red.jpg').click();
    await page.keyboard.press('Space');
    const facts = page.getByTestId('details-image');
    await until(
      async () =>
        (await facts.count()) === 1 && (await facts.innerText()).includes('Nimbus Field Camera'),
      'the photo\u2019s details show',
    );
    expect(await facts.innerText()).toContain('1600 × 1000');
    await saveScreenshot(page, 'images-details-drawer');
    await page.keyboard.press('Escape');
  });

  it('turns the page with a swipe on a phone', async () => {
    const phone = await openPage(browser, server, { viewport: PHONE, hasTouch: true });
    try {
      // the phone's layout hides the sidebar that signInPage waits for
      await phone.page.goto('/login');
      await phone.page.evaluate(
        (session) => localStorage.setItem('store', JSON.stringify({ state: session, version: 1 })),
        { token, userId, username: ADMIN.username, shareToken: '', shareId: '', theme: 'light' },
      );
      await phone.page.goto('/?path=%2Fphotos%2F&vmode=grid');
      await item(phone.page, 'b-green.jpg').dblclick();
      await shows(phone.page, 'b-green.jpg', 900);
      const box = (await phone.page.getByTestId('image-viewer-img').boundingBox())!;
      const y = box.y + box.height / 2;
      // a finger moving from right to left: the next photo
      await phone.page.mouse.move(300, y);
      await phone.page.mouse.down();
      await phone.page.mouse.move(200, y, { steps: 5 });
      await phone.page.mouse.move(60, y, { steps: 5 });
      await phone.page.mouse.up();
      await shows(phone.page, 'c-phone.heic', 640);
      await saveScreenshot(phone.page, 'images-gallery-phone');
    } finally {
      await phone.context.close();
    }
  });
});

describe('camera RAW photos and Photoshop documents', () => {
  it('have thumbnails in the grid and open in the gallery as the WebP the server develops', async () => {
    const dir = path.join(server.dataDir, 'files', ADMIN.username, 'designs');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'poster.psd'), rgbPsd(300, 200, [30, 60, 220]));
    fs.writeFileSync(
      path.join(dir, 'IMG_0001.DNG'),
      linearDng({ width: 320, height: 240, rgb: [60000, 8000, 8000] }),
    );
    await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
    await until(
      async () =>
        (
          await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2Fdesigns', {
            token,
          }).catch(() => [])
        ).length === 2,
      'the designs are indexed',
      30_000,
    );
    await page.goto('/?path=%2Fdesigns%2F&vmode=grid');
    await thumbnailsDrawn(page, ['IMG_0001.DNG', 'poster.psd'], /^\/api\/view\/thumbnail\?/);
    await saveScreenshot(page, 'images-grid-raw-psd');
    await item(page, 'poster.psd').dblclick();
    await shows(page, 'poster.psd', 300);
    expect(await viewerImage(page).getAttribute('src')).toMatch(/^\/api\/view\/image\?/);
    await page.keyboard.press('ArrowLeft');
    await shows(page, 'IMG_0001.DNG', 320);
    await page.keyboard.press('Escape');
    await page.getByTestId('image-viewer').waitFor({ state: 'detached' });
  });
});

describe('photo storage', () => {
  it('lets the administrator keep new photos as WebP from General settings', async () => {
    await page.goto('/setting/cloudManager');
    const toggle = page.getByTestId('webp-storage-switch');
    await toggle.waitFor();
    expect(await toggle.getAttribute('aria-checked')).toBe('false');
    await toggle.click();
    await until(
      async () =>
        (await api<{ enable: boolean }>(server, 'GET', '/cloud/setting/webp', { token })).enable &&
        (await toggle.getAttribute('aria-checked')) === 'true',
      'the setting is saved',
    );
    await page.getByTestId('webp-storage-card').scrollIntoViewIfNeeded();
    await saveScreenshot(page, 'images-webp-setting');
    await toggle.click();
    await until(
      async () =>
        !(await api<{ enable: boolean }>(server, 'GET', '/cloud/setting/webp', { token })).enable,
      'the setting is off again',
    );
  });
});

describe('photos in a share', () => {
  it('shows a visitor the thumbnails without an account', async () => {
    const folder = await shareFromRoot(server, token, 'photos', 'holiday');
    const visitor = await openPage(browser, server);
    try {
      await visitor.page.goto('/s/holiday?vmode=grid');
      await thumbnailsDrawn(visitor.page, PHOTOS, /^\/api\/public\/s\/view\/thumbnail\?/);
      await saveScreenshot(visitor.page, 'images-share-grid');
      // the thumbnails come from the share's own route, gated by it
      const outside = await fetch(
        `${server.baseUrl}/api/public/s/view/thumbnail?shareId=holiday&id=${folder.id}`,
      );
      expect(outside.headers.get('content-type')).toMatch(/json/);
    } finally {
      await visitor.context.close();
    }
  });
});
