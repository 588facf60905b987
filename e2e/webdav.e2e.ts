import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openPage,
  saveScreenshot,
  signInPage,
  startServer,
  type NimbusServer,
} from './harness.ts';

// WebDAV as a person meets it: the address in the sidebar, and a file a WebDAV client writes
// appearing in the open browser without a reload.

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

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

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
});
