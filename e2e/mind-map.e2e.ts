import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  DESKTOP,
  launchBrowser,
  openPage,
  PHONE,
  saveScreenshot,
  signInPage,
  startServer,
  until,
  type NimbusServer,
} from './harness.ts';

// A mind map written from nothing as a person does it: made through the New menu, opened, its
// topics typed with the keyboard (a letter on a selected topic, Tab for a child, Enter for a
// sibling, F2 and a double-click to write on), a topic deleted and each step undone and redone,
// one copied and pasted, one dragged to another parent, a note and a link put on topics, saved,
// the page reloaded and the map read back, and the file's content read through the API. The
// editor is a dialog: its own buttons must not take the keys meant for the map. The steps share
// one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const NAME = 'trip.mind';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';

interface KmNode {
  data: { text: string; note?: string; hyperlink?: string };
  children?: KmNode[];
}

const item = () => page.locator(`[data-testid="file-item"][data-name="${NAME}"]`);
const title = () => page.getByTestId('editor-title');
const canvas = () => page.getByTestId('mind-map');
/** A topic on the canvas by its text. */
const topic = (text: string): Locator =>
  canvas()
    .locator('g.smm-node')
    .filter({ has: page.getByText(text, { exact: true }) });
const topics = async () =>
  (await canvas().locator('g.smm-node').allTextContents()).map((t) => t.trim());
/**
 * How the map's drawing and its canvas measure now: each canvas on the page (one is expected),
 * its width on screen and in layout, and the width its drawing takes on screen.
 */
const measureCanvas = () =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-testid="mind-map"]')].map((el) => ({
      drawn: el.querySelector(':scope > svg')?.getBoundingClientRect().width ?? null,
      onScreen: el.getBoundingClientRect().width,
      layout: el.clientWidth,
    })),
  );
/**
 * Waits until the map's drawing is as wide as its canvas (to the pixel), while the map redraws
 * for a new window size. A failure says what was measured last.
 */
async function untilMapFillsCanvas(message: string): Promise<void> {
  let last: Awaited<ReturnType<typeof measureCanvas>> = [];
  try {
    await until(async () => {
      last = await measureCanvas().catch(() => []);
      const [only] = last;
      return last.length === 1 && only!.drawn !== null && Math.abs(only!.drawn - only!.layout) <= 1;
    }, message);
  } catch (error) {
    throw new Error(
      `${(error as Error).message}; measured ${JSON.stringify(last)} at ${page.url()}`,
    );
  }
}
/** The edit box a topic is written in. */
const editBox = () => canvas().locator('.smm-node-edit-wrap');

async function editing(): Promise<void> {
  await until(() => editBox().isVisible(), 'a topic is being written');
  await until(
    () =>
      page.evaluate(
        () => document.activeElement?.classList.contains('smm-node-edit-wrap') === true,
      ),
    'the edit box has the focus',
  );
}

/** Write a topic's text and leave the edit box with Enter. */
async function write(text: string): Promise<void> {
  await editing();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await until(async () => !(await editBox().isVisible()), 'the topic is written');
}

/** Open the map from the file list (a list still settling after a reload may miss a click). */
async function openMap(): Promise<void> {
  await item().waitFor({ state: 'visible' });
  for (let attempt = 0; ; attempt += 1) {
    await item().dblclick();
    try {
      await title().waitFor({ state: 'visible', timeout: 5_000 });
      break;
    } catch (error) {
      if (attempt === 2) throw error;
    }
  }
  await canvas().locator('svg').first().waitFor({ state: 'visible' });
}

async function select(text: string): Promise<void> {
  await topic(text).locator('text').first().click();
}

/** The saved map through the API, as the editor reads it. */
async function savedMap(): Promise<KmNode> {
  const id = await item().getAttribute('data-id');
  const res = await fetch(`${server.baseUrl}/api/markdown/p?fileId=${id}`, {
    headers: { 'nimbus-token': token },
  });
  const envelope = (await res.json()) as { code: number; data: { contentText: string } };
  expect(envelope.code).toBe(0);
  return (JSON.parse(envelope.data.contentText) as { root: KmNode }).root;
}

const outline = (node: KmNode): unknown => ({
  text: node.data.text,
  ...(node.children?.length ? { children: node.children.map(outline) } : {}),
});

const WRITTEN = {
  text: 'Trip',
  children: [
    { text: 'Day one (Mon)', children: [{ text: 'Beach day' }, { text: 'Museum' }] },
    { text: 'Day two', children: [{ text: 'Beach day' }] },
  ],
};

beforeAll(async () => {
  server = await startServer();
  const session = await createAdmin(server, ADMIN);
  token = session.token;
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server));
  // the map's copy and paste go through the system clipboard, as a person's browser allows
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signInPage(page, session);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('a mind map written with the keyboard', () => {
  it('is made through the New menu and opened', async () => {
    await page.getByTestId('new-button').click();
    await page.getByRole('menuitem', { name: 'Mind map' }).click();
    const name = page.locator('.ant-modal input');
    await name.waitFor({ state: 'visible' });
    // the dialog puts its proposed name in as it opens: type ours once it is there
    await until(async () => (await name.inputValue()) !== '', 'the name is proposed');
    await name.fill(NAME);
    await until(async () => (await name.inputValue()) === NAME, 'the name is typed');
    await page.getByTestId('name-dialog-ok').click();
    await until(
      async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
      'the name dialog closes',
    );
    await openMap();
    await until(async () => (await topics()).length === 1, 'the map shows its root');
  });

  it('types three levels: a letter on the root, Tab for children, Enter for siblings', async () => {
    await canvas().locator('g.smm-node text').first().click();
    // a letter typed on a selected topic writes it anew
    await page.keyboard.type('T');
    await write('rip');
    expect(await topics()).toEqual(['Trip']);
    await page.keyboard.press('Tab');
    await write('Day one');
    await page.keyboard.press('Enter');
    await write('Day two');
    await page.keyboard.press('Tab');
    // the letters of the history button's and the file browser's keys land in the topic
    await write('Museum');
    await select('Day one');
    await page.keyboard.press('Tab');
    await write('Beach');
    expect((await topics()).sort()).toEqual(['Beach', 'Day one', 'Day two', 'Museum', 'Trip']);
    expect(await page.locator('.ant-popover:visible').count()).toBe(0);
    // no Enter reached the Save button (the New menu's own message may still be showing)
    expect(
      await page
        .locator('.ant-message-notice')
        .filter({ hasText: /^Saved/ })
        .count(),
    ).toBe(0);
  });

  it('writes on a topic with F2 and with a double-click', async () => {
    await select('Beach');
    await page.keyboard.press('F2');
    await write(' day');
    await topic('Day one').locator('text').first().dblclick();
    await editing();
    await page.keyboard.press('End');
    await write(' (Mon)');
    expect(await topics()).toContain('Beach day');
    expect(await topics()).toContain('Day one (Mon)');
  });

  it('keeps the dialog’s own keys out of a topic being written', async () => {
    await select('Day two');
    await page.keyboard.press('F2');
    await editing();
    // letters, Space and Backspace are the box's, not the history button's, Save's or the
    // file list's behind the dialog
    await page.keyboard.type(' hs x');
    expect(await page.locator('.ant-popover:visible').count()).toBe(0);
    expect(await page.getByTestId('history-list').count()).toBe(0);
    expect(await editBox().textContent()).toBe('Day two hs x');
    for (let i = 0; i < 5; i += 1) await page.keyboard.press('Backspace');
    // Escape ends the edit, keeping the text; the dialog stays
    await page.keyboard.press('Escape');
    await until(async () => !(await editBox().isVisible()), 'the edit ends');
    expect(await topics()).toContain('Day two');
    expect(await title().isVisible()).toBe(true);
    expect(await item().count()).toBe(1);
  });

  it('undoes and redoes each gesture on its own, a Delete undone at once too', async () => {
    await select('Day two');
    await page.keyboard.press('Enter');
    await write('Scratch');
    await select('Scratch');
    // Delete and undo in quick succession, as a person who slipped does
    await page.keyboard.press('Delete');
    await page.keyboard.press('Control+z');
    await until(async () => (await topics()).includes('Scratch'), 'undo brings it back');
    // the next undo takes back the writing, and the one after it the new topic
    await page.keyboard.press('Control+z');
    await until(async () => (await topics()).includes('New topic'), 'undo takes the text back');
    expect(await topics()).not.toContain('Scratch');
    await page.keyboard.press('Control+z');
    await until(async () => !(await topics()).includes('New topic'), 'undo takes the topic back');
    await page.keyboard.press('Control+y');
    await page.keyboard.press('Control+y');
    await until(async () => (await topics()).includes('Scratch'), 'redo writes it again');
    await page.keyboard.press('Control+y');
    await until(async () => !(await topics()).includes('Scratch'), 'redo deletes it again');
    // the file itself is still there behind the dialog, and nothing asked to delete it
    expect(await item().count()).toBe(1);
    expect(await page.locator('.ant-modal-confirm').count()).toBe(0);
  });

  it('copies a topic and pastes it under another', async () => {
    await select('Beach day');
    await page.keyboard.press('Control+c');
    await select('Day two');
    await page.keyboard.press('Control+v');
    await until(
      async () => (await topics()).filter((t) => t === 'Beach day').length === 2,
      'the copy is pasted',
    );
  });

  it('drags a topic onto another to move it there', async () => {
    const centre = async (text: string) => {
      const box = (await topic(text).boundingBox())!;
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    const from = await centre('Museum');
    const to = await centre('Day one (Mon)');
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(to.x, to.y, { steps: 12 });
    // the place it will land shows beside the topic under the pointer, as its child
    const target = (await topic('Day one (Mon)').boundingBox())!;
    await until(async () => {
      const box = await canvas().locator('g.smm-other-container > rect').first().boundingBox();
      return box !== null && box.width > 0 && box.x > target.x + target.width;
    }, 'the topic is shown landing under its new parent');
    await page.mouse.up();
    // the moved topic is laid out beside its new parent (the saved map below proves the parent)
    await until(
      async () => Math.abs((await centre('Museum')).y - from.y) > 5,
      'the topic moves to its new parent',
    );
  });

  it('puts a note and a link on topics', async () => {
    await select('Day one (Mon)');
    await page.getByTestId('mind-note').click();
    await page.getByTestId('mind-field').fill('Bring sunscreen');
    await page.getByTestId('mind-field-ok').click();
    await canvas().locator('.smm-node-note').first().waitFor({ state: 'visible' });
    await select('Museum');
    await page.getByTestId('mind-link').click();
    await page.getByTestId('mind-field').fill('javascript:alert(1)');
    await page.getByTestId('mind-field-ok').click();
    await page.getByText('A link starts with http://, https:// or mailto:').waitFor();
    await page.getByTestId('mind-field').fill('https://museum.example/tickets');
    await page.getByTestId('mind-field-ok').click();
    const link = canvas().locator('.smm-node a').first();
    await link.waitFor({ state: 'visible' });
    expect(
      await link.evaluate(
        (a) => a.getAttribute('href') ?? a.getAttributeNS('http://www.w3.org/1999/xlink', 'href'),
      ),
    ).toBe('https://museum.example/tickets');
  });

  it('saves with Ctrl+S, and the API gives the map back', async () => {
    await until(async () => (await title().textContent()) === `*${NAME}`, 'unsaved');
    await canvas().focus();
    await page.keyboard.press('Control+s');
    await until(async () => (await title().textContent()) === NAME, 'saved');
    const root = await savedMap();
    expect(outline(root)).toEqual(WRITTEN);
    const dayOne = root.children![0]!;
    expect(dayOne.data.note).toBe('Bring sunscreen');
    expect(dayOne.children![1]!.data.hyperlink).toBe('https://museum.example/tickets');
  });

  it('reads the map back after closing and a reload, drawn at the canvas’s full size', async () => {
    await page.getByTestId('editor-close').click();
    await until(
      async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
      'closed',
    );
    await page.reload();
    // the dialog opens slowly (a busy machine): the map is loaded while it still zooms in
    const cdp = await context.newCDPSession(page);
    await cdp.send('Animation.enable');
    await cdp.send('Animation.setPlaybackRate', { playbackRate: 0.1 });
    try {
      await openMap();
      await until(async () => (await topics()).length === 6, 'the map is drawn');
      await untilMapFillsCanvas('the map fills the canvas once the dialog stands');
    } finally {
      await cdp.send('Animation.setPlaybackRate', { playbackRate: 1 });
      await cdp.detach();
    }
    expect((await topics()).sort()).toEqual(
      ['Trip', 'Day one (Mon)', 'Day two', 'Beach day', 'Beach day', 'Museum'].sort(),
    );
  });

  it('looks right at 1440 and 375 px, light and dark', async () => {
    for (const theme of ['light', 'dark'] as const) {
      await page.getByTestId('editor-close').click();
      await until(
        async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
        'the editor closes',
      );
      await page.setViewportSize(DESKTOP);
      await page.getByTestId('theme-switch').click();
      await page.getByTestId(`theme-${theme}`).click();
      for (const [viewport, width] of [
        [DESKTOP, 1440],
        [PHONE, 375],
      ] as const) {
        await page.setViewportSize(viewport);
        // the app takes the home page to its phone address (and back) once it has seen the
        // width, closing what was open over it: the map is opened after that move
        await page.waitForURL((url) =>
          width === 375 ? url.pathname === '/home_m' : url.pathname === '/',
        );
        if (!(await canvas().isVisible())) await openMap();
        // the map follows the window's width
        await untilMapFillsCanvas(`the map is as wide as the canvas at ${width} px`);
        await page.getByTestId('mind-centre').click();
        await select('Trip');
        await page.keyboard.press('F2');
        await editing();
        await saveScreenshot(page, `mind-map-writing-${width}-${theme}`);
        await page.keyboard.press('Escape');
        await until(async () => !(await editBox().isVisible()), 'the edit ends');
      }
    }
  });
});
