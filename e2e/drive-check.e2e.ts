import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  api,
  backgroundLuminance,
  clickWhenStill,
  createAdmin,
  PHONE,
  saveScreenshot,
  startServer,
  until,
  type ApiSession,
  type NimbusServer,
  untilFitsWidth,
  openSignedIn,
} from './harness.ts';
import { storySteps } from './steps.ts';

// Cloud management → "Check the drive": an administrator starts the check, follows its progress
// and reads what it found; then repairs what can be repaired. The drive is broken for real on
// disk first: a file's bytes deleted, bytes no row owns, and a file whose row and bytes were made
// 64 GiB (a sparse file): hashing it keeps the check running until the test cuts it short.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const BIG = 64 * 1024 ** 3;

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
/** The administrator's folder on disk. */
let home = '';

const step = storySteps({ prefix: 'drive-check', page: () => page });

async function davPut(name: string, body: string): Promise<void> {
  const auth = `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;
  const res = await fetch(`${server.baseUrl}/webdav/${name}`, {
    method: 'PUT',
    headers: { authorization: auth },
    body,
  });
  expect(res.status).toBe(201);
}

/** Where a stored file lies in the data folder. */
function storedPath(name: string): string {
  const found = fs
    .readdirSync(server.dataDir, { recursive: true, encoding: 'utf8' })
    .find((p) => path.basename(p) === name);
  if (!found) throw new Error(`${name} is not stored`);
  return path.join(server.dataDir, found);
}

async function chooseTheme(target: Page, value: 'light' | 'dark'): Promise<void> {
  await clickWhenStill(target.getByTestId('theme-switch'));
  await clickWhenStill(target.getByTestId(`theme-${value}`));
}

/** The findings in view (the page scrolls inside its frame), then a picture of it. */
async function pictureOfFindings(target: Page, name: string): Promise<void> {
  await target.getByTestId('drive-check-findings').scrollIntoViewIfNeeded();
  await saveScreenshot(target, name);
}

const findingRow = (target: Page, item: string) =>
  target.getByTestId('drive-check-findings').locator('tr', { hasText: item });

beforeAll(async () => {
  server = await startServer();
  session = await createAdmin(server, ADMIN);
  await davPut('report.txt', 'quarterly numbers');
  await davPut('big.bin', 'small for now');
  home = path.dirname(storedPath('report.txt'));
  // broken on disk: bytes gone, and bytes nobody owns
  fs.rmSync(path.join(home, 'report.txt'));
  fs.writeFileSync(path.join(home, 'stray.bin'), 'nobody owns these bytes');
  // a file as large in its row as on disk: the check hashes it for as long as the test wants
  fs.truncateSync(path.join(home, 'big.bin'), BIG);
  const db = new Database(path.join(server.dataDir, 'nimbus.db'));
  try {
    db.prepare("update file set size = ? where name = 'big.bin'").run(BIG);
  } finally {
    db.close();
  }
  ({ browser, context, page } = await openSignedIn(server, session));
});

afterAll(async () => {
  // a check still hashing the large file ends at once
  if (home) fs.truncateSync(path.join(home, 'big.bin'), 0);
  await context?.close();
  await browser?.close();
  await server?.stop();
});

describe('checking the drive from the web app', () => {
  step('an administrator double-clicks “Check the drive” and sees its progress', async () => {
    await page.goto('/setting/cloudManager');
    await clickWhenStill(page.getByRole('tab', { name: 'Check the drive' }));
    await page.getByTestId('drive-check-never').waitFor();
    await page.getByTestId('drive-check-full').click();
    const starts: number[] = [];
    const onResponse = (response: Response) => {
      const request = response.request();
      if (request.method() === 'POST' && request.url().endsWith('/api/cloud/check'))
        starts.push(response.status());
    };
    page.on('response', onResponse);
    // a person's double-click: both clicks reach the button before the first answer comes
    await page.getByTestId('drive-check-start').dblclick();
    const progress = page.getByTestId('drive-check-progress');
    await progress.waitFor();
    // the check hashes the large file: the page shows where it is
    await until(
      async () => ((await progress.textContent()) ?? '').includes('Checking… hashes'),
      'the progress names the hashes',
    );
    page.off('response', onResponse);
    // one check started; a second start, if the page sent one, was told one runs: no error
    expect(starts.filter((status) => status === 200)).toHaveLength(1);
    expect(starts.every((status) => status === 200 || status === 409)).toBe(true);
    expect(await page.locator('.ant-message-error').count()).toBe(0);
    expect(await page.getByTestId('drive-check-start').isDisabled()).toBe(true);
    // it is the administrator's task too
    const tasks = await api<Array<{ type: string; state: string }>>(
      server,
      'GET',
      '/cloud/task/progress',
      { token: session.token },
    );
    expect(tasks.filter((task) => task.type === 'driveCheck')).toEqual([
      expect.objectContaining({ type: 'driveCheck', state: 'running' }),
    ]);
    await saveScreenshot(page, 'drive-check-running');
  });

  step('cancels the check under way, and keeps what it found until then', async () => {
    await page.getByTestId('drive-check-cancel').click();
    await page.getByTestId('drive-check-cancelled').waitFor();
    expect(await page.getByTestId('drive-check-cancelled').textContent()).toContain(
      'The check was cancelled',
    );
    // the users' trees were checked before the hashes: those findings stay
    expect(await findingRow(page, '/report.txt').textContent()).toContain('Missing bytes');
    expect(await findingRow(page, '/stray.bin').textContent()).toContain('Stray bytes');
    expect(await findingRow(page, '/big.bin').count()).toBe(0);
    expect(await page.getByTestId('drive-check-start').isDisabled()).toBe(false);
    expect(await page.getByTestId('drive-check-cancel').count()).toBe(0);
    const tasks = await api<Array<{ type: string }>>(server, 'GET', '/cloud/task/progress', {
      token: session.token,
    });
    expect(tasks.filter((task) => task.type === 'driveCheck')).toEqual([]);
    await saveScreenshot(page, 'drive-check-cancelled');
  });

  step('a new check shows what it found as a table', async () => {
    await page.getByTestId('drive-check-start').click();
    const progress = page.getByTestId('drive-check-progress');
    await until(
      async () =>
        ((await progress.textContent().catch(() => '')) ?? '').includes('Checking… hashes'),
      'the new check hashes the large file',
    );
    // the large file loses its bytes while it is read: its hash differs
    fs.truncateSync(path.join(home, 'big.bin'), 0);
    await page.getByTestId('drive-check-findings').waitFor();
    expect(await findingRow(page, '/big.bin').textContent()).toContain('Hash differs');
    expect(await findingRow(page, 'Used space').textContent()).toContain('Needs a person');
    const missing = findingRow(page, '/report.txt');
    expect(await missing.textContent()).toContain('Missing bytes');
    expect(await missing.textContent()).toContain('Needs a person');
    const stray = findingRow(page, '/stray.bin');
    expect(await stray.textContent()).toContain('Stray bytes');
    expect(await stray.textContent()).toContain('Needs a person');
    expect(await page.getByTestId('drive-check-summary').textContent()).toContain(
      '4 found, 0 repaired, 4 need a person.',
    );
    await saveScreenshot(page, 'drive-check-found');
  });

  step('repairs what can be repaired, and names the rest', async () => {
    await page.getByTestId('drive-check-full').click();
    await page.getByTestId('drive-check-repair').click();
    await page.getByTestId('drive-check-start').click();
    await until(
      async () =>
        (
          (await findingRow(page, '/stray.bin')
            .textContent()
            .catch(() => '')) ?? ''
        ).includes('Repaired'),
      'the stray bytes are repaired',
    );
    expect(await findingRow(page, '/stray.bin').textContent()).toContain('Moved to lost+found.');
    expect(await findingRow(page, '/report.txt').textContent()).toContain('Needs a person');
    expect(await findingRow(page, 'Used space').textContent()).toContain('Recounted.');
    // the large file's row still says 64 GiB: its size differs now, for a person to see
    expect(await findingRow(page, '/big.bin').textContent()).toContain('Size differs');
    // the figures behind it, in the reader's language, where the pointer rests on the advice
    const detail = () => findingRow(page, '/big.bin').locator('[title]').getAttribute('title');
    expect(await detail()).toBe('The row says 64.00G; the stored file holds 0B.');
    expect(fs.existsSync(path.join(home, 'stray.bin'))).toBe(false);
    expect(await page.getByTestId('drive-check-summary').textContent()).toContain(
      '4 found, 2 repaired, 2 need a person.',
    );
    await saveScreenshot(page, 'drive-check-repaired');
  });

  step('reads well in both themes and at 375 px', async () => {
    await chooseTheme(page, 'dark');
    await until(async () => (await backgroundLuminance(page)) < 0.2, 'the page turns dark');
    await saveScreenshot(page, 'drive-check-dark');
    await page.setViewportSize(PHONE);
    await untilFitsWidth(page, 'Check the drive at 375 px');
    await pictureOfFindings(page, 'drive-check-phone-dark');
    await chooseTheme(page, 'light');
    await until(async () => (await backgroundLuminance(page)) > 0.8, 'the page turns light');
    await pictureOfFindings(page, 'drive-check-phone');
  });

  step('speaks Chinese', async () => {
    // the pointer off the switches: a tooltip left open would cover the menu
    await page.mouse.move(0, PHONE.height - 1);
    await clickWhenStill(page.getByTestId('lang-switch'));
    await clickWhenStill(page.getByTestId('lang-zh_CN'));
    await until(
      async () =>
        ((await page.getByTestId('drive-check-tab').textContent()) ?? '').includes('缺少数据'),
      'the tab speaks Chinese',
    );
    const text = (await page.getByTestId('drive-check-tab').textContent()) ?? '';
    expect(text).toContain('检查云盘');
    expect(text).toContain('需要人工处理');
    expect(text).toContain('已修复');
    expect(await findingRow(page, '/big.bin').locator('[title]').getAttribute('title')).toBe(
      '记录为 64.00G，存储的文件为 0B。',
    );
    await pictureOfFindings(page, 'drive-check-zh-phone');
    await page.mouse.move(0, PHONE.height - 1);
    await chooseTheme(page, 'dark');
    await until(async () => (await backgroundLuminance(page)) < 0.2, 'the page turns dark');
    await page.setViewportSize({ width: 1280, height: 800 });
    await saveScreenshot(page, 'drive-check-zh-dark');
  });
});
