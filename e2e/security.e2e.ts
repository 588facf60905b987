import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { base32Decode, codeAt, stepAt } from '../server/src/lib/totp.ts';
import {
  clickWhenStill,
  PHONE,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  apiAnswer,
  untilFitsWidth,
  openSignedIn,
  closeAll,
} from './harness.ts';

// Two-factor sign-in and access tokens as a person uses them: a read-only token whose write is
// refused, turn two-factor sign-in on with the code an authenticator app would show (computed
// here; the dialog says the tokens end), sign out and back in with a code, and a password
// change that says what it ends.
// The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let secret = '';
let enrolledStep = 0;
let backupToken = '';

beforeAll(async () => {
  server = await startServer();
  await fetch(`${server.baseUrl}/api/public/initialization`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const res = await fetch(`${server.baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const session = ((await res.json()) as { data: { 'nimbus-token': string; userId: string } }).data;
  ({ browser, context, page } = await openSignedIn(server, {
    token: session['nimbus-token'],
    userId: session.userId,
    username: ADMIN.username,
  }));
});

afterAll(() => closeAll({ context, browser, server }));

describe.sequential('security settings in the browser', () => {
  it('makes a read-only token: it reads, its write is refused, and its last use is listed', async () => {
    await page.goto('/setting/user');
    await page.getByTestId('token-name').fill('reader');
    await page.getByTestId('token-scope').click();
    await page.locator('.ant-select-item-option', { hasText: 'Read only' }).click();
    await page.getByTestId('token-generate').click();
    const made = await page.getByTestId('token-made').locator('code').innerText();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('token-scope-reader').waitFor();
    expect(await page.getByTestId('token-scope-reader').innerText()).toBe('Read only');
    expect(await page.getByTestId('token-last-used-reader').innerText()).toBe('Never');

    expect((await apiAnswer(server, 'GET', '/list', { token: made })).code).toBe(0);
    const write = await fetch(
      `${server.baseUrl}/api/new_folder?currentDirectory=%2F&filename=by-a-reader`,
      { method: 'POST', headers: { 'nimbus-token': made } },
    );
    expect(write.status).toBe(403);
    expect(((await write.json()) as { message: string }).message).toBe(
      'This access token only reads',
    );

    await page.reload();
    await until(
      async () =>
        /^\d{4}-\d{2}-\d{2} /.test(await page.getByTestId('token-last-used-reader').innerText()),
      'the last use listed',
    );
    await saveScreenshot(page, 'security-token-read-only');
  });

  it('says before turning two-factor sign-in on that it ends the access tokens', async () => {
    await page.getByTestId('mfa-turn-on').click();
    const notice = page.getByTestId('access-ends');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(
      '0 other signed-in sessions and 1 access token will stop working.',
    );
    await page.keyboard.press('Escape');
    await page.getByTestId('mfa-enrol').waitFor({ state: 'detached' });
  });

  it('turns two-factor sign-in on with a code from the app and shows the recovery codes once', async () => {
    await page.goto('/setting/user');
    await page.getByTestId('mfa-turn-on').click();
    const shown = await page.getByTestId('mfa-secret').locator('code').innerText();
    secret = shown.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await saveScreenshot(page, 'security-mfa-enrol');
    enrolledStep = stepAt(Date.now());
    await page.getByTestId('mfa-code').fill(codeAt(base32Decode(secret), enrolledStep));
    await page.getByTestId('mfa-confirm').click();
    const recovery = page.getByTestId('mfa-recovery');
    await recovery.waitFor();
    expect(await recovery.locator('code').count()).toBe(10);
    await saveScreenshot(page, 'security-mfa-recovery');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('mfa-on').waitFor();
    // the read-only token ended with it
    await page.getByTestId('token-scope-reader').waitFor({ state: 'detached' });
  });

  it('makes an access token that is shown once and works for the API', async () => {
    await page.getByTestId('token-name').fill('backup script');
    await page.getByTestId('token-generate').click();
    const made = await page.getByTestId('token-made').locator('code').innerText();
    expect(made).toMatch(/^nat_/);
    expect((await apiAnswer(server, 'GET', '/list', { token: made })).code).toBe(0);
    backupToken = made;
    await page.getByRole('button', { name: 'Done' }).click();
    await until(
      async () => (await page.getByText('backup script').count()) > 0,
      'the new token listed',
    );
    await saveScreenshot(page, 'security-settings');
  });

  it('signs out and back in with the password and the next code', async () => {
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.waitForURL((url) => url.pathname.startsWith('/login'));
    await page.getByTestId('login-username').fill(ADMIN.username);
    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    const otp = page.getByTestId('login-mfa-code');
    await otp.waitFor();
    await saveScreenshot(page, 'security-login-code');
    // the enrolment's code is spent: the app's next one signs in
    await otp.locator('input').first().click();
    await page.keyboard.type(codeAt(base32Decode(secret), enrolledStep + 1));
    await page.getByTestId('login-mfa-submit').click();
    // signed in: back where the sign-out happened
    await page.waitForURL((url) => !url.pathname.startsWith('/login'));
    await page.getByTestId('sidebar').waitFor();
  });

  it('says before a password change what it ends, keeps this browser in and ends the token', async () => {
    await page.goto('/setting/user');
    await page.getByTestId('password-old').fill(ADMIN.password);
    await page.getByTestId('password-new').fill('admin-secret-2');
    await page.getByTestId('password-confirm').fill('admin-secret-2');
    await page.getByTestId('password-save').click();
    const notice = page.getByTestId('access-ends');
    await notice.waitFor();
    expect(await notice.innerText()).toContain(
      '0 other signed-in sessions and 1 access token will stop working.',
    );
    await saveScreenshot(page, 'security-password-confirm');
    await clickWhenStill(page.getByTestId('password-confirm-ok'));
    await page.getByText('Password changed').waitFor();
    await page.getByTestId('token-scope-backup script').waitFor({ state: 'detached' });
    expect((await apiAnswer(server, 'GET', '/list', { token: backupToken })).code).toBe(5);
    // this browser is still signed in
    await page.reload();
    await page.getByTestId('tokens-card').waitFor();
  });

  it('fits a phone in the dark theme', async () => {
    await page.setViewportSize(PHONE);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/setting/user');
    await page.getByTestId('tokens-card').waitFor();
    await untilFitsWidth(page, 'the security settings at 375 px');
    await saveScreenshot(page, 'security-settings-phone-dark');
  });
});
