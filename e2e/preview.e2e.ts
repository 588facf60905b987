import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  shareFromRoot,
  openSignedIn,
  closeAll,
} from './harness.ts';

// Opening files as people do: source code highlighted, a text in an old Chinese charset, a big
// log that shows its first screen while the rest streams, an archive browsed and extracted, a
// binary file that offers a download, and an admin's Preview Config sending a suffix to an
// iframe viewer. The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
// a line of Chinese in GBK (a part of GB18030), as older Windows editors save it
const CHINESE =
  '这是一个用来测试字符集检测的中文文本文件。它包含了足够多的常用汉字，以便检测器能够做出可靠的判断。';
const GBK = Buffer.from(
  'd5e2cac7d2bbb8f6d3c3c0b4b2e2cad4d7d6b7fbbcafbcecb2e2b5c4d6d0cec4cec4b1becec4bcfea1a3' +
    'cbfcb0fcbaacc1cbd7e3b9bbb6e0b5c4b3a3d3c3babad7d6a3acd2d4b1e3bcecb2e2c6f7c4dcb9bbd7f6b3f6bfc9bfbfb5c4c5d0b6cfa1a3',
  'hex',
);
const CODE = `// a tiny module
export interface Point {
  x: number;
  y: number;
}

/* the distance
   between two points */
export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}
`;
const LOG_LINES = 400_000;

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let userId = '';

async function tgz(entries: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(entries)) pack.entry({ name }, content);
  pack.finalize();
  const parts: Buffer[] = [];
  for await (const part of pack) parts.push(part);
  return gzipSync(Buffer.concat(parts));
}

/** The files, written into the admin's tree on disk, then indexed. */
async function seed(): Promise<void> {
  const root = path.join(server.dataDir, 'files', ADMIN.username);
  fs.mkdirSync(root, { recursive: true });
  fs.writeFileSync(path.join(root, 'geometry.ts'), CODE);
  fs.writeFileSync(path.join(root, 'chinese.txt'), Buffer.concat([GBK, Buffer.from('\n'), GBK]));
  const log = Array.from({ length: LOG_LINES }, (_, i) => `line ${i + 1} of the big log`);
  fs.writeFileSync(path.join(root, 'big.log'), `${log.join('\n')}\n`);
  fs.writeFileSync(
    path.join(root, 'bundle.tar.gz'),
    await tgz({ 'docs/readme.md': '# hi', 'docs/guide/step.txt': 'one', 'top.json': '{}' }),
  );
  fs.writeFileSync(path.join(root, 'firmware.dat'), Buffer.from([0x7f, 0x45, 0, 1, 0, 2, 3]));
  fs.writeFileSync(path.join(root, 'notes.nfo'), 'a plain note');
  fs.mkdirSync(path.join(root, 'shared'));
  fs.writeFileSync(path.join(root, 'shared', 'letter.txt'), GBK);
  fs.writeFileSync(path.join(root, 'shared', 'code.ts'), CODE);
  fs.writeFileSync(
    path.join(root, 'shared', 'pack.tar.gz'),
    await tgz({ 'a.txt': 'a', 'b/c.txt': 'c' }),
  );
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2F&pageSize=50', {
          token,
        }).catch(() => [])
      ).length >= 6,
    'the files are indexed',
    30_000,
  );
}

const item = (name: string) => page.locator(`[data-testid="file-item"][data-name="${name}"]`);
const textPreview = () => page.getByTestId('text-preview-content');

/** The text editor keeps Escape for itself: its close button closes it. */
async function closeEditor(): Promise<void> {
  await page.getByTestId('editor-close').click();
  await until(
    async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
    'the editor closes',
  );
}

async function closeDialog(): Promise<void> {
  await page.keyboard.press('Escape');
  await until(
    async () => (await page.locator('.ant-modal-wrap:visible').count()) === 0,
    'the dialog closes',
  );
}

beforeAll(async () => {
  server = await startServer();
  const session = await createAdmin(server, ADMIN);
  token = session.token;
  userId = session.userId;
  await seed();
  ({ browser, context, page } = await openSignedIn(server, {
    token,
    userId,
    username: ADMIN.username,
  }));
  await item('geometry.ts').waitFor({ state: 'visible' });
});

afterAll(() => closeAll({ context, browser, server }));

describe('opening files', () => {
  it('opens the owner\u2019s source code in the editor, with line numbers and colours', async () => {
    // the read-only viewer's colours are a share visitor's (below); the owner edits
    await item('geometry.ts').dblclick();
    const editor = page.getByTestId('text-editor-area');
    const colours = editor.locator('pre[data-highlighted="true"]');
    await colours.waitFor({ state: 'visible' });
    expect(await colours.locator('.hljs-comment').first().textContent()).toBe('// a tiny module');
    expect(await colours.locator('.hljs-keyword').first().textContent()).toBe('export');
    // the block comment stays a comment on both its lines
    expect(await colours.locator('.hljs-comment').count()).toBe(3);
    expect(await page.getByTestId('text-editor-input').inputValue()).toBe(CODE);
    await saveScreenshot(page, 'preview-code');
    await closeEditor();
  });

  it('reads a GB18030 text in its own charset', async () => {
    await item('chinese.txt').dblclick();
    const input = page.getByTestId('text-editor-input');
    await until(async () => (await input.inputValue()).includes(CHINESE), 'the Chinese text shows');
    await saveScreenshot(page, 'preview-gb18030');
    await closeEditor();
  });

  it('shows a big log at once and scrolls to its last line', async () => {
    await item('big.log').dblclick();
    await textPreview().getByText('line 1 of the big log', { exact: true }).waitFor();
    await until(
      async () => Number(await textPreview().getAttribute('data-lines')) === LOG_LINES,
      'every line arrived',
      30_000,
    );
    // only what is on screen is drawn
    expect(await textPreview().locator('.nb-code__row').count()).toBeLessThan(200);
    await textPreview().evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await textPreview()
      .getByText(`line ${LOG_LINES} of the big log`, { exact: true })
      .waitFor({ state: 'visible' });
    await closeDialog();
  });

  it('opens a file that is text by its content, whatever its suffix', async () => {
    await item('notes.nfo').dblclick();
    const text = page.getByTestId('text-editor-input');
    await until(async () => (await text.inputValue()).includes('a plain note'), 'the note shows');
    await closeEditor();
  });

  it('offers to download a file it cannot show', async () => {
    await item('firmware.dat').dblclick();
    const dialog = page.getByTestId('no-preview');
    await dialog.waitFor({ state: 'visible' });
    expect(await dialog.textContent()).toContain('firmware.dat');
    await page.getByTestId('no-preview-download').waitFor({ state: 'visible' });
    // the dialog's opening animation ends before the picture is taken
    await page.waitForTimeout(400);
    await saveScreenshot(page, 'preview-none');
    await closeDialog();
  });

  it('browses an archive without extracting it, then extracts it', async () => {
    await item('bundle.tar.gz').dblclick();
    const viewer = page.getByTestId('archive-viewer');
    await viewer.waitFor({ state: 'visible' });
    const entries = () => viewer.getByTestId('archive-entry');
    await until(async () => (await entries().count()) === 2, 'the top of the archive lists');
    expect(await entries().allTextContents()).toEqual([
      expect.stringContaining('docs'),
      expect.stringContaining('top.json'),
    ]);
    await entries().filter({ hasText: 'docs' }).click();
    await until(async () => (await entries().count()) === 2, 'the docs folder lists');
    expect(await entries().first().textContent()).toContain('guide');
    await saveScreenshot(page, 'preview-archive');
    expect(await item('bundle').count()).toBe(0);
    await page.getByTestId('archive-extract').click();
    await item('bundle').waitFor({ state: 'visible' });
    const inside = await api<{ name: string }[]>(
      server,
      'GET',
      '/list?currentDirectory=%2Fbundle%2Fdocs',
      { token },
    );
    expect(inside.map((i) => i.name).sort()).toEqual(['guide', 'readme.md']);
  });

  it('sends a suffix to the iframe viewer the Preview Config names', async () => {
    await api(server, 'PUT', '/cloud/setting/preview/config', {
      token,
      body: {
        iframe: JSON.stringify({ log: { 'Log viewer': '/viewers/log.html?src=$e_url' } }),
      },
    });
    // the config arrives with the user info
    await page.reload();
    await item('big.log').dblclick();
    const frame = page.getByTestId('iframe-viewer');
    await frame.waitFor({ state: 'attached' });
    const src = new URL((await frame.getAttribute('src'))!, server.baseUrl);
    expect(src.pathname).toBe('/viewers/log.html');
    const file = new URL(src.searchParams.get('src')!);
    expect(file.origin).toBe(server.baseUrl);
    expect(file.pathname).toMatch(/^\/api\/pre-file\/[^/]+\/big\.log$/);
    await page.getByTestId('iframe-viewer-close').click();
    // a code file is not in the config: it still opens as code, in the editor
    await item('geometry.ts').dblclick();
    await page.getByTestId('text-editor-input').waitFor({ state: 'visible' });
    await closeEditor();
  });

  it('previews the same way for a visitor of a share, without an account', async () => {
    await shareFromRoot(server, token, 'shared', 'open-letters');
    const guest = await openPage(browser, server);
    const visitor = guest.page;
    const shared = (name: string) =>
      visitor.locator(`[data-testid="file-item"][data-name="${name}"]`);
    try {
      await visitor.goto('/s/open-letters');
      await shared('letter.txt').dblclick();
      const content = visitor.getByTestId('text-preview-content');
      await until(
        async () => ((await content.textContent()) ?? '').includes(CHINESE),
        'the visitor sees the Chinese text',
      );
      expect(await visitor.getByTestId('text-preview-decoder').textContent()).toBe('GB18030');
      await visitor.keyboard.press('Escape');
      await content.waitFor({ state: 'detached' });
      await shared('code.ts').dblclick();
      await until(
        async () => (await content.getAttribute('data-highlighted')) === 'true',
        'the visitor sees the code highlighted',
      );
      await visitor.keyboard.press('Escape');
      await content.waitFor({ state: 'detached' });
      await shared('pack.tar.gz').dblclick();
      const archive = visitor.getByTestId('archive-viewer');
      await until(
        async () => (await archive.getByTestId('archive-entry').count()) === 2,
        'the visitor sees the archive',
      );
      // extracting is the owner's
      expect(await visitor.getByTestId('archive-extract').count()).toBe(0);
      // the dialog's opening animation ends before the picture is taken
      await visitor.waitForTimeout(400);
      await saveScreenshot(visitor, 'preview-share-archive');
    } finally {
      await guest.context.close();
    }
  });
});
