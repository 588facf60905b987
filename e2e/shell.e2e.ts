import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  DESKTOP,
  PHONE,
  backgroundLuminance,
  launchBrowser,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  closeAll,
} from './harness.ts';
import { storySteps } from './steps.ts';

// The foundation flow: first visit, the shell, language, theme, sign out, route guard.
// The steps share one browser page and run in order; after a failed step the rest stop at once.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const CJK = /[\u4e00-\u9fff]/;

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server));
});

afterAll(() => closeAll({ context, browser, server }));

/** One step of the flow: skipped quickly, with the reason, once an earlier step failed. */
const step = storySteps();

const pathOf = (p: Page) => {
  const url = new URL(p.url());
  return `${url.pathname}${url.search}`;
};

/**
 * Signs out from the user menu and waits for the sign-in page. A failure says what became of
 * the sign-out request (never sent, sent, answered, failed) and where the page stands.
 */
async function signOut(): Promise<void> {
  const seen: string[] = [];
  const note = (what: string) => (request: Request) => {
    if (new URL(request.url()).pathname === '/api/logout') seen.push(what);
  };
  const sent = note('sent');
  const answered = note('answered');
  const failed = note('failed');
  page.on('request', sent);
  page.on('requestfinished', answered);
  page.on('requestfailed', failed);
  try {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname === '/login', { timeout: 20_000 });
  } catch (error) {
    const request = seen.join(', ') || 'never sent';
    throw new Error(
      `${(error as Error).message}; the sign-out request: ${request}; at ${page.url()}`,
    );
  } finally {
    page.off('request', sent);
    page.off('requestfinished', answered);
    page.off('requestfailed', failed);
  }
}

async function signIn(username: string, password: string, remember = true): Promise<void> {
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  // The test id may sit on the checkbox itself or on its wrapper.
  const remembered = page.getByTestId('login-remember');
  const isInput = await remembered.evaluate((el) => el.tagName === 'INPUT');
  const checkbox = isInput ? remembered : remembered.locator('input[type=checkbox]');
  await checkbox.setChecked(remember);
  await page.getByTestId('login-submit').click();
}

async function chooseTheme(value: 'light' | 'dark' | 'auto'): Promise<void> {
  await page.getByTestId('theme-switch').click();
  await page.getByTestId(`theme-${value}`).click();
}

async function chooseLanguage(value: 'en_US' | 'zh_CN'): Promise<void> {
  await page.getByTestId('lang-switch').click();
  await page.getByTestId(`lang-${value}`).click();
}

describe('the shell', () => {
  step('offers to create the administrator on the first visit', async () => {
    const res = await page.goto('/');
    expect(res?.status(), 'GET / answers the web app').toBe(200);
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByTestId('login-confirm').waitFor({ state: 'visible' });
    expect(await page.getByTestId('login-remember').count()).toBe(0);
  });

  step('refuses a confirmation that does not match', async () => {
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-confirm').fill(`${ADMIN.password}x`);
    await page.getByTestId('login-submit').click();
    await page.getByText('Password does not match').first().waitFor({ state: 'visible' });
    // nothing was created: the drive still has no user
    const res = await fetch(`${server.baseUrl}/api/public/has_user`);
    expect(((await res.json()) as { count: number }).count).toBe(0);
  });

  step('creates the administrator and opens the shell', async () => {
    await page.getByTestId('login-confirm').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    // creating the administrator signs in at once: the shell opens
    const shell = page.getByTestId('sidebar');
    await shell.waitFor({ state: 'visible' });
    await shell.getByText('Home', { exact: true }).first().waitFor({ state: 'visible' });
    await page.getByTestId('quota-bar').waitFor({ state: 'visible' });
    await page.getByTestId('user-menu').waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).not.toMatch(/^\/login/);
    // the top bar reaches the right edge of the window: the page uses the whole width
    const bar = await page.getByRole('banner').boundingBox();
    expect((bar?.x ?? 0) + (bar?.width ?? 0)).toBeGreaterThan(DESKTOP.width - 2);
  });

  step('switches to Chinese and back to English', async () => {
    const sidebar = page.getByTestId('sidebar');
    await chooseLanguage('zh_CN');
    await until(
      async () => CJK.test((await sidebar.textContent()) ?? ''),
      'the sidebar shows Chinese menu labels',
    );
    expect(await sidebar.textContent()).not.toContain('Home');
    await chooseLanguage('en_US');
    await sidebar.getByText('Home', { exact: true }).first().waitFor({ state: 'visible' });
  });

  step('switches to the dark theme; screenshots at 1440 and 375 px, light and dark', async () => {
    await page.setViewportSize(DESKTOP);
    expect(await backgroundLuminance(page)).toBeGreaterThan(0.6);
    await saveScreenshot(page, 'shell-1440-light');

    await chooseTheme('dark');
    await until(async () => (await backgroundLuminance(page)) < 0.1, 'the background turns dark');
    await saveScreenshot(page, 'shell-1440-dark');

    await page.setViewportSize(PHONE);
    const toggle = page.getByTestId('mobile-menu-toggle');
    await toggle.waitFor({ state: 'visible' });
    // On a phone the sidebar is a drawer, closed until the menu button opens it.
    await until(
      async () => !(await page.getByTestId('sidebar').isVisible()),
      'the sidebar folds away',
    );
    await saveScreenshot(page, 'shell-375-dark');
    await toggle.click();
    await page.getByTestId('sidebar').waitFor({ state: 'visible' });
    await saveScreenshot(page, 'shell-375-dark-menu');
    await page.keyboard.press('Escape');
    await page.getByTestId('sidebar').waitFor({ state: 'hidden' });

    await page.setViewportSize(DESKTOP);
    await chooseTheme('light');
    await until(async () => (await backgroundLuminance(page)) > 0.6, 'the background turns light');
    await page.setViewportSize(PHONE);
    await toggle.waitFor({ state: 'visible' });
    await saveScreenshot(page, 'shell-375-light');
    await page.setViewportSize(DESKTOP);
    await chooseTheme('dark');
    await until(async () => (await backgroundLuminance(page)) < 0.1, 'the background turns dark');
  });

  step('signs out, and a guarded page then asks to sign in', async () => {
    await signOut();
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });

    await page.goto('/trash');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(pathOf(page)).toBe('/login?redirect=%2Ftrash');
    // the drive exists now: the sign-in form, not create-admin
    await page.getByTestId('login-remember').waitFor({ state: 'visible' });
    expect(await page.getByTestId('login-confirm').count()).toBe(0);
  });

  step('signs in again and returns to the page it came from', async () => {
    await signIn(ADMIN.username, ADMIN.password, true);
    await page.waitForURL((url) => url.pathname === '/trash');
    await page.getByTestId('sidebar').waitFor({ state: 'visible' });
    // the dark theme chosen before signing out is still there
    await until(async () => (await backgroundLuminance(page)) < 0.1, 'the dark theme is restored');
  });

  step('signs out at once when the server does not answer, and the session ends here', async () => {
    // the server is slow or gone: signing out must not keep the person signed in
    await page.route('**/api/logout', () => undefined);
    try {
      await signOut();
    } finally {
      await page.unroute('**/api/logout');
    }
    await page.goto('/trash');
    await page.waitForURL((url) => url.pathname === '/login');
    await page.getByTestId('login-submit').waitFor({ state: 'visible' });
  });
});
