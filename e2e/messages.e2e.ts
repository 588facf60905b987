import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DESKTOP,
  clickWhenStill,
  PHONE,
  createAdmin,
  saveScreenshot,
  startServer,
  until,
  type ApiSession,
  type NimbusServer,
  api,
  openSignedIn,
  closeAll,
} from './harness.ts';

// What an action says and where: a rename says it by the new name alone, a move or a copy in one
// box that covers none of the bars' controls, on a desktop and on a phone. And the search filters fit a phone.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let session: ApiSession;
let browser: Browser;
let context: BrowserContext;
let page: Page;

const item = (name: string): Locator =>
  page.locator(`[data-testid="file-item"][data-name="${name}"]`);

/** Every message and notification box on screen. */
const notices = () => page.locator('.ant-message-notice, .ant-notification-notice');

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Waits until no message is on screen, the pointer kept off them (hovering keeps them open). */
async function noticesGone(): Promise<void> {
  await page.mouse.move(1, 1);
  await until(async () => (await notices().count()) === 0, 'the messages close', 30_000);
}

/**
 * Runs an action, then checks what it says: exactly one message, staying one while the server's
 * own report arrives, and its box covering neither the avatar nor the New and Upload buttons.
 */
async function saysOnce(name: string, action: () => Promise<void>, count = 1): Promise<void> {
  await noticesGone();
  await action();
  if (count > 0) await until(async () => (await notices().count()) > 0, `${name}: a message shows`);
  // the server's report of the operation follows the action's own answer within a moment:
  // poll a while for a second box
  const deadline = Date.now() + 2500;
  while (Date.now() < deadline) {
    expect(await notices().count(), `${name}: one message`).toBe(count);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (count === 0) return;
  const box = (await notices().first().boundingBox())!;
  for (const control of [
    'user-menu',
    'new-button',
    'upload-button',
    'search-input',
    'mobile-tabbar',
  ]) {
    const target = page.getByTestId(control).first();
    if (!(await target.isVisible())) continue;
    const other = (await target.boundingBox())!;
    expect(overlaps(box, other), `${name}: the message covers ${control}`).toBe(false);
  }
  const viewport = page.viewportSize()!;
  expect(box.x >= 0 && box.x + box.width <= viewport.width, `${name}: within the screen`).toBe(
    true,
  );
  await saveScreenshot(page, `messages-${name}`);
}

/**
 * A menu or panel just opened under the pointer: a tip that was showing fades out at once and
 * none comes back over it.
 */
async function noTipOver(opened: Locator): Promise<void> {
  await opened.waitFor({ state: 'visible' });
  const tips = page.locator('.ant-tooltip:not(.ant-tooltip-hidden)');
  await until(async () => (await tips.count()) === 0, 'the tip leaves the menu', 1500);
  const deadline = Date.now() + 800;
  while (Date.now() < deadline) {
    expect(await tips.count(), 'a tip covers the menu just opened').toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Runs an action from the item's "…" menu, as a finger does on a phone. */
async function action(name: string, id: string): Promise<void> {
  // a listing redrawn by a late live message closes an open menu: open it again then
  for (let attempt = 1; ; attempt++) {
    await item(name).getByTestId('item-menu-button').click();
    try {
      await clickWhenStill(page.getByTestId(`action-${id}`), 5000);
      return;
    } catch (error) {
      if (attempt === 3) throw error;
      await page.keyboard.press('Escape');
    }
  }
}

async function moveOrCopy(name: string, mode: 'move' | 'copy', folder: string): Promise<void> {
  await action(name, 'moveCopy');
  const dialog = page.getByTestId('move-dialog');
  await dialog.waitFor({ state: 'visible' });
  await dialog.getByText(folder, { exact: true }).click();
  await clickWhenStill(page.getByTestId(`move-dialog-${mode}`));
  await dialog.waitFor({ state: 'hidden' });
}

beforeAll(async () => {
  server = await startServer();
  session = await createAdmin(server, ADMIN);
  for (const folder of ['Archive', 'Shelf'])
    await api(server, 'POST', '/new_folder', {
      token: session.token,
      query: { currentDirectory: '/', filename: folder },
    });
  for (const name of ['plan.txt', 'notes.txt', 'memo.txt'])
    await api(server, 'POST', '/addfile', {
      token: session.token,
      query: { parentPath: '/', fileName: name },
    });
  ({ browser, context, page } = await openSignedIn(server, session));
});

afterAll(() => closeAll({ context, browser, server }));

describe('one message per action, covering no control', () => {
  for (const [viewport, width, theme, lang] of [
    [DESKTOP, 1440, 'light', 'en_US'],
    [PHONE, 375, 'dark', 'zh_CN'],
  ] as const) {
    it(`renames, moves and copies at ${width} px, ${theme}, ${lang}`, async () => {
      await page.setViewportSize(viewport);
      if (lang !== 'en_US') {
        // the pointer stays on the button: its tip must not cover the menu it opened
        await page.getByTestId('theme-switch').click();
        await noTipOver(page.getByTestId(`theme-${theme}`));
        await page.getByTestId(`theme-${theme}`).click();
        await page.getByTestId('lang-switch').click();
        await noTipOver(page.getByTestId(`lang-${lang}`));
        await page.getByTestId(`lang-${lang}`).click();
      }
      await item('plan.txt').waitFor({ state: 'visible' });
      const renamed = `plan-${width}.txt`;
      await saysOnce(
        `rename-${width}`,
        async () => {
          await action('plan.txt', 'rename');
          const input = page.getByTestId('file-rename-input');
          await input.fill(renamed);
          await input.press('Enter');
          await item(renamed).waitFor({ state: 'visible' });
          // the new name on the tile says it: no box at all
        },
        0,
      );
      await saysOnce(`copy-${width}`, () => moveOrCopy(renamed, 'copy', 'Archive'));
      await saysOnce(`move-${width}`, () => moveOrCopy(renamed, 'move', 'Shelf'));
      await item(renamed).waitFor({ state: 'detached' });

      // the search filters open inside the screen
      await page.getByTestId('search-options-button').click();
      await page.getByTestId('search-options').waitFor();
      await noTipOver(page.getByTestId('search-options'));
      const filters = page.locator('.ant-popover', { has: page.getByTestId('search-options') });
      await until(
        async () => (await filters.evaluate((e) => getComputedStyle(e).opacity)) === '1',
        'the filters stand still',
      );
      const box = (await filters.boundingBox())!;
      expect(box.x, 'left edge').toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, 'right edge').toBeLessThanOrEqual(viewport.width);
      expect(box.y + box.height, 'bottom edge').toBeLessThanOrEqual(viewport.height);
      await saveScreenshot(page, `search-filters-${width}-${theme}-${lang}`);
      await page.getByTestId('search-options-button').click();
      await page.getByTestId('search-options').waitFor({ state: 'hidden' });
      // the next round starts from the same files
      await api(server, 'POST', '/addfile', {
        token: session.token,
        query: { parentPath: '/', fileName: 'plan.txt' },
      });
    });
  }
});
