import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { zipToBuffer } from '../server/src/lib/zip.ts';
import {
  clickWhenStill,
  DESKTOP,
  PHONE,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  openSignedIn,
} from './harness.ts';
import { storySteps } from './steps.ts';

// Search and tags in a real browser against a real server: documents uploaded with the
// uploader, searched in Chinese and in English from the top bar (results while typing, the
// results page with highlights and a snippet, recent searches), a result opened in its folder,
// a file tagged from its menu, browsed by tag, and the tags managed (rules, order, delete).
// The steps share one page and run in order.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let tmp: string;
let token = '';

async function found(keyword: string): Promise<string[]> {
  const hits = await api<Array<{ name: string }>>(
    server,
    'GET',
    `/search-file?searchOverall=true&quick=true&keyword=${encodeURIComponent(keyword)}`,
    { token },
  );
  return hits.map((h) => h.name).sort();
}

const item = (name: string): Locator =>
  page.locator(`[data-testid="file-item"][data-name="${name}"]`);
const result = (name: string): Locator =>
  page.locator(`[data-testid="search-result"][data-name="${name}"]`);

const step = storySteps({ prefix: 'search', page: () => page });

async function typeSearch(text: string): Promise<void> {
  const box = page.getByTestId('search-input');
  await box.click();
  await box.fill(text);
}

async function toast(text: string): Promise<void> {
  await page.locator('.ant-message-notice', { hasText: text }).first().waitFor();
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-search-e2e-'));
  server = await startServer();
  await api(server, 'POST', '/public/initialization', { token, body: ADMIN });
  const login = await api<{ 'nimbus-token': string; userId: string }>(server, 'POST', '/login', {
    token,
    body: {
      ...ADMIN,
      rememberMe: true,
    },
  });
  token = login['nimbus-token'];
  ({ browser, context, page } = await openSignedIn(server, {
    token: token,
    userId: login.userId,
    username: ADMIN.username,
  }));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe('search and tags', () => {
  step('uploads documents, and their text is indexed', async () => {
    const files: string[] = [];
    const write = (name: string, content: Buffer | string) => {
      const file = path.join(tmp, name);
      fs.writeFileSync(file, content);
      files.push(file);
    };
    write(
      '会议纪要.txt',
      '本周会议讨论了第三季度预算和招聘计划。\nThe budget review is due on Friday.\n',
    );
    write('Quarterly Report.md', '# Quarterly report\n\nRevenue grew in every region.\n');
    write(
      '产品路线图.docx',
      await zipToBuffer([
        {
          name: 'word/document.xml',
          content:
            '<?xml version="1.0"?><w:document xmlns:w="w"><w:body><w:p><w:r><w:t>下一代产品将支持离线同步 offline sync</w:t></w:r></w:p></w:body></w:document>',
        },
      ]),
    );
    write('notes.txt', 'grocery list: apples, tea\n');
    await page.getByTestId('upload-input-files').setInputFiles(files);
    await until(
      async () => (await item('notes.txt').count()) > 0,
      'the uploads are listed',
      60_000,
    );
    await until(
      async () =>
        (await found('预算')).includes('会议纪要.txt') &&
        (await found('离线同步')).includes('产品路线图.docx'),
      'the text of the uploads is searchable',
      60_000,
    );
  });

  step(
    'shows results while typing Chinese, then the results page with highlights and a snippet',
    async () => {
      await typeSearch('预算');
      const quick = page.getByTestId('search-quick-item');
      await until(async () => (await quick.count()) > 0, 'results while typing');
      expect(await quick.first().textContent()).toContain('会议纪要.txt');
      await saveScreenshot(page, 'search-typing');
      await page.getByTestId('search-input').press('Enter');
      await page.waitForURL((url) => url.searchParams.get('keyword') === '预算');
      await result('会议纪要.txt').waitFor();
      expect(await result('会议纪要.txt').getAttribute('data-matched')).toBe('content');
      const snippet = result('会议纪要.txt').getByTestId('search-result-snippet');
      expect(await snippet.textContent()).toContain('第三季度预算');
      expect(await snippet.locator('mark').first().textContent()).toBe('预算');
      await saveScreenshot(page, 'search-results-chinese');
    },
  );

  step('searches in English: a name match ranks above content matches', async () => {
    await typeSearch('report');
    await page.getByTestId('search-input').press('Enter');
    await page.waitForURL((url) => url.searchParams.get('keyword') === 'report');
    await result('Quarterly Report.md').waitFor();
    const names = await page
      .getByTestId('search-result')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-name')));
    expect(names[0]).toBe('Quarterly Report.md');
    expect(await result('Quarterly Report.md').locator('mark').first().textContent()).toBe(
      'Report',
    );
    // a one-character Chinese search finds text inside a Word document
    await typeSearch('离');
    await page.getByTestId('search-input').press('Enter');
    await result('产品路线图.docx').waitFor();
  });

  step('offers recent searches, and forgets one', async () => {
    await page.getByTestId('search-input').fill('');
    await page.getByTestId('search-input').click();
    const history = page.getByTestId('search-history-item');
    await until(async () => (await history.count()) >= 3, 'three recent searches');
    const keywords = await history.allTextContents();
    expect(keywords.slice(0, 3)).toEqual(['离', 'report', '预算']);
    await saveScreenshot(page, 'search-history');
    await history.nth(1).hover();
    await history.nth(1).getByTestId('search-history-delete').click();
    await until(async () => (await history.count()) === 2, 'one recent search forgotten');
    expect(await history.allTextContents()).toEqual(['离', '预算']);
    await page.keyboard.press('Escape');
  });

  step(
    'opens the filter panel alone, and a type picked by clicking narrows the results',
    async () => {
      await api(server, 'POST', '/new_folder?filename=report%20archive&currentDirectory=%2F', {
        token,
        body: {},
      });
      await typeSearch('report');
      await page.getByTestId('search-panel').waitFor();
      // the filter icon closes the suggestions and opens only the filters
      await page.getByTestId('search-options-button').click();
      await page.getByTestId('search-options').waitFor();
      await until(
        async () => (await page.getByTestId('search-panel').count()) === 0,
        'no recent searches over the filters',
      );
      await page.getByTestId('search-option-type').click();
      await page.locator('.ant-select-item-option', { hasText: 'Documents' }).click();
      await until(
        async () => (await page.getByTestId('search-panel').count()) === 0,
        'still no recent searches over the filters',
      );
      await saveScreenshot(page, 'search-filters-1440-light');
      await page.getByTestId('search-option-apply').click();
      await page.waitForURL((url) => url.searchParams.get('type') === 'document');
      await result('Quarterly Report.md').waitFor();
      expect(await page.getByTestId('search-result').count()).toBe(1);
      await page.getByTestId('search-options-button').click();
      await page.getByTestId('search-option-reset').click();
      await page.getByTestId('search-option-apply').click();
      await until(() => new URL(page.url()).searchParams.get('type') === null, 'no type filter');
      await result('report archive').waitFor();
    },
  );

  step('finds a name by any part: inside a word, one letter', async () => {
    await typeSearch('port');
    await page.getByTestId('search-input').press('Enter');
    await page.waitForURL((url) => url.searchParams.get('keyword') === 'port');
    await result('Quarterly Report.md').waitFor();
    await result('report archive').waitFor();
    await saveScreenshot(page, 'search-results-1440-light');
  });

  step('shows the results on a phone, by Enter and by "See all results"', async () => {
    await page.setViewportSize(PHONE);
    try {
      await page.goto('/');
      await page.waitForURL((url) => url.pathname === '/home_m');
      await typeSearch('report');
      await page.getByTestId('search-input').press('Enter');
      await until(
        () => new URL(page.url()).searchParams.get('keyword') === 'report',
        'the results of "report" in the address',
      );
      await result('Quarterly Report.md').waitFor();
      await result('report archive').waitFor();
      expect(await page.getByTestId('search-input').inputValue()).toBe('report');
      await saveScreenshot(page, 'search-results-375-light');
      await typeSearch('notes');
      // the row stays put once the results while typing are in
      await page.getByTestId('search-quick-item').filter({ hasText: 'notes.txt' }).waitFor();
      await page.getByTestId('search-see-all').click();
      await until(
        () => new URL(page.url()).searchParams.get('keyword') === 'notes',
        'the results of "notes" in the address',
      );
      await result('notes.txt').waitFor();
      expect(await page.getByTestId('search-input').inputValue()).toBe('notes');
      await page.getByTestId('search-options-button').click();
      await page.getByTestId('search-options').waitFor();
      expect(await page.getByTestId('search-panel').count()).toBe(0);
      await saveScreenshot(page, 'search-filters-375-light');
      await page.keyboard.press('Escape');
      for (const theme of ['dark', 'light'] as const) {
        await page.getByTestId('theme-switch').click();
        await page.getByTestId(`theme-${theme}`).click();
        await until(
          async () =>
            (await page.evaluate(() => document.documentElement.dataset.theme ?? '')) === theme ||
            theme === 'light',
          `the ${theme} theme`,
        );
        if (theme === 'dark') {
          await saveScreenshot(page, 'search-results-375-dark');
          await page.setViewportSize(DESKTOP);
          await result('notes.txt').waitFor();
          await saveScreenshot(page, 'search-results-1440-dark');
          await page.setViewportSize(PHONE);
        }
      }
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  step('narrows a search with the options: type, whole drive, content only', async () => {
    await typeSearch('budget');
    await page.getByTestId('search-options-button').click();
    await page.getByTestId('search-options').waitFor();
    await page.getByTestId('search-option-name').click();
    await page.getByTestId('search-option-tag').click();
    await saveScreenshot(page, 'search-options');
    await page.getByTestId('search-option-apply').click();
    await page.waitForURL((url) => url.searchParams.get('keyword') === 'budget');
    await result('会议纪要.txt').waitFor();
    expect(new URL(page.url()).searchParams.get('name')).toBe('0');
    expect(await page.getByTestId('search-result').count()).toBe(1);
    // back to the defaults for what follows
    await page.getByTestId('search-options-button').click();
    await page.getByTestId('search-option-reset').click();
    await page.getByTestId('search-option-apply').click();
    await until(() => new URL(page.url()).searchParams.get('name') === null, 'defaults again');
  });

  step("opens a result's folder with the file highlighted", async () => {
    await result('会议纪要.txt').getByTestId('search-result-location').click();
    await page.waitForURL((url) => url.searchParams.get('highlight') === '会议纪要.txt');
    await page.getByTestId('files-view').waitFor();
    await until(
      async () => (await item('会议纪要.txt').getAttribute('aria-selected')) === 'true',
      'the result is selected in its folder',
    );
    await saveScreenshot(page, 'search-opened-in-folder');
  });

  step('tags a file from its menu, creating the tag on the way', async () => {
    await item('产品路线图.docx').click({ button: 'right' });
    await page.getByTestId('action-tags').click();
    await page.getByTestId('tag-dialog-body').waitFor();
    const select = page.getByTestId('tag-dialog-select');
    await select.click();
    // a name against the rules is refused at once
    await page.keyboard.type('bad*name');
    await page.keyboard.press('Enter');
    await page.getByTestId('tag-dialog-error').waitFor();
    expect(await page.getByTestId('tag-dialog-error').textContent()).toContain(
      '[ ] / \\ " < > ? *',
    );
    await select
      .locator('.ant-tag', { hasText: 'bad*name' })
      .locator('.ant-tag-close-icon')
      .click();
    await until(
      async () => (await page.getByTestId('tag-dialog-error').count()) === 0,
      'the error goes',
    );
    await page.keyboard.type('重要项目');
    await page.keyboard.press('Enter');
    await saveScreenshot(page, 'tags-dialog');
    await page.getByTestId('tag-dialog-save').click();
    await toast('Tags saved');
    // the sidebar lists the tag now
    await page.getByTestId('sidebar-tags').getByText('重要项目').waitFor();
  });

  step('shows the tags in the details drawer', async () => {
    await item('产品路线图.docx').click({ button: 'right' });
    await page.getByTestId('action-details').click();
    await page.getByTestId('details-tags').getByText('重要项目').waitFor();
    await saveScreenshot(page, 'tags-details');
    await page.locator('.nb-details-root .ant-drawer-close').click();
    await page.getByTestId('details-drawer').waitFor({ state: 'hidden' });
  });

  step('browses by tag from the sidebar', async () => {
    await page.getByTestId('sidebar-tags').getByText('重要项目').click();
    await page.waitForURL((url) => url.pathname === '/tag' && url.searchParams.has('tagId'));
    // the folder shown before may linger a moment after the address changes
    await until(
      async () =>
        (await page.getByTestId('file-item').count()) === 1 &&
        (await item('产品路线图.docx').count()) === 1,
      'the tag view lists only the tagged file',
    );
    await saveScreenshot(page, 'tags-browse');
    // the tag name is searchable too
    await typeSearch('重要');
    await page.getByTestId('search-input').press('Enter');
    await result('产品路线图.docx').waitFor();
    expect(await result('产品路线图.docx').getAttribute('data-matched')).toBe('tag');
  });

  step('manages tags: rules on blur and save, colour, drag ordering, delete', async () => {
    await page.goto('/tag');
    await page.getByTestId('tags-page').waitFor();
    await page.getByTestId('tag-add').click();
    const name = page.getByTestId('tag-name-input');
    await name.fill('   ');
    await name.blur();
    expect(await page.getByTestId('tag-name-error').textContent()).toBe('Enter a tag name');
    await name.fill('a/b');
    await page.getByTestId('tag-save').click();
    expect(await page.getByTestId('tag-name-error').textContent()).toContain('cannot contain');
    await name.fill('旅行');
    await page.getByTestId('tag-save').click();
    await toast('Added');
    await page.getByTestId('tag-add').click();
    await page.getByTestId('tag-name-input').fill('Work');
    await page.getByTestId('tag-name-input').press('Enter');
    await until(async () => (await page.getByTestId('tag-row').count()) === 3, 'three tags');
    const order = () =>
      page
        .getByTestId('tag-row')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-tag')));
    expect(await order()).toEqual(['重要项目', '旅行', 'Work']);

    // drag the last tag to the top
    await page
      .locator('[data-testid="tag-row"][data-tag="Work"]')
      .dragTo(page.locator('[data-testid="tag-row"][data-tag="重要项目"]'));
    await toast('Tag order updated');
    await until(async () => (await order())[0] === 'Work', 'Work first');
    expect(await order()).toEqual(['Work', '重要项目', '旅行']);
    const saved = await api<Array<{ name: string }>>(server, 'GET', '/tag/list', { token });
    expect(saved.map((tag) => tag.name)).toEqual(['Work', '重要项目', '旅行']);
    await saveScreenshot(page, 'tags-manage');

    // rename
    await page.locator('[data-testid="tag-row"][data-tag="旅行"]').getByTestId('tag-edit').click();
    await page.getByTestId('tag-name-input').fill('旅行计划');
    await page.getByTestId('tag-save').click();
    await toast('Modified');
    await page.locator('[data-testid="tag-row"][data-tag="旅行计划"]').waitFor();

    // delete asks first, with the tag's name in the title
    await page
      .locator('[data-testid="tag-row"][data-tag="Work"]')
      .getByTestId('tag-delete')
      .click();
    const dialog = page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    expect(await dialog.locator('.ant-modal-confirm-title').textContent()).toContain('Work');
    expect(await dialog.textContent()).toContain('This will permanently delete the tag, continue?');
    await clickWhenStill(page.getByTestId('tag-delete-confirm'));
    await toast('Deleted');
    await until(async () => (await page.getByTestId('tag-row').count()) === 2, 'two tags left');
  });

  step('shows the OCR settings', async () => {
    await page.goto('/setting/cloudManager');
    // the tab must be there: a page without it fails here instead of passing unseen
    await page.getByRole('tab', { name: /OCR/ }).click();
    await page.getByTestId('ocr-enable').waitFor();
    const engines = page.getByTestId('ocr-engines');
    await engines.waitFor();
    // each engine is named with whether this server has it
    const told = await engines.innerText();
    expect(told).toMatch(/Tesseract \(program\)\s*(not )?installed/);
    expect(told).toMatch(/Tesseract\.js \(built in\)\s*(not )?installed/);
    expect(told).toMatch(/PDF text \(poppler\)\s*(not )?installed/);
    await saveScreenshot(page, 'ocr-settings');
  });

  step('works in Chinese too', async () => {
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-zh_CN').click();
    await page.goto(`/?keyword=${encodeURIComponent('会议')}&overall=1`);
    await result('会议纪要.txt').waitFor();
    expect(await page.getByTestId('search-results-title').textContent()).toBe('搜索：会议');
    await saveScreenshot(page, 'search-results-zh');
  });
});
