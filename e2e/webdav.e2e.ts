import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openPage,
  saveScreenshot,
  signInPage,
  startServer,
  until,
  type NimbusServer,
  closeAll,
} from './harness.ts';

// WebDAV as a person meets it: the address in the sidebar, a file a WebDAV client writes
// appearing in the open browser without a reload, and a WebDAV lock stopping a rename or an
// upload in the browser with the name of who holds it.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: { token: string; userId: string; username: string };

beforeAll(async () => {
  server = await startServer();
  const init = await fetch(`${server.baseUrl}/api/public/initialization`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  expect(((await init.json()) as { code: number }).code).toBe(0);
  const login = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...ADMIN, rememberMe: true }),
  });
  const data = ((await login.json()) as { data: Record<string, string> }).data;
  session = { token: data['nimbus-token']!, userId: data.userId!, username: ADMIN.username };
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server));
});

afterAll(() => closeAll({ context, browser, server }));

const basic = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;

describe('WebDAV in the browser', () => {
  it('shows the WebDAV address in the sidebar', async () => {
    // the live event stream signs in with the cookie a sign-in sets
    await context.addCookies([
      { name: 'nimbus-token', value: session.token, url: server.baseUrl, httpOnly: true },
    ]);
    await signInPage(page, session);
    const url = page.getByTestId('webdav-url');
    await url.waitFor({ state: 'visible' });
    expect(await url.textContent()).toBe(`${server.baseUrl}/webdav/`);
    await saveScreenshot(page, 'webdav-sidebar');
  });

  it('shows a file a WebDAV client puts, live, in the open folder', async () => {
    await page.getByTestId('files-view').waitFor({ state: 'visible' });
    const name = '来自 WebDAV 😀 #1.txt';
    const res = await fetch(`${server.baseUrl}/webdav/${encodeURIComponent(name)}`, {
      method: 'PUT',
      headers: { authorization: basic },
      body: 'written by a WebDAV client',
    });
    expect(res.status).toBe(201);
    await page
      .locator(`[data-testid="file-item"][data-name="${name}"]`)
      .waitFor({ state: 'visible' });
    await saveScreenshot(page, 'webdav-live-put');
  });
  it('shows who holds a WebDAV lock when a rename in the browser meets it', async () => {
    const name = 'locked report.txt';
    const path = `${server.baseUrl}/webdav/${encodeURIComponent(name)}`;
    expect(
      (await fetch(path, { method: 'PUT', headers: { authorization: basic }, body: 'x' })).status,
    ).toBe(201);
    const locked = await fetch(path, {
      method: 'LOCK',
      headers: { authorization: basic, depth: '0', 'content-type': 'application/xml' },
      body:
        '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
        "<D:locktype><D:write/></D:locktype><D:owner>Alice's laptop</D:owner></D:lockinfo>",
    });
    expect(locked.status).toBe(200);
    const file = page.locator(`[data-testid="file-item"][data-name="${name}"]`);
    await file.waitFor({ state: 'visible' });
    await file.click();
    await page.keyboard.press('F2');
    const input = page.getByTestId('file-rename-input');
    await input.waitFor({ state: 'visible' });
    await input.fill('renamed.txt');
    await input.press('Enter');
    await page
      .getByText(
        /The item is locked by a WebDAV client — "\/locked report.txt" is locked by Alice's laptop over WebDAV until/,
      )
      .waitFor({ state: 'visible' });
    await saveScreenshot(page, 'webdav-locked-rename');
    await input.press('Escape');
    expect(await file.count()).toBe(1);
  });

  it('refuses an upload over a locked file before any chunk goes out, naming who holds it', async () => {
    // the file of the step before is still locked by Alice's laptop
    const name = 'locked report.txt';
    const local = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-e2e-dav-')), name);
    fs.writeFileSync(local, 'a newer report from the browser');
    const chunks: string[] = [];
    const onRequest = (request: { method(): string; url(): string }) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/upload')
        chunks.push(request.url());
    };
    page.on('request', onRequest);
    try {
      // the selection of the step before is let go: the toolbar shows its upload button again
      const upload = page.getByTestId('upload-button');
      if (!(await upload.isVisible())) await page.keyboard.press('Escape');
      await upload.waitFor({ state: 'visible' });
      const chooser = page.waitForEvent('filechooser');
      await upload.click();
      await page.getByTestId('upload-menu-files').click();
      await (await chooser).setFiles(local);
      await page.getByTestId('upload-overwrite-ok').click();
      const row = page.locator(`[data-testid="upload-item"][data-name="${name}"]`);
      await until(
        async () => (await row.getAttribute('data-status')) === 'failure',
        'the upload is refused',
      );
      expect(await row.getByTestId('upload-item-error').textContent()).toMatch(
        /^The item is locked by a WebDAV client — "\/locked report.txt" is locked by Alice's laptop over WebDAV until 20/,
      );
      await saveScreenshot(page, 'webdav-locked-upload');
      expect(chunks).toEqual([]);
      const now = await fetch(`${server.baseUrl}/webdav/${encodeURIComponent(name)}`, {
        headers: { authorization: basic },
      });
      expect(await now.text()).toBe('x');
    } finally {
      page.off('request', onRequest);
      fs.rmSync(path.dirname(local), { recursive: true, force: true });
    }
  });
});
