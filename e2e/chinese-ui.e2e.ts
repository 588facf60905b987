import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MenuType, SEED_MENUS } from '@nimbus/contract';
import {
  createAdmin,
  launchBrowser,
  openPage,
  saveScreenshot,
  signInPage,
  startServer,
  until,
  type ApiSession,
  type NimbusServer,
  api,
  closeAll,
} from './harness.ts';

// The web app in Chinese: every page the sidebar and the avatar menu reach, and every tab on
// them, shows no English word but the product's name, technical names and what users wrote
// (file names, user names, addresses).

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const BOB = { username: 'bob', password: 'bob-secret-1' };
/** User content the pages show: file names and user names. */
const USER_CONTENT = ['Quarterly report.txt', 'Holiday photos', ADMIN.username, BOB.username];
/** Words that stay as they are in any language: the product, units and technical names. */
const ALLOWED = new Set([
  'Nimbus',
  'KB',
  'MB',
  'GB',
  'TB',
  'PB',
  'WebDAV',
  'LDAP',
  'TOTP',
  'OCR',
  'URL',
  'API',
  'ID',
  'IP',
  'PDF',
  'Office',
  'FFmpeg',
  'Markdown',
  // a language is named in its own language
  'English',
  // file types
  'TXT',
  'SVG',
  'JPG',
  'JPEG',
  'PNG',
  'WebP',
  'TIFF',
  'JSON',
  // units and the names of programs
  'kbps',
  'fps',
  'px',
  'DN',
  'Tesseract',
  'poppler',
  // a text-recognition language code
  'eng',
]);

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let admin: ApiSession;

const dav = (name: string, method: string, body?: string) =>
  fetch(`${server.baseUrl}/webdav/${encodeURIComponent(name)}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
    },
    body,
  });

/** The English words the page shows, beside what the allow-list and user content explain. */
async function englishWords(): Promise<string[]> {
  // technical identifiers (role codes, addresses) are set in the monospace face
  const text = await page.evaluate(() => {
    const codes = [...document.querySelectorAll<HTMLElement>('.nb-mono')];
    for (const code of codes) code.style.setProperty('display', 'none');
    const all = document.body.innerText;
    for (const code of codes) code.style.removeProperty('display');
    return all;
  });
  let rest = text;
  for (const content of USER_CONTENT) rest = rest.split(content).join(' ');
  rest = rest
    .replace(/\bhttps?:\/\/\S+/g, ' ') // addresses
    .replace(/(^|\s)\/\S*/g, ' ') // paths and routes
    .replace(/"[^"]*"/g, ' ') // quoted examples of a setting's syntax
    .replace(/\$\w+/g, ' ') // placeholders ($e_url)
    .replace(/\b[a-z_]+(?:\+[a-z_]+)+/g, ' ') // language codes (chi_sim+eng)
    .replace(/\b[a-z]+_[a-z]+\b/g, ' ')
    .replace(/\.[a-z]{3,4}\b/g, ' ') // file extensions
    .replace(/\S+=\S*/g, ' ') // technical key=value pairs (the audit log's targets)
    .replace(/\b[a-z]+(?::[a-z_-]+)+\b/g, ' ') // authority codes (cloud:file:list)
    .replace(/\b[a-z]+\/[\w.+-]+/g, ' ') // media types (image/webp)
    .replace(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g, ' ') // environment variables
    .replace(/\S+@\S+/g, ' ') // e-mail addresses
    .replace(/[\w.-]+\.[A-Za-z0-9]{1,5}\b/g, ' ') // file names and host names
    .replace(/\b(?:ldap|uid|dc|cn)\b[:=]?\S*/g, ' '); // LDAP placeholders are syntax, not words
  const words = rest.match(/[A-Za-z][A-Za-z'’-]*[A-Za-z]/g) ?? [];
  return [...new Set(words.filter((word) => !ALLOWED.has(word)))];
}

/**
 * Clicks a tab; if it does not take the click within 10 s, says what the tab bar looked like
 * (a re-render or an overflow menu) and tries once more, so the words are still checked.
 */
async function clickTab(tab: Locator, what: string): Promise<void> {
  try {
    await tab.click({ timeout: 10_000 });
  } catch (error) {
    const state = await page.evaluate(() => {
      const nav = document.querySelector('.ant-tabs-nav');
      return {
        url: location.pathname + location.search,
        tabs: [...document.querySelectorAll('.ant-tabs-tab')].map(
          (t) =>
            `${t.getAttribute('data-node-key')}:${Math.round(t.getBoundingClientRect().width)}`,
        ),
        more: Boolean(nav?.querySelector('.ant-tabs-nav-more:not(.ant-tabs-nav-more-hidden)')),
        navWidth: nav ? Math.round(nav.getBoundingClientRect().width) : null,
      };
    });
    console.log(
      `the tab ${what} missed a click: ${(error as Error).message.split('\n')[0]}`,
      state,
    );
    await tab.click({ timeout: 20_000 });
  }
}

/** Every tab on the page, one after the other; English found on any of them is collected. */
async function checkPageAndTabs(
  where: string,
  found: Map<string, string[]>,
  withTabs = true,
): Promise<void> {
  const look = async (label: string) => {
    // the page's own requests settle first, so what is checked is what a person reads
    await page.waitForLoadState('networkidle');
    const words = await englishWords();
    if (words.length) found.set(label, words);
  };
  await look(where);
  if (!withTabs) return;
  const keys = await page
    .locator('.ant-tabs-tab[data-node-key]')
    .evaluateAll((tabs) => tabs.map((tab) => tab.getAttribute('data-node-key')!));
  for (const key of keys.slice(1)) {
    const tab = page.locator(`.ant-tabs-tab[data-node-key="${key}"]`).first();
    if (!(await tab.isVisible())) continue;
    const before = await page.evaluate(() => document.body.innerText);
    await clickTab(tab, `${where} → ${key}`);
    await until(
      async () => (await page.evaluate(() => document.body.innerText)) !== before,
      `the tab ${key} of ${where} shows`,
    );
    await look(`${where} → ${key}`);
  }
}

beforeAll(async () => {
  server = await startServer();
  admin = await createAdmin(server, ADMIN);
  // content a person would have: files with English names, a second user, sign-ins of all kinds
  expect((await dav('Holiday photos', 'MKCOL')).status).toBe(201);
  expect((await dav('Quarterly report.txt', 'PUT', 'numbers')).status).toBe(201);
  await api(server, 'POST', '/user/add', { token: admin.token, body: { ...BOB, roles: [] } });
  await api(server, 'PUT', '/cloud/setting/mfa-force-enable?mfaForceEnable=true', {
    token: admin.token,
  });
  const pending = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BOB),
  });
  expect(((await pending.json()) as { data: { mfaForceEnable?: boolean } }).data).toMatchObject({
    mfaForceEnable: true,
  });
  await api(server, 'PUT', '/cloud/setting/mfa-force-enable?mfaForceEnable=false', {
    token: admin.token,
  });

  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server, { locale: 'zh-CN' }));
  await signInPage(page, admin);
});

afterAll(() => closeAll({ context, browser, server }));

describe('the web app in Chinese', () => {
  it('shows no English word on a page of the sidebar or the avatar menu', async () => {
    const found = new Map<string, string[]>();
    const menus = SEED_MENUS.filter(
      (menu) => menu.path && !menu.hide && !/^https?:/.test(menu.path),
    );
    const main = menus.filter((menu) => menu.menuType === MenuType.MAIN);
    const section = menus.filter((menu) => menu.menuType === MenuType.SECTION);
    const avatar = menus.filter((menu) => menu.menuType === MenuType.AVATAR);
    expect(main.length + section.length + avatar.length).toBeGreaterThan(15);

    const visitByMenu = async (id: string, path: string) => {
      // the page before is gone, not merely changed: it stays drawn (and follows the new
      // address's query, showing its first tab) until the new page's code has arrived
      const moves = new URL(page.url()).pathname !== path;
      const before = moves ? await page.locator('#main-content > *').first().elementHandle() : null;
      await page.getByTestId(`menu-${id}`).click();
      await page.waitForURL((url) => url.pathname === path);
      if (before) await page.waitForFunction((element) => !element.isConnected, before);
      await checkPageAndTabs(path, found);
    };
    for (const menu of main) await visitByMenu(menu.id, menu.path!);
    // the settings section shows in the sidebar once a settings page is open
    await page.getByTestId('user-menu').click();
    await page.getByTestId(`avatar-menu-${avatar[0]!.id}`).click();
    await page.getByTestId(`menu-${section[0]!.id}`).waitFor({ state: 'visible' });
    for (const menu of section) await visitByMenu(menu.id, menu.path!);
    for (const menu of avatar) {
      // from the home page, so the page opened is surely the one the menu leads to
      await page.getByTestId('sidebar-brand').click();
      await page.getByTestId('files-view').waitFor({ state: 'visible' });
      await page.getByTestId('user-menu').click();
      await page.getByTestId(`avatar-menu-${menu.id}`).click();
      await page.waitForURL((url) => url.pathname === menu.path);
      await page.getByTestId('files-view').waitFor({ state: 'detached' });
      // the same pages as the settings section's: their tabs were looked at there
      await checkPageAndTabs(`${menu.path!} (avatar menu)`, found, false);
    }
    expect(Object.fromEntries(found)).toEqual({});
  });

  it('names the built-in roles and a pending second factor in Chinese', async () => {
    await page.goto('/setting/sys/role');
    const roles = page.getByTestId('roles-table');
    await roles.getByText('管理员', { exact: true }).waitFor({ state: 'visible' });
    await roles.getByText('普通用户', { exact: true }).waitFor({ state: 'visible' });
    await page.goto('/setting/sys/user');
    await until(
      async () => (await page.getByTestId('users-table').innerText()).includes('普通用户'),
      'bob is shown with the user role in Chinese',
    );
    // used space and quota in one unit, the same in the table and the sidebar's bar
    const table = page.getByTestId('users-table');
    await table.getByText('<0.01 / 10G', { exact: true }).first().waitFor({ state: 'visible' });
    await table.getByText('0 / 10G', { exact: true }).first().waitFor({ state: 'visible' });
    expect(await page.getByTestId('quota-bar').innerText()).toContain('<0.01 / 10G');
    await saveScreenshot(page, 'chinese-users');
    await page.goto('/setting/cloudManager');
    await page.locator('.ant-tabs-tab[data-node-key="audit"]').click();
    await page
      .getByTestId('audit-table')
      .getByText('登录（待第二步验证）', { exact: true })
      .first()
      .waitFor({ state: 'visible' });
    await saveScreenshot(page, 'chinese-audit');
  });
});

describe('form checks', () => {
  it("speak Nimbus's words, not Ant Design's defaults", async () => {
    const english = await openPage(browser, server);
    try {
      await signInPage(english.page, admin);
      await english.page.goto('/setting/cloudManager');
      await english.page.locator('.ant-tabs-tab[data-node-key="ldap"]').click();
      const tab = english.page.getByTestId('ldap-tab');
      await tab.getByRole('button', { name: 'Save' }).click();
      await tab.getByText('Enter Server address', { exact: true }).waitFor({ state: 'visible' });
      expect(await tab.getByText(/Please enter/).count()).toBe(0);
    } finally {
      await english.context.close();
    }
  });
});

describe('a share that is gone', () => {
  it("offers the way to the drive under the drive's own name", async () => {
    await api(server, 'PUT', '/user/setting/update_netdisk_name?netdiskName=Cirrus', {
      token: admin.token,
    });
    const visitor = await openPage(browser, server);
    try {
      await visitor.page.goto('/s/no-such-share');
      const problem = visitor.page.getByTestId('share-problem');
      await problem.waitFor({ state: 'visible' });
      await problem.getByRole('button', { name: 'Go to Cirrus' }).waitFor({ state: 'visible' });
      await saveScreenshot(visitor.page, 'share-gone-drive-name');
    } finally {
      await visitor.context.close();
      await api(server, 'PUT', '/user/setting/update_netdisk_name?netdiskName=Nimbus', {
        token: admin.token,
      });
    }
  });
});
