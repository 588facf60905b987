import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  clickWhenStill,
  createAdmin,
  PHONE,
  DESKTOP,
  launchBrowser,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  untilFitsWidth,
  closeAll,
} from './harness.ts';

// The file browser as a person uses it: folders, rename, drag to move, clipboard, trash,
// zip downloads, view modes and a long folder. The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const THOUSAND = 1000;

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

interface Item {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
}

const list = (currentDirectory: string, extra: Record<string, string> = {}) =>
  api<Item[]>(server, 'GET', '/list', {
    token,
    query: { currentDirectory, pageSize: '1000', ...extra },
  });
const namesIn = async (folder: string) => (await list(folder)).map((item) => item.name);
const trashNames = async () =>
  (await list('/', { queryFileType: 'trash' })).map((item) => item.name);

const item = (name: string): Locator =>
  page.locator(`[data-testid="file-item"][data-name="${name}"]`);
const filesView = () => page.getByTestId('files-view');

/** Route inside the app (the address bar would reload the page). */
async function visit(url: string): Promise<void> {
  await page.evaluate((target) => {
    window.history.pushState({}, '', target);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, url);
  const { pathname, searchParams } = new URL(url, server.baseUrl);
  const kind = pathname === '/' ? 'home' : pathname.slice(1);
  const folder = searchParams.get('path') ?? '/';
  await until(
    async () =>
      (await filesView().getAttribute('data-kind')) === kind &&
      (kind !== 'home' || (await filesView().getAttribute('data-path')) === folder),
    `the ${kind} view shows`,
  );
}

/** Waits for the operation notifications (top right) to close; a pointer over them keeps them. */
async function notificationsGone(): Promise<void> {
  await page.mouse.move(DESKTOP.width / 2, DESKTOP.height - 5);
  await until(
    async () => (await page.locator('.ant-notification-notice').count()) === 0,
    'the notifications close',
  );
}

async function confirmDialog(): Promise<void> {
  const ok = page.getByTestId('confirm-ok');
  await clickWhenStill(ok);
  await ok.waitFor({ state: 'hidden' });
}

function zipNames(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

beforeAll(async () => {
  server = await startServer();
  // the administrator, and a session for arranging files behind the browser's back
  token = (await createAdmin(server, ADMIN)).token;

  // a folder of 1,000 files written on disk, then indexed
  const thousand = path.join(server.dataDir, 'files', ADMIN.username, 'thousand');
  fs.mkdirSync(thousand, { recursive: true });
  for (let i = 0; i < THOUSAND; i++) {
    fs.writeFileSync(path.join(thousand, `item-${String(i).padStart(4, '0')}.txt`), `item ${i}\n`);
  }
  await api(server, 'GET', '/user/setting/sync', { token, query: { path: '/' } });
  await until(
    async () => (await namesIn('/thousand').catch(() => [])).length === THOUSAND,
    'the 1,000 files are indexed',
    60_000,
  );

  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server, { acceptDownloads: true }));
});

afterAll(() => closeAll({ context, browser, server }));

describe('the file browser', () => {
  it('signs in and shows the home folder', async () => {
    await page.goto('/login');
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await filesView().waitFor({ state: 'visible' });
    expect(await filesView().getAttribute('data-kind')).toBe('home');
    await item('thousand').waitFor({ state: 'visible' });
  });

  it('creates a folder', async () => {
    await page.getByTestId('new-button').click();
    await page.getByTestId('action-newFolder').click();
    const input = page.getByTestId('name-input');
    await input.waitFor({ state: 'visible' });
    // the server's rules show before anything is sent
    await input.fill('bad/name');
    await page.getByTestId('name-dialog-ok').click();
    await page.getByText('A name cannot contain "/" or "\\"').waitFor({ state: 'visible' });
    await input.fill('Reports');
    await page.getByTestId('name-dialog-ok').click();
    await item('Reports').waitFor({ state: 'visible' });
    expect(await namesIn('/')).toContain('Reports');
  });

  it('renames with F2: Enter saves, a taken name shows the server message', async () => {
    await api(server, 'POST', '/addfile', {
      token,
      query: { fileName: 'memo.txt', parentPath: '/' },
    });
    await item('memo.txt').waitFor({ state: 'visible' });
    await item('Reports').click();
    await page.keyboard.press('F2');
    const input = page.getByTestId('file-rename-input');
    await input.waitFor({ state: 'visible' });
    await input.fill('memo.txt');
    await input.press('Enter');
    await page.getByText('"memo.txt" already exists in this folder').waitFor({ state: 'visible' });
    await input.fill('Reports 2025');
    await input.press('Enter');
    await item('Reports 2025').waitFor({ state: 'visible' });
    expect(await item('Reports').count()).toBe(0);
    expect(await namesIn('/')).toEqual(expect.arrayContaining(['Reports 2025', 'memo.txt']));
    await saveScreenshot(page, 'files-1440-grid');
  });

  it('drags a file onto a folder: it moves at once, Undo puts it back', async () => {
    const inReports = async () => (await namesIn('/Reports 2025')).includes('memo.txt');
    await notificationsGone();
    await item('memo.txt').dragTo(item('Reports 2025'));
    const moved = page.getByTestId('move-message');
    await moved.waitFor({ state: 'visible' });
    expect(await moved.textContent()).toContain('Moved "memo.txt" to "Reports 2025"');
    // no question was asked: nothing of that name was there
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
    await item('memo.txt').waitFor({ state: 'detached' });
    await until(inReports, 'memo.txt is in the folder');
    // one message for one action: the server's "Move succeeded" card is not shown beside it
    await page.waitForTimeout(1000);
    expect(await page.locator('.ant-notification-notice').count()).toBe(0);

    await page.getByTestId('move-undo').click();
    await item('memo.txt').waitFor({ state: 'visible' });
    await until(async () => !(await inReports()), 'memo.txt is back');
    expect(await namesIn('/')).toContain('memo.txt');

    // dropped again: moved, and it stays there for the next steps
    await item('memo.txt').dragTo(item('Reports 2025'));
    await item('memo.txt').waitFor({ state: 'detached' });
    await until(inReports, 'memo.txt is in the folder again');

    // dropped where the name is taken: asked before anything is replaced
    await api(server, 'POST', '/addfile', {
      token,
      query: { fileName: 'notes.txt', parentPath: '/' },
    });
    await api(server, 'POST', '/addfile', {
      token,
      query: { fileName: 'notes.txt', parentPath: '/Reports 2025' },
    });
    await item('notes.txt').waitFor({ state: 'visible' });
    await item('notes.txt').dragTo(item('Reports 2025'));
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('notes.txt');
    await confirmDialog();
    await item('notes.txt').waitFor({ state: 'detached' });
    expect(await namesIn('/')).not.toContain('notes.txt');
    expect(await namesIn('/')).not.toContain('memo.txt');
  });

  it('goes up a folder with Backspace and Alt+Up; ? lists the keys', async () => {
    const at = (folder: string) =>
      until(async () => (await filesView().getAttribute('data-path')) === folder, `at ${folder}`);
    await item('Reports 2025').dblclick();
    await at('/Reports 2025/');
    await item('memo.txt').waitFor({ state: 'visible' });
    await page.keyboard.press('?');
    const dialog = page.getByTestId('shortcuts-table');
    await dialog.waitFor({ state: 'visible' });
    await saveScreenshot(page, 'files-1440-shortcuts');
    const text = (await dialog.textContent()) ?? '';
    for (const words of ['Up one folder', 'Backspace', 'Alt+↑', 'Rename', 'F2', 'Ctrl+C']) {
      expect(text).toContain(words);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await page.keyboard.press('Backspace');
    await at('/');
    await item('Reports 2025').dblclick();
    await at('/Reports 2025/');
    await page.keyboard.press('Alt+ArrowUp');
    await at('/');
    // at the top of the tree Backspace stays there
    await page.keyboard.press('Backspace');
    await item('thousand').waitFor({ state: 'visible' });
    expect(await filesView().getAttribute('data-path')).toBe('/');
  });

  it('has no articles page: the address leads to not found', async () => {
    await page.goto('/articles');
    await page.getByTestId('not-found').waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/404');
    await page.getByTestId('not-found-home').click();
    await item('thousand').waitFor({ state: 'visible' });
  });

  it('copies with Ctrl+C and pastes into another folder', async () => {
    await item('Reports 2025').dblclick();
    await until(
      async () => (await filesView().getAttribute('data-path')) === '/Reports 2025/',
      'the folder opens',
    );
    await item('memo.txt').click();
    await page.keyboard.press('Control+c');
    const tray = page.getByTestId('clipboard-tray');
    await tray.waitFor({ state: 'visible' });
    expect(await tray.getAttribute('data-mode')).toBe('copy');
    await page.getByTestId('crumb-root').click();
    await until(
      async () => (await filesView().getAttribute('data-path')) === '/',
      'back at the root',
    );
    await item('thousand').waitFor({ state: 'visible' });
    await page.getByTestId('clipboard-paste').click();
    await item('memo.txt').waitFor({ state: 'visible' });
    expect(await namesIn('/')).toContain('memo.txt');
    expect(await namesIn('/Reports 2025')).toContain('memo.txt');
    await page.getByTestId('clipboard-clear').click();
    await tray.waitFor({ state: 'detached' });
  });

  it('deletes with the Del key', async () => {
    await item('memo.txt').click();
    await page.keyboard.press('Delete');
    await item('memo.txt').waitFor({ state: 'detached' });
    await page.getByTestId('trash-message').waitFor({ state: 'visible' });
    expect(await namesIn('/')).not.toContain('memo.txt');
    expect(await trashNames()).toContain('memo.txt');
  });

  it('restores from the trash', async () => {
    await visit('/trash');
    expect(await filesView().getAttribute('data-kind')).toBe('trash');
    await item('memo.txt').click({ button: 'right' });
    await page.getByTestId('action-restore').click();
    await confirmDialog();
    await item('memo.txt').waitFor({ state: 'detached' });
    expect(await namesIn('/')).toContain('memo.txt');
    expect(await trashNames()).not.toContain('memo.txt');
  });

  it('empties the trash', async () => {
    await visit('/');
    await item('memo.txt').click({ button: 'right' });
    await page.getByTestId('action-delete').click();
    await item('memo.txt').waitFor({ state: 'detached' });
    await visit('/trash');
    await item('memo.txt').waitFor({ state: 'visible' });
    await saveScreenshot(page, 'files-1440-trash');
    await page.getByTestId('toolbar-emptyTrash').click();
    await confirmDialog();
    await page.getByTestId('files-empty').waitFor({ state: 'visible' });
    expect(await trashNames()).toEqual([]);
  });

  it('downloads two files as one zip', async () => {
    await api(server, 'POST', '/addfile', {
      token,
      query: { fileName: 'alpha.txt', parentPath: '/' },
    });
    await api(server, 'POST', '/addfile', {
      token,
      query: { fileName: 'beta.md', parentPath: '/' },
    });
    await visit('/?vmode=list');
    await item('alpha.txt').click();
    await item('beta.md').click({ modifiers: ['Control'] });
    expect(await page.getByTestId('selection-count').textContent()).toContain('2');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('toolbar-download').click(),
    ]);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-zip-')), 'download.zip');
    await download.saveAs(file);
    // chosen at the top of the tree: named after its owner
    expect(download.suggestedFilename()).toBe(`${ADMIN.username}.zip`);
    expect((await zipNames(file)).sort()).toEqual(['alpha.txt', 'beta.md']);
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });

  it('copies two files and a folder at once; a second copy takes free names', async () => {
    await api(server, 'POST', '/new_folder', {
      token,
      query: { currentDirectory: '/', filename: 'Copies' },
    });
    const chosen = ['Reports 2025', 'alpha.txt', 'beta.md'];
    const before = (await namesIn('/Reports 2025')).sort();
    expect(before.length).toBeGreaterThan(0);
    const copySelection = async (replace: boolean) => {
      await visit('/?vmode=list');
      await item('alpha.txt').click();
      await item('beta.md').click({ modifiers: ['Control'] });
      await item('Reports 2025').click({ modifiers: ['Control'] });
      expect(await page.getByTestId('selection-count').textContent()).toContain('3');
      // the menu of one item of a selection acts on the whole selection
      await item('beta.md').click({ button: 'right' });
      await page.getByTestId('action-moveCopy').click();
      const dialog = page.getByTestId('move-dialog');
      await dialog.waitFor({ state: 'visible' });
      await dialog.getByText('Copies', { exact: true }).click();
      await clickWhenStill(page.getByTestId('move-dialog-copy'));
      if (replace) await confirmDialog();
      await dialog.waitFor({ state: 'hidden' });
    };

    await copySelection(false);
    await until(async () => (await namesIn('/Copies')).length === 3, 'three copies');
    expect((await namesIn('/Copies')).sort()).toEqual(chosen);
    // the folder came with what it holds, and the originals stay where they were
    expect((await namesIn('/Copies/Reports 2025')).sort()).toEqual(before);
    expect(await namesIn('/')).toEqual(expect.arrayContaining(chosen));

    // the same selection again: asked first, and what it replaces goes to the trash
    await copySelection(true);
    await until(async () => {
      const trashed = await trashNames();
      return chosen.every((name) => trashed.includes(name));
    }, 'the replaced copies are in the trash');
    expect((await namesIn('/Copies')).sort()).toEqual(chosen);
    expect((await namesIn('/Copies/Reports 2025')).sort()).toEqual(before);
    expect((await namesIn('/Reports 2025')).sort()).toEqual(before);
    // the steps after this one count the trash from empty
    await api(server, 'DELETE', '/clear-trash', { token });
  });

  it('switches between list and grid, keeping the mode in the URL', async () => {
    // the notifications of the trash steps sit over the view buttons until they close
    await notificationsGone();
    await page.getByTestId('view-grid').click();
    await until(async () => (await filesView().getAttribute('data-vmode')) === 'grid', 'grid mode');
    expect(new URL(page.url()).searchParams.get('vmode')).toBe('grid');
    await page.getByTestId('view-list').click();
    await until(async () => (await filesView().getAttribute('data-vmode')) === 'list', 'list mode');
    expect(new URL(page.url()).searchParams.get('vmode')).toBe('list');
    await saveScreenshot(page, 'files-1440-list');
  });

  it('scrolls a folder of 1,000 items to its end', async () => {
    await visit('/?path=%2Fthousand%2F&vmode=list');
    await item('item-0000.txt').waitFor({ state: 'visible' });
    // one page of 100 at first; the rest arrives while scrolling
    const scroller = page.getByTestId('files-list');
    expect(Number(await scroller.getAttribute('data-count'))).toBeLessThan(THOUSAND);
    const last = item(`item-${String(THOUSAND - 1).padStart(4, '0')}.txt`);
    await until(
      async () => {
        await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
        return last.isVisible();
      },
      'the last item comes into view',
      30_000,
    );
    expect(Number(await scroller.getAttribute('data-count'))).toBe(THOUSAND);
    expect(await page.getByTestId('files-status').textContent()).toContain('1,000 items');
    // only the rows on screen exist in the page
    expect(await page.locator('[data-testid="file-item"]').count()).toBeLessThan(100);
  });

  it('selects every item of the 1,000-item folder with Ctrl+A, then zips, trashes and restores them all', async () => {
    // a fresh page: only the first page of 100 is loaded
    await page.goto('/?path=%2Fthousand%2F&vmode=list');
    await item('item-0000.txt').waitFor({ state: 'visible' });
    const scroller = page.getByTestId('files-list');
    expect(Number(await scroller.getAttribute('data-count'))).toBeLessThan(THOUSAND);
    await page.keyboard.press('ControlOrMeta+a');
    const selection = page.getByTestId('files-status-selection');
    await until(
      async () =>
        (await selection.textContent().catch(() => ''))?.includes('1,000 selected') ?? false,
      'every item is selected',
    );
    expect(await page.getByTestId('selection-count').textContent()).toBe('1,000 selected');
    expect(Number(await scroller.getAttribute('data-count'))).toBe(THOUSAND);
    // the last item, never scrolled to, is selected too
    await scroller.evaluate((element) => element.scrollTo({ top: element.scrollHeight }));
    const last = item(`item-${String(THOUSAND - 1).padStart(4, '0')}.txt`);
    await last.waitFor({ state: 'visible' });
    expect(await last.getAttribute('aria-selected')).toBe('true');
    await saveScreenshot(page, 'files-1440-select-all');

    // a zip of them all: the ids go in a form, too many for a link
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('toolbar-download').click(),
    ]);
    // named after the folder they were chosen in
    expect(download.suggestedFilename()).toBe('thousand.zip');
    const zipped = await zipNames(await download.path());
    expect(zipped).toHaveLength(THOUSAND);
    expect(zipped).toContain('item-0999.txt');

    // Delete sends them all to the trash; Undo brings them all back
    await page.keyboard.press('Delete');
    await page.getByTestId('trash-message').waitFor();
    await until(
      async () => (await namesIn('/thousand')).length === 0,
      'the folder is empty',
      60_000,
    );
    expect((await trashNames()).filter((name) => name.startsWith('item-'))).toHaveLength(THOUSAND);
    await page.getByTestId('trash-undo').click();
    await until(
      async () => (await namesIn('/thousand')).length === THOUSAND,
      'every item is back',
      60_000,
    );
    await until(
      async () => Number(await scroller.getAttribute('data-count').catch(() => '0')) === THOUSAND,
      'the folder shows them again',
      30_000,
    );
  });

  it('opens a task link: the folder, scrolled to the highlighted file', async () => {
    // a deep link loads the page itself; the file sits on the fifth page of the folder
    await page.goto('/?path=%2Fthousand%2F&highlight=item-0450.txt&vmode=list');
    const target = item('item-0450.txt');
    await target.waitFor({ state: 'visible' });
    await until(
      async () => (await target.getAttribute('aria-selected')) === 'true',
      'it is selected',
    );
    expect(await filesView().getAttribute('data-path')).toBe('/thousand/');
  });

  it('fits a phone screen', async () => {
    await visit('/?vmode=list');
    await page.setViewportSize(PHONE);
    await item('thousand').waitFor({ state: 'visible' });
    await untilFitsWidth(page, 'the list at 375 px');
    await saveScreenshot(page, 'files-375-list');
    await page.setViewportSize(DESKTOP);
  });
});
