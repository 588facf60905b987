import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { ADMIN_ROLE } from '@nimbus/contract';
import { base32Decode, codeAt, stepAt } from '../server/src/lib/totp.ts';
import {
  clickWhenStill,
  DESKTOP,
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
import { storySteps } from './steps.ts';

// The administrator's tables (users, roles, menus, tasks) and "my account": add, edit and delete
// through their dialogs, as a person does, and how the pages look.
// The steps share one browser page and run in order; after a failed step the rest stop at once.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const NEW_PASSWORD = 'admin-secret-2';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminToken = '';

const login = (who: { username: string; password: string }) =>
  apiAnswer<{ 'nimbus-token': string; userId: string; mfaRequired?: boolean }>(
    server,
    'POST',
    '/login',
    {
      body: who,
    },
  );

beforeAll(async () => {
  // a drive whose new users get 25 GB unless the administrator says otherwise
  server = await startServer({ NIMBUS_DEFAULT_QUOTA_GB: '25' });
  await apiAnswer(server, 'POST', '/public/initialization', { body: ADMIN });
  const session = (await login(ADMIN)).data;
  adminToken = session['nimbus-token'];
  ({ browser, context, page } = await openSignedIn(server, {
    token: session['nimbus-token'],
    userId: session.userId,
    username: ADMIN.username,
  }));
});

afterAll(() => closeAll({ context, browser, server }));

/** Dave's password after the administrator reset it. */
let davePassword = '';
/** One step of the flow: skipped quickly, with the reason, once an earlier step failed. */
const step = storySteps();

async function open(path: string, testId: string): Promise<void> {
  await page.goto(path);
  await page.getByTestId(testId).waitFor({ state: 'visible' });
}

async function confirmDelete(): Promise<void> {
  await clickWhenStill(page.getByTestId('confirm-delete'));
  await page.getByTestId('confirm-delete').waitFor({ state: 'hidden' });
}

describe('the administrator pages', () => {
  step('adds a user; the confirmation must match', async () => {
    await open('/setting/sys/user', 'users-page');
    await page.getByTestId('user-add').click();
    const dialog = page.getByTestId('user-dialog');
    await dialog.waitFor({ state: 'visible' });
    // the quota starts at the drive's configured default, not a number built into the page
    await until(
      async () => (await page.getByTestId('user-quota').inputValue()) === '25',
      'the quota shows the drive default, 25',
    );
    await page.getByTestId('user-username').fill('dave');
    await page.getByTestId('user-password').fill('dave-secret-1');
    await page.getByTestId('user-confirm').fill('dave-secret-x');
    await page.getByTestId('user-dialog-save').click();
    await dialog.getByText('Password does not match').waitFor({ state: 'visible' });
    await page.getByTestId('user-confirm').fill('dave-secret-1');
    await page.getByTestId('user-dialog-save').click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByTestId('user-edit-dave').waitFor({ state: 'visible' });
    expect((await login({ username: 'dave', password: 'dave-secret-1' })).code).toBe(0);
    const listed = await apiAnswer<Array<{ quota: number }>>(server, 'GET', '/user/userList', {
      token: adminToken,
      query: { username: 'dave' },
    });
    expect(listed.data.map((u) => u.quota)).toEqual([25]);
  });

  step('edits the user in the same dialog', async () => {
    await page.getByTestId('user-edit-dave').click();
    expect(await page.getByTestId('user-username').inputValue()).toBe('dave');
    expect(await page.getByTestId('user-username').isDisabled()).toBe(true);
    expect(await page.getByTestId('user-password').count()).toBe(0);
    await page.getByTestId('user-show-name').fill('Dave D');
    await page.getByTestId('user-dialog-save').click();
    await page.getByTestId('user-dialog').waitFor({ state: 'hidden' });
    await page.getByTestId('users-table').getByText('Dave D').waitFor({ state: 'visible' });
  });

  step(
    'resets the password to a generated one, shown once, saying first what it ends',
    async () => {
      await page.getByTestId('user-reset-dave').click();
      // the dialog says first what the reset ends: dave's sessions and access tokens
      const ends = page.getByTestId('access-ends');
      await ends.waitFor();
      expect(await ends.innerText()).toMatch(
        /^[1-9]\d* signed-in sessions? and 0 access tokens will stop working\.$/,
      );
      await page.getByTestId('reset-password-submit').click();
      const value = page.getByTestId('reset-password-value');
      await value.waitFor({ state: 'visible' });
      const generated = await value.inputValue();
      expect(generated.length).toBeGreaterThan(0);
      davePassword = generated;
      expect((await login({ username: 'dave', password: generated })).code).toBe(0);
      await page.getByRole('button', { name: 'Done' }).click();
      await value.waitFor({ state: 'hidden' });
    },
  );

  step(
    'turns off the user\u2019s two-factor sign-in after asking, as for a lost phone',
    async () => {
      const dave = { username: 'dave', password: davePassword };
      const token = (await login(dave)).data['nimbus-token'];
      const setup = await apiAnswer<{ secret: string }>(server, 'GET', '/public/mfa/setup', {
        token,
      });
      const { secret } = setup.data;
      const enabled = await apiAnswer(server, 'POST', '/mfa/enable', {
        token,
        body: { secret, code: codeAt(base32Decode(secret), stepAt(Date.now())) },
      });
      expect(enabled.code).toBe(0);
      expect((await login(dave)).data).toMatchObject({ mfaRequired: true });

      await page.reload();
      const reset = page.getByTestId('user-reset-mfa-dave');
      await reset.click();
      await page.getByTestId('reset-mfa-ok').click();
      await reset.waitFor({ state: 'detached' });
      // the password alone signs in again; the user can enrol a new phone
      const after = (await login(dave)).data;
      expect(after.mfaRequired).toBeUndefined();
      expect(after['nimbus-token']).toBeTruthy();
      // only users with two-factor sign-in on have the button
      expect(await page.getByTestId(`user-reset-mfa-${ADMIN.username}`).count()).toBe(0);
    },
  );

  step('deletes the user after asking; the owner cannot be deleted', async () => {
    expect(await page.getByTestId(`user-delete-${ADMIN.username}`).isDisabled()).toBe(true);
    await page.getByTestId('user-delete-dave').click();
    await confirmDelete();
    await page.getByTestId('user-edit-dave').waitFor({ state: 'detached' });
  });

  step('adds, edits and deletes a role; a built-in one stays', async () => {
    await open('/setting/sys/role', 'roles-page');
    expect(await page.getByTestId(`role-delete-${ADMIN_ROLE.code}`).isDisabled()).toBe(true);
    await page.getByTestId('role-add').click();
    await page.getByTestId('role-dialog').waitFor({ state: 'visible' });
    await page.getByTestId('role-menu-tree').waitFor({ state: 'visible' });
    await page.getByTestId('role-name').fill('Editors');
    await page.getByTestId('role-code').fill('editor');
    await page.getByTestId('role-menu-home').click();
    await page.getByTestId('role-dialog-save').click();
    await page.getByTestId('role-dialog').waitFor({ state: 'hidden' });
    // the dialog opens with the role's own values, not those typed when adding one
    await page.getByTestId('role-edit-editor').click();
    expect(await page.getByTestId('role-code').inputValue()).toBe('editor');
    expect(await page.getByTestId('role-name').inputValue()).toBe('Editors');
    await page.getByTestId('role-name').fill('Editors of the drive');
    await page.getByTestId('role-dialog-save').click();
    await page.getByTestId('role-dialog').waitFor({ state: 'hidden' });
    await page
      .getByTestId('roles-table')
      .getByText('Editors of the drive')
      .waitFor({ state: 'visible' });
    await page.getByTestId('role-delete-editor').click();
    await confirmDelete();
    await page.getByTestId('role-edit-editor').waitFor({ state: 'detached' });
  });

  step("a role's menus: a label ticks, a menu grants itself alone, none is refused", async () => {
    await open('/setting/sys/role', 'roles-page');
    await page.getByTestId('role-add').click();
    const dialog = page.getByTestId('role-dialog');
    await page.getByTestId('role-menu-tree').waitFor({ state: 'visible' });
    await page.getByTestId('role-name').fill('Viewers');
    await page.getByTestId('role-code').fill('viewer');
    // saved without a menu: refused where the menus are, and the dialog stays
    await page.getByTestId('role-dialog-save').click();
    await dialog.getByText('Menus and permissions: tick at least one entry').waitFor();
    expect(await dialog.isVisible()).toBe(true);

    const ticked = async (id: string) =>
      (await page
        .locator('.ant-tree-treenode', { has: page.getByTestId(`role-menu-${id}`) })
        .getAttribute('class'))!.includes('ant-tree-treenode-checkbox-checked');
    const actions = ['upload', 'update', 'delete', 'download', 'share'].map(
      (a) => `auth-file-${a}`,
    );
    // a click on the label ticks Home, and Home alone
    await page.getByTestId('role-menu-home').click();
    await until(() => ticked('home'), 'Home is ticked');
    for (const id of actions) expect(await ticked(id), id).toBe(false);
    await until(
      async () => !(await dialog.getByText('tick at least one entry').isVisible()),
      'the complaint goes once a menu is ticked',
    );
    // a permission ticks the menu it lives in; unticking the menu unticks it
    await page.getByTestId('role-menu-home').click();
    await until(async () => !(await ticked('home')), 'Home is unticked');
    await page.getByTestId('role-menu-auth-file-upload').click();
    await until(() => ticked('auth-file-upload'), 'Upload is ticked');
    expect(await ticked('home')).toBe(true);
    await page.getByTestId('role-menu-home').click();
    await until(async () => !(await ticked('auth-file-upload')), 'Upload goes with Home');
    await page.getByTestId('role-menu-home').click();
    await page.getByTestId('role-dialog-save').click();
    await dialog.waitFor({ state: 'hidden' });
    const roles = await apiAnswer<Array<{ code: string; menuIds: string[] }>>(
      server,
      'GET',
      '/role/list',
      {
        token: adminToken,
      },
    );
    expect(roles.data.find((r) => r.code === 'viewer')?.menuIds).toEqual(['home']);
  });

  step('the role dialog at 1440 and 375 px, light and dark, English and Chinese', async () => {
    await open('/setting/sys/role', 'roles-page');
    const speak = async (lang: 'en_US' | 'zh_CN') => {
      // the pointer off the switches: a tooltip left open would cover the menu
      await page.mouse.move(0, DESKTOP.height - 1);
      await page.getByTestId('lang-switch').click();
      await page.getByTestId(`lang-${lang}`).click();
    };
    // each width, theme and language twice, in four pictures
    const shots = [
      ['en_US', 'light', DESKTOP, 1440],
      ['en_US', 'dark', PHONE, 375],
      ['zh_CN', 'dark', DESKTOP, 1440],
      ['zh_CN', 'light', PHONE, 375],
    ] as const;
    for (const [lang, theme, viewport, width] of shots) {
      await page.setViewportSize(DESKTOP);
      if (lang === 'zh_CN' && theme === 'dark') await speak(lang);
      await open('/setting/sys/role', 'roles-page');
      await page.mouse.move(0, DESKTOP.height - 1);
      await page.getByTestId('theme-switch').click();
      await page.getByTestId(`theme-${theme}`).click();
      await page.setViewportSize(viewport);
      await page.getByTestId('role-edit-viewer').click();
      const dialog = page.getByTestId('role-dialog');
      await page.getByTestId('role-menu-tree').waitFor({ state: 'visible' });
      // both complaints on show: no name, no menu
      await page.getByTestId('role-name').fill('');
      await page.getByTestId('role-menu-home').click();
      await page.getByTestId('role-dialog-save').click();
      await dialog.locator('.ant-form-item-explain-error').nth(1).waitFor();
      // drawn in the theme chosen, and nothing runs off the screen's side
      const drawn = await page.evaluate(() => ({
        theme: document.documentElement.dataset.theme,
        overflow: document.documentElement.scrollWidth - window.innerWidth,
      }));
      expect(drawn.theme, `the role dialog at ${width}`).toBe(theme);
      expect(drawn.overflow, `the role dialog at ${width}: px beyond the side`).toBeLessThanOrEqual(
        0,
      );
      await saveScreenshot(page, `role-dialog-${width}-${theme}-${lang}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
    }
    await page.setViewportSize(DESKTOP);
    await speak('en_US');
  });

  step('adds a menu and deletes it', async () => {
    await open('/setting/sys/menu', 'menus-page');
    await page.getByTestId('menu-add').click();
    await page.getByTestId('menu-dialog').waitFor({ state: 'visible' });
    await page.getByTestId('menu-name').fill('Handbook');
    await page.getByTestId('menu-dialog-save').click();
    await page.getByTestId('menu-dialog').waitFor({ state: 'hidden' });
    const row = page.getByTestId('menus-table').locator('tr', { hasText: 'Handbook' });
    await row.waitFor({ state: 'visible' });
    await row.locator('[data-testid^="menu-delete-"]').click();
    await confirmDelete();
    await row.waitFor({ state: 'detached' });
  });

  step('shows the task page, empty', async () => {
    await open('/setting/taskProgress', 'tasks-page');
    await page.getByTestId('tasks-empty').waitFor({ state: 'visible' });
  });

  step('saves my display name and changes my password', async () => {
    await open('/setting/user', 'user-settings');
    await page.getByTestId('profile-show-name').fill('The admin');
    await page.getByTestId('profile-save').click();
    await page.getByText('Profile saved').first().waitFor({ state: 'visible' });

    await page.getByTestId('password-old').fill('not-the-password');
    await page.getByTestId('password-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-confirm').fill(NEW_PASSWORD);
    await page.getByTestId('password-save').click();
    await page
      .getByText('The current password is not correct')
      .first()
      .waitFor({ state: 'visible' });

    await page.getByTestId('password-old').fill(ADMIN.password);
    await page.getByTestId('password-save').click();
    // the confirmation says what the change ends, then the change is made
    await page.getByTestId('access-ends').waitFor();
    await clickWhenStill(page.getByTestId('password-confirm-ok'));
    await page.getByText('Password changed').first().waitFor({ state: 'visible' });
    await until(
      async () => (await login({ ...ADMIN, password: NEW_PASSWORD })).code === 0,
      'the new password signs in',
    );
  });

  step('takes a picture as my avatar, and goes back to my initial', async () => {
    await open('/setting/user', 'user-settings');
    const card = page.getByTestId('profile-card');
    await page.getByTestId('avatar-change').click();
    await page
      .getByTestId('image-input')
      .locator('input[type="file"]')
      .setInputFiles({
        name: 'me.png',
        mimeType: 'image/png',
        buffer: await sharp({
          create: { width: 64, height: 64, channels: 3, background: { r: 200, g: 60, b: 120 } },
        })
          .png()
          .toBuffer(),
      });
    const picture = card.locator('.ant-avatar img').first();
    await until(
      async () =>
        (await picture.count()) > 0 &&
        (await picture.evaluate((i: HTMLImageElement) => i.naturalWidth)) > 0,
      'the picture shows',
    );
    await page.getByTestId('avatar-clear').click();
    await until(
      async () => (await card.locator('.ant-avatar img').count()) === 0,
      'the initial is back',
    );
  });

  step('sets the footer line of the public pages and the versions kept per file', async () => {
    await open('/setting/cloudManager', 'website-card');
    await page.getByTestId('website-footer').fill('Record 2026-001');
    await page.getByTestId('website-versions').fill('7');
    await page.getByTestId('website-save').click();
    await page.getByText('Saved').first().waitFor({ state: 'visible' });
    const share = await fetch(`${server.baseUrl}/api/public/website/record`);
    const record = ((await share.json()) as { data: { footerText: string } }).data;
    expect(record.footerText).toBe('Record 2026-001');
  });

  step(
    'names the drive and gives it a logo; what does not fit is refused with the reason',
    async () => {
      await open('/setting/cloudManager', 'branding-card');
      const input = page.getByTestId('drive-name-input');
      await input.fill('My drive!');
      await page.getByTestId('drive-name-save').click();
      await page
        .getByText('Only Chinese characters, letters, digits and "_"')
        .waitFor({ state: 'visible' });
      await input.fill('团队_Drive2');
      await page.getByTestId('drive-name-save').click();
      await until(
        async () => (await page.getByTestId('sidebar-brand').innerText()).includes('团队_Drive2'),
        'the sidebar names the drive',
      );
      await until(async () => (await page.title()).endsWith('团队_Drive2'), 'the title names it');

      const chooser = page.getByTestId('branding-card').locator('input[type="file"]');
      await chooser.setInputFiles({
        name: 'big.png',
        mimeType: 'image/png',
        buffer: Buffer.alloc(200 * 1024, 1),
      });
      await page.getByText('The logo must be at most 128 KB').waitFor({ state: 'visible' });
      // the contract's logo rule, as the server applies it: a picture is told by its name
      await chooser.setInputFiles({
        name: 'logo',
        mimeType: 'image/png',
        buffer: Buffer.from('x'),
      });
      await page
        .getByText('The logo must be an SVG, JPG, JPEG or PNG image')
        .waitFor({ state: 'visible' });
      await chooser.setInputFiles({
        name: 'empty.png',
        mimeType: 'image/png',
        buffer: Buffer.alloc(0),
      });
      await page.getByText('The logo file is empty').waitFor({ state: 'visible' });
      await chooser.setInputFiles({
        name: 'logo.png',
        mimeType: 'image/png',
        buffer: await sharp({
          create: { width: 64, height: 64, channels: 3, background: { r: 40, g: 160, b: 110 } },
        })
          .png()
          .toBuffer(),
      });
      const brandLogo = page.getByTestId('sidebar-brand').locator('img');
      await until(
        async () => (await brandLogo.getAttribute('src')) !== '/logo.svg',
        'the sidebar shows the logo',
      );
      expect(await page.locator('link#app-favicon').getAttribute('href')).toBe(
        await brandLogo.getAttribute('src'),
      );
      await until(
        async () => (await brandLogo.evaluate((img: HTMLImageElement) => img.naturalWidth)) > 0,
        'the logo loads',
      );
    },
  );

  step('shows the audit log: who signed in and who changed users', async () => {
    await open('/setting/cloudManager?tab=audit', 'audit-tab');
    const table = page.getByTestId('audit-table');
    await until(
      async () => ((await table.textContent()) ?? '').includes('Sign-in'),
      'the sign-ins are in the log',
    );
    await saveScreenshot(page, 'admin-audit');
    // the user added many changes ago, found by its action
    await page.getByTestId('audit-tab').locator('.ant-select').first().click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'User added' }).click();
    await until(async () => {
      const text = (await table.textContent()) ?? '';
      return text.includes('User added') && text.includes('dave') && !text.includes('Sign-in');
    }, 'the added user is in the log');
  });

  step('screenshots at 1440 and 375 px, light and dark', async () => {
    const pages = [
      ['/setting/sys/user', 'users-page', 'admin-users'],
      ['/setting/sys/role', 'roles-page', 'admin-roles'],
      ['/setting/sys/menu', 'menus-page', 'admin-menus'],
      ['/setting/taskProgress', 'tasks-page', 'admin-tasks'],
      ['/setting/user', 'user-settings', 'my-account'],
    ] as const;
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize(DESKTOP);
      await page.getByTestId('theme-switch').click();
      await page.getByTestId(`theme-${theme}`).click();
      for (const [viewport, width] of [
        [DESKTOP, 1440],
        [PHONE, 375],
      ] as const) {
        await page.setViewportSize(viewport);
        for (const [path, testId, name] of pages) {
          await open(path, testId);
          // drawn in the theme chosen, and nothing runs off the screen's side
          const drawn = await page.evaluate(() => ({
            theme: document.documentElement.dataset.theme,
            overflow: document.documentElement.scrollWidth - window.innerWidth,
          }));
          expect(drawn.theme, `${name} at ${width}`).toBe(theme);
          expect(drawn.overflow, `${name} at ${width}: px beyond the side`).toBeLessThanOrEqual(0);
          await saveScreenshot(page, `${name}-${width}-${theme}`);
        }
      }
    }
    await page.setViewportSize(DESKTOP);
    await open('/setting/sys/user', 'users-page');
    await page.getByTestId('user-add').click();
    const dialog = page.getByTestId('user-dialog');
    await dialog.waitFor({ state: 'visible' });
    // the dialog zooms in: wait until it stands at its full width
    await until(
      async () => ((await dialog.boundingBox())?.width ?? 0) > 400,
      'the dialog is fully open',
    );
    await saveScreenshot(page, 'admin-user-dialog-1440-dark');
    await page.keyboard.press('Escape');
  });

  step('screenshots of the sign-in page, light and dark', async () => {
    await page.evaluate(() => localStorage.removeItem('store'));
    await open('/login', 'login-form');
    for (const theme of ['light', 'dark'] as const) {
      await page.setViewportSize(DESKTOP);
      await page.getByTestId('theme-switch').click();
      await page.getByTestId(`theme-${theme}`).click();
      await saveScreenshot(page, `admin-login-1440-${theme}`);
      await page.setViewportSize(PHONE);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(theme);
      await untilFitsWidth(page, 'the sign-in page on a phone');
      await saveScreenshot(page, `admin-login-375-${theme}`);
    }
  });
});
