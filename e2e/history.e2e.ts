import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  openSignedIn,
} from './harness.ts';

// A file's earlier versions as a person finds them: a text file uploaded over itself twice
// through the web app's uploader (confirming the overwrite, whose words say where the old
// content goes), then its menu → History: the earlier versions listed, one previewed, one
// downloaded, one restored. The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let tmp: string;

const onDisk = (name: string) => path.join(server.dataDir, 'files', ADMIN.username, name);
const item = (name: string): Locator =>
  page.locator(`[data-testid="file-item"][data-name="${name}"]`);

/** A local file named `name` holding `text`, in a folder of its own (the chooser takes it). */
function localFile(name: string, text: string): string {
  const folder = fs.mkdtempSync(path.join(tmp, 'pick-'));
  const file = path.join(folder, name);
  fs.writeFileSync(file, text);
  return file;
}

/** Upload through the uploader's file chooser; `overwrite`: confirm replacing the same name. */
async function uploadText(name: string, text: string, overwrite: boolean): Promise<void> {
  await page.getByTestId('upload-input-files').setInputFiles(localFile(name, text));
  if (overwrite) {
    const ok = page.getByTestId('upload-overwrite-ok');
    await ok.waitFor({ state: 'visible' });
    // the confirm says what becomes of the replaced content
    await page
      .getByText(/keeps what it held as an earlier version \(its menu → History\)/)
      .filter({ visible: true })
      .waitFor({ state: 'visible' });
    await ok.click();
    // the dialog fades out: the next upload's confirm must not meet this one still there
    await until(async () => (await ok.count()) === 0, 'the overwrite confirm gone');
  }
  await until(
    () => fs.existsSync(onDisk(name)) && fs.readFileSync(onDisk(name), 'utf8') === text,
    `${name} holds "${text}"`,
    30_000,
  );
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-history-e2e-'));
  server = await startServer();
  const session = await createAdmin(server, ADMIN);
  ({ browser, context, page } = await openSignedIn(server, session));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('a file’s history', () => {
  it('keeps each upload over a text file as a version, confirmed truthfully', async () => {
    await uploadText('notes.txt', 'version one', false);
    await item('notes.txt').waitFor({ state: 'visible' });
    await uploadText('notes.txt', 'version two', true);
    await uploadText('notes.txt', 'version three', true);
  });

  it('lists the earlier versions from the file’s menu → History', async () => {
    await item('notes.txt').click({ button: 'right' });
    await page.getByTestId('action-history').click();
    const dialog = page.getByTestId('history-dialog');
    await dialog.waitFor({ state: 'visible' });
    await until(
      async () => (await dialog.getByTestId('versions-item').count()) === 2,
      'two earlier versions are listed',
    );
    await saveScreenshot(page, 'history-1440-dialog');
  });

  it('previews a version’s text', async () => {
    const newest = page.getByTestId('versions-item').first();
    await newest.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByTestId('versions-preview');
    await preview.waitFor({ state: 'visible' });
    expect(await preview.textContent()).toBe('version two');
    await page.getByTestId('versions-preview-close').click();
    await preview.waitFor({ state: 'detached' });
  });

  it('downloads a version’s bytes', async () => {
    const oldest = page.getByTestId('versions-item').nth(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      oldest.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('notes.txt');
    const saved = path.join(tmp, 'downloaded.txt');
    await download.saveAs(saved);
    expect(fs.readFileSync(saved, 'utf8')).toBe('version one');
  });

  it('restores a version, keeping the current content as one more', async () => {
    const oldest = page.getByTestId('versions-item').nth(1);
    await oldest.getByRole('button', { name: 'Restore' }).click();
    await page.getByTestId('versions-restore-ok').click();
    await until(
      () => fs.readFileSync(onDisk('notes.txt'), 'utf8') === 'version one',
      'the file holds the restored version',
    );
    await until(
      async () => (await page.getByTestId('versions-item').count()) === 3,
      'the replaced content is listed as a version',
    );
    await page
      .getByTestId('versions-item')
      .first()
      .getByRole('button', { name: 'Preview' })
      .click();
    const preview = page.getByTestId('versions-preview');
    await preview.waitFor({ state: 'visible' });
    expect(await preview.textContent()).toBe('version three');
  });
});
