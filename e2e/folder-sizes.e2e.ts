import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  startServer,
  until,
  type ApiSession,
  type NimbusServer,
  api,
  openSignedIn,
} from './harness.ts';

// A folder shows the bytes below it: files uploaded into it from the browser show in its row of
// the list and in its details, and the quota bar says what the used space is made of.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
let tmp: string;

const item = (name: string) => page.locator(`[data-testid="file-item"][data-name="${name}"]`);

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-sizes-'));
  server = await startServer();
  session = await createAdmin(server, ADMIN);
  await api(server, 'POST', '/new_folder', {
    token: session.token,
    query: { filename: 'reports', currentDirectory: '/' },
  });
  ({ browser, context, page } = await openSignedIn(server, session));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('folder sizes', () => {
  it('shows the size of a folder files were uploaded into, in the list and in its details', async () => {
    await item('reports').waitFor({ state: 'visible' });
    await item('reports').dblclick();
    await until(
      async () => (await page.getByTestId('files-view').getAttribute('data-path')) === '/reports/',
      'the folder opens',
    );
    const files = ['q1.bin', 'q2.bin'].map((name, i) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, Buffer.alloc((i + 1) * 1024, i));
      return file;
    });
    await page.getByTestId('upload-input-files').setInputFiles(files);
    const panel = page.getByTestId('upload-panel');
    await until(
      async () => Number(await panel.getAttribute('data-success')) === 2,
      'both uploads finish',
    );

    await page.keyboard.press('Alt+ArrowUp');
    await until(
      async () => (await page.getByTestId('files-view').getAttribute('data-path')) === '/',
      'the root shows again',
    );
    // 1 KB + 2 KB below it: in the grid's tile, then in the list's size column
    // the tile's hover card (a mouse resting on it) gives the size; moving away closes it
    await until(async () => {
      await page.mouse.move(0, 0);
      await item('reports').hover();
      const size = page.getByTestId('hover-card').getByTestId('hover-card-size');
      await size.waitFor({ state: 'visible', timeout: 3000 }).catch(() => undefined);
      return (await size.textContent().catch(() => '')) === '3.00K';
    }, 'the folder tile shows its size');
    await page.mouse.move(0, 0);
    await page.getByTestId('view-list').click();
    await until(
      async () => (await item('reports').locator('.nb-row__size').textContent()) === '3.00K',
      'the folder row shows its size',
    );

    await item('reports').click();
    await page.keyboard.press('Space');
    const drawer = page.getByTestId('details-drawer');
    await drawer.waitFor({ state: 'visible' });
    expect(await drawer.getByTestId('details-size').textContent()).toBe('3.00K');
    expect(await drawer.getByTestId('details-contents').textContent()).toBe('2 items');
    await page.keyboard.press('Escape');

    // the quota bar's figure is the files, the versions kept and the trash
    await page.getByTestId('quota-bar').hover();
    await expect
      .poll(() => page.getByTestId('quota-parts').textContent())
      .toBe('3.00K in files, 0B in earlier versions, 0B in the trash');
    await page.mouse.move(0, 0);
  });

  it('follows changes made below a folder on screen, from another device, without a reload', async () => {
    const rowSize = () => item('reports').locator('.nb-row__size').textContent();
    expect(await rowSize()).toBe('3.00K');
    // another device writes 4 KB into the folder, then deletes it
    const dav = `${server.baseUrl}/webdav/reports/q3.bin`;
    const auth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
    const put = await fetch(dav, {
      method: 'PUT',
      headers: { authorization: auth },
      body: Buffer.alloc(4096, 3),
    });
    expect(put.status).toBe(201);
    await until(async () => (await rowSize()) === '7.00K', 'the row shows the new size');
    const del = await fetch(dav, { method: 'DELETE', headers: { authorization: auth } });
    expect(del.status).toBe(204);
    await until(async () => (await rowSize()) === '3.00K', 'the row shows the size again');
    expect(await page.getByTestId('files-view').getAttribute('data-path')).toBe('/');
  });
});
