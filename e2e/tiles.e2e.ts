import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import {
  clickWhenStill,
  DESKTOP,
  PHONE,
  createAdmin,
  saveScreenshot,
  startServer,
  until,
  type ApiSession,
  type NimbusServer,
  api,
  openSignedIn,
} from './harness.ts';
import { storySteps } from './steps.ts';

// Tiles and rows in a real browser: a mouse resting on a row or a tile opens its hover card
// (size, created, modified, location) without taking the clicks under it; a file tagged through
// its menu shows its tags as chips on its row and its tile; the grid draws a distinct icon per
// family (code, archive, key, office, media). Screenshots in both themes, at 1440 and 375 px,
// in both languages. The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const FOLDER = '/docs/';
const FILES: Record<string, string> = {
  'main.ts': 'export const answer = 42;\n',
  'backup.zip': 'not really a zip',
  'site.pem': '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n',
  'letter.docx': 'not really a document',
  'song.mp3': 'not really a song',
};

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
let tmp: string;

const item = (name: string): Locator =>
  page.locator(`[data-testid="file-item"][data-name="${name}"]`);
const card = () => page.getByTestId('hover-card');

const step = storySteps({ prefix: 'tiles', page: () => page });

async function openFolder(view: 'list' | 'grid'): Promise<void> {
  await page.goto(`/?path=${encodeURIComponent(FOLDER)}&vmode=${view}`);
  await item('main.ts').waitFor();
  await page.waitForSelector(`.nb-collection--${view}`);
}

/** Rest the mouse on an item until its card opens; the card's facts by name. */
async function hover(name: string): Promise<Record<string, string>> {
  await page.mouse.move(0, 0);
  await until(async () => (await card().count()) === 0, 'no card is open');
  const box = (await item(name).boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 3 });
  await until(
    async () =>
      (await card().getAttribute('data-id')) === (await item(name).getAttribute('data-id')),
    `the hover card of ${name} opens`,
  );
  const facts: Record<string, string> = {};
  for (const key of ['size', 'created', 'modified', 'location']) {
    const value = card().getByTestId(`hover-card-${key}`);
    if ((await value.count()) > 0) facts[key] = (await value.textContent()) ?? '';
  }
  return facts;
}

async function setTheme(theme: 'light' | 'dark'): Promise<void> {
  await page.getByTestId('theme-switch').click();
  await page.getByTestId(`theme-${theme}`).click();
  await until(
    async () =>
      (await page.evaluate(() => document.documentElement.dataset.theme ?? 'light')) === theme,
    `the ${theme} theme`,
  );
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-tiles-e2e-'));
  server = await startServer();
  session = await createAdmin(server, ADMIN);
  ({ browser, context, page } = await openSignedIn(server, session));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('tiles and rows', () => {
  step('uploads a file of each family into a folder', async () => {
    await api(server, 'POST', '/new_folder?currentDirectory=%2F&filename=docs', {
      token: session.token,
    });
    await page.goto(`/?path=${encodeURIComponent(FOLDER)}&vmode=list`);
    const files = Object.entries(FILES).map(([name, content]) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, content);
      return file;
    });
    await page.getByTestId('upload-input-files').setInputFiles(files);
    await until(
      async () => (await page.locator('[data-testid="file-item"]').count()) === files.length,
      'the uploads are listed',
      60_000,
    );
  });

  step('a row and a tile tell their size, dates and location on hover', async () => {
    const listed = await api<Array<{ name: string; uploadDate: string; updateDate: string }>>(
      server,
      'GET',
      `/list?currentDirectory=${encodeURIComponent(FOLDER)}`,
      { token: session.token },
    );
    const main = listed.find((f) => f.name === 'main.ts')!;
    const expected = {
      size: `${FILES['main.ts']!.length}B`,
      created: main.uploadDate.slice(0, 16),
      modified: main.updateDate.slice(0, 16),
      location: FOLDER,
    };
    await openFolder('list');
    expect(await hover('main.ts')).toEqual(expected);
    await saveScreenshot(page, 'tiles-hover-row-1440-light');

    // the card takes no clicks: what lies under it is clicked
    const box = (await card().boundingBox())!;
    const under = await page.evaluate(
      ({ x, y }) =>
        (
          document
            .elementsFromPoint(x, y)
            .find((el) => el.closest('[data-testid="file-item"]'))
            ?.closest('[data-testid="file-item"]') as HTMLElement | undefined
        )?.dataset.name ?? '',
      { x: box.x + 10, y: box.y + 10 },
    );
    expect(under).not.toBe('');
    expect(under).not.toBe('main.ts');
    await page.mouse.click(box.x + 10, box.y + 10);
    await until(
      async () => (await item(under).getAttribute('aria-selected')) === 'true',
      'the item under the card is selected',
    );
    expect(await card().count()).toBe(0);

    await openFolder('grid');
    expect(await hover('main.ts')).toEqual(expected);
    // a press closes it, and dragging starts from the tile as before
    await page.mouse.down();
    expect(await card().count()).toBe(0);
    await page.mouse.up();
  });

  step('tags a file through its menu and shows the chips on its row and tile', async () => {
    await openFolder('list');
    await item('main.ts').click({ button: 'right' });
    await clickWhenStill(page.getByTestId('action-tags'));
    await page.getByTestId('tag-dialog-body').waitFor();
    await page.getByTestId('tag-dialog-select').click();
    for (const name of ['urgent', '复核', 'q3']) {
      await page.keyboard.type(name);
      await page.keyboard.press('Enter');
    }
    // the list of suggestions closes when the dialog's title is clicked
    await page.locator('.ant-modal-title').click();
    await clickWhenStill(page.getByTestId('tag-dialog-save'));
    const chips = (name: string) => item(name).getByTestId('item-tag');
    await until(
      async () => (await chips('main.ts').allTextContents()).join(',') === 'urgent,复核,q3',
      'the row shows the three tags',
    );
    expect(await chips('site.pem').count()).toBe(0);

    await openFolder('grid');
    // the tile has room for two, and says how many more
    expect(await chips('main.ts').allTextContents()).toEqual(['urgent', '复核']);
    expect(await item('main.ts').getByTestId('item-tags-more').textContent()).toBe('+1');
    expect(await item('main.ts').getByTestId('item-tags-more').getAttribute('title')).toBe('q3');
    // the card names them all
    await hover('main.ts');
    expect(await card().getByTestId('hover-card-tags').textContent()).toBe('urgent, 复核, q3');
    await page.mouse.move(0, 0);
    await saveScreenshot(page, 'tiles-tags-grid-1440-light');
    await openFolder('list');
  });

  step('the grid draws a distinct, larger icon for each family', async () => {
    const families: Record<string, string> = {
      'main.ts': 'code',
      'backup.zip': 'archive',
      'site.pem': 'key',
      'letter.docx': 'word',
      'song.mp3': 'audio',
    };
    // each family its own drawing and colour (rows always show the icon)
    const fills = new Set<string>();
    for (const [name, family] of Object.entries(families)) {
      const icon = item(name).locator('svg.nb-icon');
      expect(await icon.getAttribute('data-kind'), name).toBe(family);
      fills.add((await icon.locator('path').first().getAttribute('fill')) ?? '');
    }
    expect(fills.size).toBe(Object.keys(families).length);
    await openFolder('grid');
    for (const [name, family] of Object.entries(families))
      expect(await item(name).getAttribute('data-kind'), name).toBe(family);
    // a tile without a picture shows its icon large
    for (const name of ['main.ts', 'backup.zip', 'site.pem']) {
      const icon = item(name).locator('svg.nb-icon');
      expect(await icon.getAttribute('data-kind'), name).toBe(families[name]);
      expect(
        await icon.evaluate((svg) => svg.getBoundingClientRect().width),
      ).toBeGreaterThanOrEqual(80);
    }
  });

  step('looks right in both themes, at 1440 and 375 px, in both languages', async () => {
    try {
      for (const lang of ['en_US', 'zh_CN'] as const) {
        if (lang === 'zh_CN') {
          await page.getByTestId('lang-switch').click();
          await page.getByTestId('lang-zh_CN').click();
        }
        for (const theme of ['dark', 'light'] as const) {
          await setTheme(theme);
          await page.setViewportSize(DESKTOP);
          await openFolder('grid');
          expect((await hover('song.mp3')).location).toBe(FOLDER);
          expect(await card().textContent()).toContain(lang === 'zh_CN' ? '修改时间' : 'Modified');
          await saveScreenshot(page, `tiles-grid-1440-${theme}-${lang}`);
          await page.mouse.move(0, 0);
          await page.setViewportSize(PHONE);
          await openFolder('list');
          await item('main.ts').getByTestId('item-tag').first().waitFor();
          await saveScreenshot(page, `tiles-list-375-${theme}-${lang}`);
          await openFolder('grid');
          await item('main.ts').getByTestId('item-tag').first().waitFor();
          // a phone's tile shows its first tag whole beside the "+N"
          expect(
            await item('main.ts')
              .getByTestId('item-tag')
              .first()
              .evaluate((chip) => chip.scrollWidth <= chip.clientWidth),
            'the tag fits its chip',
          ).toBe(true);
          await saveScreenshot(page, `tiles-grid-375-${theme}-${lang}`);
        }
      }
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });
});
