import { randomBytes, createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PHONE,
  launchBrowser,
  openPage,
  saveScreenshot,
  signInPage,
  startServer,
  until,
  type NimbusServer,
  apiAnswer,
} from './harness.ts';

// The owner sees the uploads under way on the server (their own, from another device, here
// started through the API) and cancels one, on a phone-sized screen, in both languages.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;

/** The first chunk of a three-chunk upload, as another device would send it. */
async function startUpload(token: string, name: string) {
  const content = randomBytes(3000);
  const fields: Record<string, string | number> = {
    chunkNumber: 1,
    chunkSize: 1000,
    currentChunkSize: 1000,
    totalSize: content.length,
    totalChunks: 3,
    identifier: createHash('sha256').update(content).digest('hex'),
    filename: name,
    relativePath: name,
    currentDirectory: '/',
  };
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  form.append('file', new Blob([content.subarray(0, 1000)]), name);
  const res = await fetch(`${server.baseUrl}/api/upload`, {
    method: 'POST',
    headers: { 'nimbus-token': token },
    body: form,
  });
  expect(((await res.json()) as { code: number }).code).toBe(0);
}

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('uploads under way on the server', () => {
  it('lists them and cancels one on a 375 px screen, in English and Chinese', async () => {
    await apiAnswer(server, 'POST', '/public/initialization', { body: ADMIN });
    const login = await apiAnswer<{ 'nimbus-token': string; userId: string }>(
      server,
      'POST',
      '/login',
      { body: { ...ADMIN, rememberMe: false } },
    );
    const token = login.data['nimbus-token'];
    await startUpload(token, 'holiday.mov');
    await startUpload(token, 'notes.pdf');

    const { context, page } = await openPage(browser, server);
    await signInPage(page, { token, userId: login.data.userId, username: ADMIN.username });
    await page.setViewportSize(PHONE);
    await page.goto('/upload/index_m');
    await page.getByTestId('upload-server-sessions').click();
    const rows = page.getByTestId('server-upload');
    await until(async () => (await rows.count()) === 2, 'two uploads listed');
    const text = await rows.first().textContent();
    expect(text).toContain('1000B of 2.93K received');
    expect(text).toContain('You');
    // nothing sticks out of a phone screen
    const dialog = page.getByRole('dialog');
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await saveScreenshot(page, 'upload-sessions-phone');

    await rows.filter({ hasText: 'holiday.mov' }).getByTestId('server-upload-cancel').click();
    await page.getByTestId('server-upload-cancel-confirm').click();
    await until(async () => (await rows.count()) === 1, 'the cancelled upload leaves the list');
    await expect(rows.first().textContent()).resolves.toContain('notes.pdf');
    const left = await apiAnswer<Array<{ filename: string }>>(server, 'GET', '/upload/sessions', {
      token,
    });
    expect(left.data.map((s) => s.filename)).toEqual(['notes.pdf']);
    expect(fs.readdirSync(path.join(server.dataDir, 'uploads'))).toHaveLength(1);

    // the same panel in Chinese
    await page.getByRole('button', { name: 'Close' }).last().click();
    await page.evaluate(() => {
      const app = JSON.parse(localStorage.getItem('app') ?? '{"state":{}}');
      app.state = { ...app.state, lang: 'zh_CN' };
      localStorage.setItem('app', JSON.stringify(app));
    });
    await page.reload();
    await page.getByTestId('upload-server-sessions').click();
    await page.getByText('服务器上进行中的上传').waitFor();
    await until(async () => (await rows.count()) === 1, 'one upload listed');
    await expect(rows.first().textContent()).resolves.toContain('已接收');
    await context.close();
  });
});
