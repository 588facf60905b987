import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  DESKTOP,
  PHONE,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  openSignedIn,
  closeAll,
} from './harness.ts';

// The text editor as a person uses it: a text made through New → Text, written, saved with
// Ctrl+S and with the button, read back after a reload; a second file opened from the side
// tree in a tab; a save over a change made meanwhile, and over a WebDAV lock. The steps share
// one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const HELPER = [
  'def greet(name):',
  '    """Say hello."""',
  '    return f"Hello, {name}!"',
  '',
  ...Array.from({ length: 80 }, (_, i) => `value_${i} = greet("n${i}")  # line ${i + 5}`),
].join('\n');

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

const home = () => path.join(server.dataDir, 'files', ADMIN.username);
const onDisk = (name: string) => fs.readFileSync(path.join(home(), name), 'utf8');
const basic = () =>
  `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`;

const idOf = async (name: string) =>
  (
    await api<{ id: string; name: string }[]>(server, 'GET', '/list?currentDirectory=%2F', {
      token,
    })
  ).find((f) => f.name === name)!.id;

const item = (name: string) => page.locator(`[data-testid="file-item"][data-name="${name}"]`);
const title = () => page.getByTestId('editor-title');
const pane = (name: string) =>
  page.locator(`[data-testid="text-editor-pane"][data-name="${name}"]`);
const input = (name: string) => pane(name).getByTestId('text-editor-input');
const titleIs = (text: string) =>
  until(async () => (await title().textContent()) === text, `the title reads ${text}`);

beforeAll(async () => {
  server = await startServer();
  const session = await createAdmin(server, ADMIN);
  token = session.token;
  fs.mkdirSync(home(), { recursive: true });
  fs.writeFileSync(path.join(home(), 'helper.py'), HELPER);
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2F', { token }).catch(
          () => [],
        )
      ).length >= 1,
    'the file is indexed',
    30_000,
  );
  ({ browser, context, page } = await openSignedIn(server, {
    token,
    userId: session.userId,
    username: ADMIN.username,
  }));
  await item('helper.py').waitFor({ state: 'visible' });
});

afterAll(() => closeAll({ context, browser, server }));

describe('the text editor', () => {
  it('makes a text through New → Text, and saves it with Ctrl+S and with the button', async () => {
    await page.getByTestId('new-button').click();
    await page.getByTestId('action-new-text').click();
    await page.getByTestId('name-input').fill('notes.txt');
    await page.getByTestId('name-dialog-ok').click();
    await item('notes.txt').waitFor({ state: 'visible' });
    await item('notes.txt').dblclick();

    await input('notes.txt').waitFor({ state: 'visible' });
    await titleIs('notes.txt');
    await input('notes.txt').click();
    await page.keyboard.type('Shopping list');
    await titleIs('*notes.txt');
    await page.keyboard.press('Control+s');
    await titleIs('notes.txt');
    expect(onDisk('notes.txt')).toBe('Shopping list');
    // the text starts beside the line numbers, not under them
    const scrolled = pane('notes.txt').locator('.nb-codearea__scroller');
    expect(await scrolled.evaluate((el) => el.scrollLeft)).toBe(0);

    // Enter keeps the indentation of the line above
    await page.keyboard.press('Enter');
    await page.keyboard.type('  - bread');
    await page.keyboard.press('Enter');
    await page.keyboard.type('- milk');
    await page.getByTestId('editor-save').click();
    await titleIs('notes.txt');
    expect(onDisk('notes.txt')).toBe('Shopping list\n  - bread\n  - milk');
    // each save is a version: the empty file, then the first line
    const versions = await api<unknown[]>(
      server,
      'GET',
      `/history/list?fileId=${await idOf('notes.txt')}&pageIndex=1&pageSize=20`,
      { token },
    );
    expect(versions).toHaveLength(2);
  });

  it('reads the saved text back after a reload', async () => {
    await page.reload();
    await item('notes.txt').dblclick();
    await input('notes.txt').waitFor({ state: 'visible' });
    expect(await input('notes.txt').inputValue()).toBe('Shopping list\n  - bread\n  - milk');
  });

  it('opens a second file from the side tree in a tab, coloured, with a minimap', async () => {
    await page
      .getByTestId('text-tree')
      .locator('[data-testid="text-tree-item"][data-name="helper.py"]')
      .click();
    await input('helper.py').waitFor({ state: 'visible' });
    await titleIs('helper.py');
    expect(await page.getByTestId('text-tab').count()).toBe(2);
    await pane('helper.py').locator('pre[data-highlighted="true"] .hljs-keyword').first().waitFor();
    await pane('helper.py').getByTestId('text-editor-minimap').waitFor({ state: 'visible' });
    expect(await pane('notes.txt').isVisible()).toBe(false);

    // the minimap scrolls the text: a click at its bottom shows the end
    const map = pane('helper.py').getByTestId('text-editor-minimap');
    const box = (await map.boundingBox())!;
    await page.mouse.click(box.x + 20, box.y + 165);
    const scroller = pane('helper.py').locator('.nb-codearea__scroller');
    await until(
      async () => (await scroller.evaluate((el) => el.scrollTop)) > 200,
      'the minimap scrolled the text',
    );

    await input('helper.py').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nprint(greet("tabs"))');
    await titleIs('*helper.py');
    expect(await scroller.evaluate((el) => el.scrollLeft)).toBe(0);
    await saveScreenshot(page, 'text-editor-desktop-light');
    await page.getByTestId('text-editor-full').click();
    await until(
      async () => (await page.getByTestId('text-editor').getAttribute('data-full')) === 'true',
      'full screen',
    );
    const width = await page.getByTestId('text-editor').evaluate((el) => el.clientWidth);
    expect(width).toBe(DESKTOP.width);
    await saveScreenshot(page, 'text-editor-full-screen');
    await page.getByTestId('text-editor-full').click();
    await page.keyboard.press('Control+s');
    await titleIs('helper.py');
    expect(onDisk('helper.py')).toBe(`${HELPER}\nprint(greet("tabs"))`);

    // the first tab kept its text
    await page.locator('[data-testid="text-tab"][data-name="notes.txt"]').click();
    await titleIs('notes.txt');
    expect(await input('notes.txt').inputValue()).toBe('Shopping list\n  - bread\n  - milk');
  });

  it('asks what to do when the file was changed meanwhile', async () => {
    await input('notes.txt').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' (mine)');
    await api(server, 'POST', '/markdown/edit', {
      token,
      body: {
        fileId: await idOf('notes.txt'),
        contentText: 'Changed in another tab',
        force: true,
      },
    });
    await page.keyboard.press('Control+s');
    await page.getByTestId('conflict-keep').waitFor({ state: 'visible' });
    expect(await page.locator('.ant-modal-title', { hasText: 'Changed elsewhere' }).count()).toBe(
      1,
    );
    expect(onDisk('notes.txt')).toBe('Changed in another tab');
    await saveScreenshot(page, 'text-editor-conflict');
    await page.getByTestId('conflict-keep').click();
    await titleIs('notes.txt');
    expect(onDisk('notes.txt')).toBe('Shopping list\n  - bread\n  - milk (mine)');
  });

  it('names who holds a WebDAV lock when a save meets it', async () => {
    const address = `${server.baseUrl}/webdav/notes.txt`;
    const locked = await fetch(address, {
      method: 'LOCK',
      headers: { authorization: basic(), depth: '0', 'content-type': 'application/xml' },
      body:
        '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>' +
        "<D:locktype><D:write/></D:locktype><D:owner>Ann's laptop</D:owner></D:lockinfo>",
    });
    expect(locked.status).toBe(200);
    const lockToken = locked.headers.get('lock-token')!;
    await input('notes.txt').click();
    await page.keyboard.type('!');
    await page.getByTestId('editor-save').click();
    await page.getByText("Ann's laptop holds this file locked over WebDAV").waitFor();
    await titleIs('*notes.txt');
    const unlocked = await fetch(address, {
      method: 'UNLOCK',
      headers: { authorization: basic(), 'lock-token': lockToken },
    });
    expect(unlocked.status).toBe(204);
    await page.getByTestId('editor-save').click();
    await titleIs('notes.txt');
    expect(onDisk('notes.txt')).toContain('(mine)!');
  });

  it('fits a phone and the dark theme', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(page, 'text-editor-desktop-dark');
    await page.getByTestId('editor-close').click();
    await page.setViewportSize(PHONE);
    await item('helper.py').dblclick();
    await input('helper.py').waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await saveScreenshot(page, 'text-editor-phone-dark');
    await page.getByTestId('text-tree-toggle').click();
    await page.getByTestId('text-tree').waitFor({ state: 'visible' });
    await saveScreenshot(page, 'text-editor-phone-dark-tree');
    await page.emulateMedia({ colorScheme: 'light' });
    await page
      .getByTestId('text-tree')
      .locator('[data-testid="text-tree-item"][data-name="notes.txt"]')
      .click();
    await input('notes.txt').waitFor({ state: 'visible' });
    await saveScreenshot(page, 'text-editor-phone-light');
    await page.getByTestId('editor-close').click();
  });
});
