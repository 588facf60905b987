import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync, crc32 } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  PHONE,
  launchBrowser,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
} from './harness.ts';

// Sharing as people do it: the owner shares a folder privately from the Shares page; a visitor
// in a fresh browser opens the link, gets the code wrong then right, browses, previews text and
// an image, downloads a file and a zip, and uploads into the share; a second user mounts the
// share and opens a file from the mount; a share that allows changes is renamed in and deleted
// from. The steps share state and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const BOB = { username: 'bob', password: 'bob-secret-1' };
const shots = path.join(os.tmpdir(), 'nimbus-share-e2e');
/** More files in one shared folder than one page of the share's listing holds. */
const MANY = 60;

let server: NimbusServer;
let browser: Browser;
let owner: { context: BrowserContext; page: Page };
let visitor: { context: BrowserContext; page: Page };
let adminToken = '';
let link = '';
let code = '';

async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({
    path: path.join(shots, `${name}.png`),
    fullPage: true,
    animations: 'disabled',
  });
}

/** Files written into the owner's tree on disk, then indexed (as files copied in by hand). */
async function seed(files: Record<string, Buffer | string>): Promise<void> {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(server.dataDir, 'files', ADMIN.username, ...relative.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  }
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token: adminToken });
  await until(async () => {
    const listed = await api<unknown[]>(server, 'GET', '/list?currentDirectory=%2Fproject', {
      token: adminToken,
    }).catch(() => []);
    const many = await api<unknown[]>(
      server,
      'GET',
      `/list?currentDirectory=%2Fproject%2Fmany&pageSize=${MANY}`,
      { token: adminToken },
    ).catch(() => []);
    return listed.length === 4 && many.length === MANY;
  }, 'the seeded files are indexed');
}

/** A real 16×16 PNG, so the browser draws it. */
function png(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(16, 0);
  header.writeUInt32BE(16, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc(16 * (1 + 16 * 3));
  for (let y = 0; y < 16; y++)
    for (let x = 0; x < 16; x++) rows.set([61, 109 + x * 8, 250 - y * 8], y * 49 + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
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

async function signIn(page: Page, who: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-username').fill(who.username);
  await page.getByTestId('login-password').fill(who.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

/** A share in the owner's list of shares (a table row). */
const row = (page: Page, name: string) => page.locator(`tr[data-name="${name}"]`);
/** An item of the share browser: a row or a tile of the file collection. */
const item = (page: Page, name: string) =>
  page.getByTestId('share-browser').locator(`[data-testid="file-item"][data-name="${name}"]`);

/** Runs one of the share's actions on an item from its "…" menu. */
async function itemAction(page: Page, name: string, action: string): Promise<void> {
  await item(page, name).getByTestId('item-menu-button').click();
  await page.getByTestId(`action-${action}`).click();
}

beforeAll(async () => {
  server = await startServer();
  await api(server, 'POST', '/public/initialization', { body: ADMIN });
  adminToken = (
    await api<Record<string, string>>(server, 'POST', '/login', {
      body: { ...ADMIN, rememberMe: true },
    })
  )['nimbus-token']!;
  await api(server, 'POST', '/user/add', { token: adminToken, body: { ...BOB, quota: 1 } });
  await seed({
    'project/notes.txt': 'Meeting notes\nShip the share page.\n',
    'project/photo.png': png(),
    'project/drafts/idea.md': '# An idea\n',
    ...Object.fromEntries(
      Array.from({ length: MANY }, (_, i) => [
        `project/many/file-${String(i).padStart(2, '0')}.txt`,
        `${i}\n`,
      ]),
    ),
    'private.txt': 'not shared',
  });
  browser = await launchBrowser();
  owner = await openPage(browser, server, { acceptDownloads: true });
  await owner.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: server.baseUrl,
  });
});

afterAll(async () => {
  await owner?.context.close();
  await visitor?.context.close();
  await browser?.close();
  await server?.stop();
});

describe('sharing', () => {
  it('shares a folder privately from the Shares page', async () => {
    const { page } = owner;
    await signIn(page, ADMIN);
    await page.getByTestId('menu-share').click();
    await page.getByTestId('share-list-page').waitFor();
    await page.getByTestId('share-new').click();
    await page.getByTestId('picker-item-project').click();
    await page.getByTestId('picker-choose').click();
    const dialog = page.getByTestId('share-dialog');
    await dialog.waitFor();
    await page.getByTestId('share-type-private').click();
    await page.getByTestId('share-perm-UPLOAD').click();
    // a bad address is refused before anything is sent
    await page.getByTestId('share-address').fill('team/notes');
    await page.getByTestId('share-submit').click();
    await page.getByText('Use only CJK characters, letters, digits, "_" and "-"').waitFor();
    await page.getByTestId('share-address').fill('team-notes');
    await page.getByTestId('share-submit').click();
    await page.getByTestId('share-result').waitFor();
    link = await page.getByTestId('share-link').inputValue();
    code = (await page.getByTestId('share-code').innerText()).trim();
    expect(link).toBe(`${server.baseUrl}/s/team-notes`);
    expect(code).toMatch(/^[a-z2-9]{6}$/);
    await page.getByTestId('share-qr').locator('canvas, svg').first().waitFor();
    await page.getByTestId('share-copy-with-code').click();
    await page
      .getByText(/^(Copied|This browser does not support automatic copy)$/)
      .first()
      .waitFor();
    await shot(page, 'share-dialog');
    await page.keyboard.press('Escape');
    await row(page, 'project').waitFor();
    await shot(page, 'share-list');
  });

  it('asks a visitor for the code: a wrong one is refused, the right one opens the share', async () => {
    visitor = await openPage(browser, server, { acceptDownloads: true });
    const { page } = visitor;
    await page.goto(link);
    await page.getByTestId('share-code-prompt').waitFor();
    expect(await page.getByTestId('share-sharer').innerText()).toContain('admin');
    expect(await page.locator('body').innerText()).not.toContain('notes.txt');
    await shot(page, 'share-code-prompt');
    await page.getByTestId('share-code-input').fill('wrong1');
    await page.getByTestId('share-code-submit').click();
    await page.getByTestId('share-code-error').waitFor();
    expect(await page.getByTestId('share-code-error').innerText()).toBe('The share code is wrong');
    await page.getByTestId('share-code-input').fill(code);
    await page.getByTestId('share-code-submit').click();
    await page.getByTestId('share-browser').waitFor();
    await item(page, 'notes.txt').waitFor();
    expect(await page.locator('body').innerText()).not.toContain('private.txt');
    await shot(page, 'share-visitor');
  });

  it('browses folders and previews text and images', async () => {
    const { page } = visitor;
    // a click selects, Enter opens (as in the drive)
    await item(page, 'drafts').click();
    expect(await item(page, 'drafts').getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await item(page, 'idea.md').waitFor();
    expect(await page.getByTestId('share-browser').getAttribute('data-path')).toBe('/drafts');
    await item(page, 'idea.md').dblclick();
    await page.getByTestId('text-preview-content').waitFor();
    expect(await page.getByTestId('text-preview-content').innerText()).toContain('# An idea');
    await page.keyboard.press('Escape');
    // a folder longer than a page: the rest arrives as the list scrolls to its end
    await page.getByTestId('share-crumb-root').click();
    await item(page, 'many').dblclick();
    await item(page, 'file-00.txt').waitFor();
    expect(Number(await page.getByTestId('share-list').getAttribute('data-count'))).toBeLessThan(
      MANY,
    );
    await page.getByTestId('share-list').focus();
    await page.keyboard.press('End');
    await until(
      async () => Number(await page.getByTestId('share-list').getAttribute('data-count')) === MANY,
      'every page of the folder is listed',
    );
    await page.keyboard.press('End');
    await item(page, `file-${MANY - 1}.txt`).waitFor();
    expect(await item(page, `file-${MANY - 1}.txt`).getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('share-crumb-root').click();
    await item(page, 'photo.png').waitFor();
    await item(page, 'photo.png').dblclick();
    const image = page.getByTestId('image-viewer-img');
    await image.waitFor();
    await until(
      async () => (await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)) === 16,
      'the image loads',
    );
    await shot(page, 'share-image-preview');
    await page.keyboard.press('Escape');
    // a folder that is not there says so, and the way back is the first crumb
    await page.goto(`${link}?path=%2Fnowhere`);
    await page.getByTestId('share-load-error').waitFor();
    await page.getByTestId('share-crumb-root').click();
    await item(page, 'notes.txt').waitFor();
  });

  it('downloads a file and a zip of a selection', async () => {
    const { page } = visitor;
    await item(page, 'notes.txt').getByTestId('item-menu-button').click();
    await page.getByTestId('action-download').waitFor();
    // not a full-page shot: resizing the page closes the menu
    await page.screenshot({
      path: path.join(shots, 'share-item-menu.png'),
      animations: 'disabled',
    });
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('action-download').click(),
    ]);
    expect(fs.readFileSync(await file.path(), 'utf8')).toContain('Meeting notes');
    await item(page, 'notes.txt').locator('input[type=checkbox]').check();
    await item(page, 'drafts').locator('input[type=checkbox]').check();
    expect(await page.getByTestId('share-browser').innerText()).toContain('2 selected');
    const [zip] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('share-zip').click(),
    ]);
    expect((await zipNames(await zip.path())).sort()).toEqual([
      'drafts/',
      'drafts/idea.md',
      'notes.txt',
    ]);
  });

  it('uploads into the upload-enabled share', async () => {
    const { page } = visitor;
    const local = path.join(os.tmpdir(), `nimbus-share-upload-${process.pid}.txt`);
    fs.writeFileSync(local, 'from a visitor\n');
    await page.getByTestId('share-upload-input').setInputFiles(local);
    await until(
      async () => (await page.getByTestId('share-uploads').getAttribute('data-done')) === '1',
      'the upload finishes',
    );
    // the visitor's panel says it is done, not "Uploading"
    expect(await page.getByTestId('share-uploads-title').textContent()).toBe('Uploaded 1 / 1');
    await item(page, path.basename(local)).waitFor();
    const onDisk = path.join(
      server.dataDir,
      'files',
      ADMIN.username,
      'project',
      path.basename(local),
    );
    expect(fs.readFileSync(onDisk, 'utf8')).toBe('from a visitor\n');
    await shot(page, 'share-upload');
    fs.rmSync(local, { force: true });
    // the share allows uploads, so also new folders, named in the drive's name dialog
    await page.getByTestId('share-new-folder').click();
    await page.getByTestId('name-input').fill('from-visitor');
    await page.getByTestId('name-dialog-ok').click();
    await item(page, 'from-visitor').waitFor();
    expect(await item(page, 'from-visitor').getAttribute('data-folder')).toBe('true');
  });

  it('shows the share page on a phone', async () => {
    const phone = await openPage(browser, server, {
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
    });
    await phone.page.goto(`${link}?code=${code}`);
    await phone.page.getByTestId('share-code-prompt').waitFor();
    // the code from the link is filled in
    expect(await phone.page.getByTestId('share-code-input').inputValue()).toBe(code);
    await phone.page.getByTestId('share-code-submit').click();
    await phone.page.getByTestId('share-grid').waitFor();
    // the grid draws images through the share's thumbnail route
    expect(await item(phone.page, 'photo.png').locator('img').getAttribute('src')).toMatch(
      /^\/api\/public\/s\/view\/thumbnail\?/,
    );
    await until(
      async () =>
        (await item(phone.page, 'photo.png')
          .locator('img')
          .evaluate((img) => (img as HTMLImageElement).naturalWidth)) > 0,
      'the thumbnail loads',
    );
    await shot(phone.page, 'share-phone');
    // a tap opens, as in the drive on a phone
    await item(phone.page, 'drafts').tap();
    await item(phone.page, 'idea.md').waitFor();
    expect(await phone.page.getByTestId('share-browser').getAttribute('data-path')).toBe('/drafts');
    // the dark theme, in the grid and in the list
    await phone.page.getByTestId('share-crumb-root').click();
    await item(phone.page, 'photo.png').waitFor();
    await phone.page.getByTestId('theme-switch').click();
    await phone.page.getByTestId('theme-dark').click();
    await phone.page.getByTestId('theme-dark').waitFor({ state: 'hidden' });
    await until(
      async () =>
        (await phone.page.evaluate(() => document.documentElement.dataset.theme)) === 'dark',
      'the dark theme applies',
    );
    await shot(phone.page, 'share-phone-dark');
    await phone.page.getByTestId('share-view-toggle').getByTitle('List').click();
    await phone.page.getByTestId('share-list').waitFor();
    expect(new URL(phone.page.url()).searchParams.get('vmode')).toBe('list');
    await shot(phone.page, 'share-phone-dark-list');
    await phone.context.close();
  });

  it('mounts the share as a second user, sees it in the folder and opens a file from it', async () => {
    // bob's drive already holds folders and a file the mount sorts among
    const bobToken = (
      await api<Record<string, string>>(server, 'POST', '/login', {
        body: { ...BOB, rememberMe: true },
      })
    )['nimbus-token']!;
    for (const filename of ['Archive', 'Zeta']) {
      await api(server, 'POST', `/new_folder?currentDirectory=%2F&filename=${filename}`, {
        token: bobToken,
      });
    }
    await api(server, 'POST', '/addfile?parentPath=%2F&fileName=todo.txt', { token: bobToken });

    const bob = await openPage(browser, server, { acceptDownloads: true });
    const { page } = bob;
    await signIn(page, BOB);
    await page.goto(`${link}?code=${code}`);
    await page.getByTestId('share-code-submit').click();
    await page.getByTestId('share-mount').click();
    await page.getByTestId('drive-picker').waitFor();
    await page.getByTestId('mount-name').fill('Team project');
    await page.getByTestId('picker-choose').click();
    // the answer is a toast: success names the mount, a failure says why
    const toast = page.locator('.ant-message-notice').first();
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Mounted as "Team project"');
    // one toast, in the user's language: the server's English message is not shown beside it
    expect(await page.locator('.ant-message-notice').count()).toBe(1);
    await page.getByTestId('drive-picker').waitFor({ state: 'detached' });
    await page.goto('/mount');
    await page.getByTestId('mounts-page').waitFor();
    await shot(page, 'mounts');

    // the folder it was placed in lists it among its folders, marked as a mount
    await page.goto('/?vmode=list');
    const mounted = page.locator('[data-testid="file-item"][data-name="Team project"]');
    await mounted.waitFor();
    expect(await mounted.getAttribute('data-mount')).toBe('true');
    expect(await mounted.getByTestId('mount-tag').textContent()).toContain('admin');
    expect(
      await page
        .locator('[data-testid="file-item"]')
        .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name'))),
    ).toEqual(['Archive', 'Team project', 'Zeta', 'todo.txt']);
    expect(await page.getByTestId('files-status').textContent()).toContain('4 items');
    await saveScreenshot(page, 'share-mount-inline');
    // opening it browses the mount
    await mounted.dblclick();
    await page.getByTestId('mount-browser').waitFor();
    expect(new URL(page.url()).pathname).toBe('/mount');
    await item(page, 'photo.png').waitFor();
    await item(page, 'photo.png').dblclick();
    const image = page.getByTestId('image-viewer-img');
    await image.waitFor();
    expect(await image.getAttribute('src')).toMatch(/^\/api\/(pre-file\/|view\/image\?id=)/);
    await until(
      async () => (await image.evaluate((img) => (img as HTMLImageElement).naturalWidth)) === 16,
      'the mounted image loads',
    );
    await page.keyboard.press('Escape');
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      itemAction(page, 'notes.txt', 'download'),
    ]);
    expect(fs.readFileSync(await file.path(), 'utf8')).toContain('Meeting notes');
    await shot(page, 'mount-browser');

    // the owner cancels the share: the mount loses its access
    const shares = await api<{ shareId: string }[]>(server, 'GET', '/share/list', {
      token: adminToken,
    });
    await api(server, 'DELETE', `/share/cancel?shareId=${shares[0]!.shareId}`, {
      token: adminToken,
    });
    await page.reload();
    await page.getByTestId('share-problem').waitFor();
    await bob.context.close();
  });

  it('renames and deletes in a share that allows it, from the keyboard', async () => {
    const listed = await api<{ id: string; name: string }[]>(
      server,
      'GET',
      '/list?currentDirectory=%2Fproject',
      { token: adminToken },
    );
    const drafts = listed.find((entry) => entry.name === 'drafts')!;
    // a share inside a shared folder takes that folder's settings: this one must stand alone
    const standing = await api<{ shareId: string }[]>(server, 'GET', '/share/list', {
      token: adminToken,
    });
    for (const share of standing)
      await api(server, 'DELETE', `/share/cancel?shareId=${share.shareId}`, { token: adminToken });
    // changes are for private shares only
    const made = await api<{ extractionCode: string }>(server, 'POST', '/share/generate', {
      token: adminToken,
      body: {
        fileId: drafts.id,
        isFolder: true,
        isPrivacy: true,
        shortId: 'drafts-edit',
        operationPermissionList: ['PUT', 'DELETE'],
      },
    });
    const { page } = visitor;
    await page.goto(`${server.baseUrl}/s/drafts-edit?code=${made.extractionCode}`);
    await page.getByTestId('share-code-submit').click();
    await item(page, 'idea.md').click();
    await until(
      async () => (await item(page, 'idea.md').getAttribute('aria-selected')) === 'true',
      'the clicked item is selected',
    );
    await page.keyboard.press('F2');
    await page.getByTestId('name-input').fill('plan.md');
    await page.getByTestId('name-dialog-ok').click();
    await item(page, 'plan.md').waitFor();
    await shot(page, 'share-renamed');
    await item(page, 'plan.md').click();
    await until(
      async () => (await item(page, 'plan.md').getAttribute('aria-selected')) === 'true',
      'the renamed item is selected',
    );
    await page.keyboard.press('Delete');
    await page.getByTestId('share-delete-confirm').click();
    await page.getByTestId('share-empty').waitFor();
    expect(
      fs.existsSync(
        path.join(server.dataDir, 'files', ADMIN.username, 'project', 'drafts', 'plan.md'),
      ),
    ).toBe(false);
  });
});
