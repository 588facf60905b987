import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAdmin,
  PHONE,
  openPage,
  saveScreenshot,
  startServer,
  until,
  type NimbusServer,
  api,
  shareFromRoot,
  openSignedIn,
} from './harness.ts';

// Documents as people open them: a Word file converted by LibreOffice and read in the bundled
// PDF viewer, a PDF paged and searched, an EPUB paginated, the same Word file from a share by a
// visitor without an account, and the viewer pages refusing addresses of other sites. The
// documents are made by LibreOffice when the test starts.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const WORD_TEXT = 'Quarterly report of the Nimbus team';

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
let userId = '';
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-docs-e2e-'));

/** LibreOffice turns a file into another type; answers the new file. */
function convert(source: string, to: string): string {
  execFileSync(
    'soffice',
    [
      `-env:UserInstallation=file://${work}/profile`,
      '--headless',
      '--norestore',
      '--convert-to',
      to,
      '--outdir',
      work,
      source,
    ],
    { stdio: 'ignore', env: { ...process.env, HOME: work } },
  );
  return source.replace(/\.[^.]+$/, `.${to.split(':')[0]}`);
}

/** A document of the given type made from a little HTML (EPUB by way of ODT: Writer/Web has no EPUB export). */
function makeDocument(name: string, html: string, to: string): string {
  const source = path.join(work, `${name}.html`);
  fs.writeFileSync(source, `<html><head><meta charset="utf-8"></head><body>${html}</body></html>`);
  return to === 'epub' ? convert(convert(source, 'odt'), 'epub') : convert(source, to);
}

async function seed(): Promise<void> {
  const root = path.join(server.dataDir, 'files', ADMIN.username);
  fs.mkdirSync(root, { recursive: true });
  const word = makeDocument(
    'report',
    `<h1>${WORD_TEXT}</h1><p>Revenue grew in every region.</p>`,
    'docx:MS Word 2007 XML',
  );
  fs.copyFileSync(word, path.join(root, 'report.docx'));
  const pages = ['First page of the manual', 'Second page about the lighthouse'];
  const pdf = makeDocument(
    'manual',
    pages.map((p, i) => `<h1 style="${i ? 'page-break-before: always' : ''}">${p}</h1>`).join(''),
    'pdf',
  );
  fs.copyFileSync(pdf, path.join(root, 'manual.pdf'));
  const epub = makeDocument(
    'story',
    '<h1>Chapter one</h1><p>It was a quiet morning in the valley of clouds.</p>',
    'epub',
  );
  fs.copyFileSync(epub, path.join(root, 'story.epub'));
  await api(server, 'GET', '/user/setting/sync?path=%2F', { token });
  await until(
    async () =>
      (
        await api<{ name: string }[]>(server, 'GET', '/list?currentDirectory=%2F&pageSize=50', {
          token,
        }).catch(() => [])
      ).length >= 3,
    'the documents are indexed',
    30_000,
  );
}

const item = (p: Page, name: string) => p.locator(`[data-testid="file-item"][data-name="${name}"]`);

/** The text pdf.js laid over the pages of the viewer in `frame`. */
async function pdfShows(
  frame: { locator: (selector: string) => Locator },
  text: string,
  what: string,
): Promise<void> {
  await until(
    async () =>
      (
        await frame
          .locator('.textLayer')
          .allTextContents()
          .catch(() => [])
      )
        .join(' ')
        .includes(text),
    what,
    60_000,
  );
}

async function closeDialog(p: Page): Promise<void> {
  await p.keyboard.press('Escape');
  await until(
    async () => (await p.locator('.ant-modal-wrap:visible').count()) === 0,
    'the viewer closes',
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
  await item(page, 'report.docx').waitFor({ state: 'visible' });
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('documents', () => {
  it('shows a Word document as the PDF LibreOffice made of it', async () => {
    await item(page, 'report.docx').dblclick();
    const frame = page.getByTestId('document-viewer');
    await frame.waitFor({ state: 'attached' });
    const src = new URL((await frame.getAttribute('src'))!, server.baseUrl);
    expect(src.pathname).toBe('/pdf.js/web/viewer.html');
    expect(new URL(src.searchParams.get('file')!).pathname).toBe('/api/preview/office');
    const viewer = page.frameLocator('[data-testid="document-viewer"]');
    await pdfShows(viewer, WORD_TEXT, 'the document\u2019s text shows');
    expect(await viewer.getByTestId('pdf-pages').textContent()).toBe('of 1');
    await saveScreenshot(page, 'documents-word');
    await closeDialog(page);
  });

  it('shows the first page of a document as its tile in the grid', async () => {
    await page.goto('/?vmode=grid');
    const img = item(page, 'report.docx').locator('img.nb-thumb');
    await until(
      async () =>
        (await img.count()) > 0 &&
        (await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)) > 0,
      'the document\u2019s tile shows its first page',
      60_000,
    );
    expect(new URL((await img.getAttribute('src'))!, server.baseUrl).pathname).toBe(
      '/api/view/thumbnail',
    );
    await saveScreenshot(page, 'documents-grid');
    await page.goto('/?vmode=list');
    await item(page, 'report.docx').waitFor({ state: 'visible' });
  });

  it('pages through a PDF and finds a word in it', async () => {
    await item(page, 'manual.pdf').dblclick();
    // the Preview Config's built-in: pdf → the bundled PDF viewer page
    const frame = page.getByTestId('iframe-viewer');
    await frame.waitFor({ state: 'attached' });
    expect(new URL((await frame.getAttribute('src'))!, server.baseUrl).pathname).toBe(
      '/pdf.js/web/viewer.html',
    );
    const viewer = page.frameLocator('[data-testid="iframe-viewer"]');
    await pdfShows(viewer, 'First page of the manual', 'the first page shows');
    expect(await viewer.getByTestId('pdf-pages').textContent()).toBe('of 2');
    await viewer.getByTestId('pdf-next').click();
    await until(
      async () => (await viewer.getByTestId('pdf-page').inputValue()) === '2',
      'the second page is current',
    );
    await viewer.getByTestId('pdf-find').fill('lighthouse');
    await viewer.locator('.textLayer .highlight').first().waitFor({ state: 'visible' });
    await saveScreenshot(page, 'documents-pdf');
    await page.getByTestId('iframe-viewer-close').click();
  });

  it('reads an EPUB page by page', async () => {
    await item(page, 'story.epub').dblclick();
    const viewer = page.frameLocator('[data-testid="iframe-viewer"]');
    const book = viewer.frameLocator('[data-testid="epub-viewer"] iframe');
    await book.getByText('It was a quiet morning in the valley of clouds.').waitFor({
      state: 'visible',
      timeout: 30_000,
    });
    // the book's pages run no scripts: epub.js sandboxes them
    const sandbox = await viewer
      .locator('[data-testid="epub-viewer"] iframe')
      .getAttribute('sandbox');
    expect(sandbox).toBe('allow-same-origin');
    await saveScreenshot(page, 'documents-epub');
    await page.getByTestId('iframe-viewer-close').click();
  });

  it('opens PDFs in the bundled viewer when the Preview Config maps them to nothing', async () => {
    await api(server, 'PUT', '/cloud/setting/preview/config', {
      token,
      body: { iframe: JSON.stringify({}) },
    });
    await page.reload();
    await item(page, 'manual.pdf').dblclick();
    const viewer = page.frameLocator('[data-testid="document-viewer"]');
    await pdfShows(viewer, 'First page of the manual', 'the PDF shows in the document viewer');
    await closeDialog(page);
  });

  it('shows a share\u2019s visitor the Word document without an account', async () => {
    const report = await shareFromRoot(server, token, 'report.docx', 'report');
    const visitor = await openPage(browser, server);
    try {
      // the share page lists it for someone without an account
      await visitor.page.goto('/s/report');
      await item(visitor.page, 'report.docx').waitFor({ state: 'visible' });
      // and the PDF viewer page shows it through the share's own address
      const file = `/api/public/s/preview/office?shareId=report&id=${report.id}`;
      await visitor.page.goto(
        `/pdf.js/web/viewer.html?file=${encodeURIComponent(`${server.baseUrl}${file}`)}`,
      );
      await pdfShows(visitor.page, WORD_TEXT, 'the visitor sees the document');
      await saveScreenshot(visitor.page, 'documents-share-word');
    } finally {
      await visitor.context.close();
    }
  });

  it('fits a phone: the PDF viewer keeps its page controls and drops the rest', async () => {
    const phone = await openPage(browser, server, { viewport: PHONE, hasTouch: true });
    try {
      const listed = await api<{ id: string; name: string }[]>(
        server,
        'GET',
        '/list?currentDirectory=%2F',
        { token },
      );
      const manual = listed.find((entry) => entry.name === 'manual.pdf')!;
      const file = `${server.baseUrl}/api/pre-file/${manual.id}/manual.pdf?nimbus-token=${token}`;
      await phone.page.goto(`/pdf.js/web/viewer.html?file=${encodeURIComponent(file)}`);
      await pdfShows(phone.page, 'First page of the manual', 'the PDF shows on a phone');
      expect(await phone.page.getByTestId('pdf-next').isVisible()).toBe(true);
      expect(await phone.page.getByTestId('pdf-find').isVisible()).toBe(false);
      await saveScreenshot(phone.page, 'documents-pdf-phone');
    } finally {
      await phone.context.close();
    }
  });

  it('edits a Word document in OnlyOffice when a document server is configured', async () => {
    const secret = 'document-server-secret';
    const edited = fs.readFileSync(
      makeDocument('edited', '<h1>Edited in OnlyOffice</h1>', 'docx:MS Word 2007 XML'),
    );
    // a stand-in document server: its editor script shows the configuration it was given
    const asked: string[] = [];
    const docServer = http.createServer((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      if (req.url === '/web-apps/apps/api/documents/api.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' });
        res.end(
          'window.DocsAPI={DocEditor:function(id,config){var e=document.getElementById(id);' +
            'e.setAttribute("data-testid","fake-editor");e.textContent=JSON.stringify(config);' +
            'var calls=[];window.__doc={config:config,calls:calls};' +
            'this.refreshHistory=function(d){calls.push(["refreshHistory",d]);};' +
            'this.setHistoryData=function(d){calls.push(["setHistoryData",d]);};}};',
        );
      } else if (req.url === '/cache/files/edited.docx') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(edited);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => docServer.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(docServer.address() as AddressInfo).port}`;
    try {
      await api(server, 'PUT', '/office/config', {
        token,
        body: {
          documentServer: origin,
          secret,
          callbackServer: `${server.baseUrl}/api`,
        },
      });
      await page.reload();
      await item(page, 'report.docx').dblclick();
      const editor = page
        .frameLocator('[data-testid="onlyoffice-viewer"]')
        .getByTestId('fake-editor');
      await editor.waitFor({ state: 'attached' });
      const config = JSON.parse((await editor.textContent())!) as {
        token: string;
        document: { key: string; url: string; fileType: string; title: string };
        documentType: string;
        editorConfig: { callbackUrl: string; user: { name: string } };
        events?: unknown;
      };
      expect(config.document).toMatchObject({ fileType: 'docx', title: 'report.docx' });
      expect(config.documentType).toBe('word');
      expect(config.editorConfig.user.name).toBe(ADMIN.username);
      // no session token rides in what the document server is given: its addresses are signed
      // for this file and this user only
      expect(JSON.stringify(config)).not.toContain(token);
      expect(JSON.stringify(config)).not.toContain('nimbus-token');
      // the server signed exactly this configuration with the secret
      const [head, body, signature] = config.token.split('.');
      expect(createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')).toBe(
        signature,
      );
      // the history panel's events are functions, outside what is signed
      const { token: _token, events: _events, ...unsigned } = config;
      expect(JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'))).toEqual(unsigned);
      await saveScreenshot(page, 'documents-onlyoffice');

      // what the document server does next: fetch the document, then call back with the edit
      const original = await fetch(config.document.url);
      expect(original.status).toBe(200);
      const originalBytes = Buffer.from(await original.arrayBuffer());
      const callback = {
        key: config.document.key,
        status: 2,
        url: `${origin}/cache/files/edited.docx`,
        users: ['u1'],
        actions: [{ type: 0, userid: 'u1' }],
      };
      const signed = `${head}.${Buffer.from(JSON.stringify(callback)).toString('base64url')}`;
      const answer = await fetch(config.editorConfig.callbackUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...callback,
          token: `${signed}.${createHmac('sha256', secret).update(signed).digest('base64url')}`,
        }),
      });
      expect(await answer.json()).toEqual({ error: 0 });
      expect(asked).toContain('GET /cache/files/edited.docx');
      const now = await fetch(`${server.baseUrl}/api/file/${ADMIN.username}/report.docx`, {
        headers: { 'nimbus-token': token },
      });
      expect(Buffer.from(await now.arrayBuffer()).equals(edited)).toBe(true);

      // the editor's history panel: the versions, and the one before the edit shown from its
      // own signed address
      const frame = page.frames().find((f) => f.url().includes('/resource/onlyoffice/'))!;
      type Calls = [string, Record<string, unknown>][];
      const calls = () =>
        frame.evaluate(() => (window as unknown as { __doc: { calls: Calls } }).__doc.calls);
      type Events = Record<string, (event?: unknown) => void>;
      const fire = (name: string, event?: unknown) =>
        frame.evaluate(
          ([n, e]) =>
            (window as unknown as { __doc: { config: { events: Events } } }).__doc.config.events[
              n
            ]!(e),
          [name, event] as const,
        );
      await fire('onRequestHistory');
      await until(async () => (await calls()).length === 1, 'the history is listed');
      const [[listed, list]] = (await calls()) as [
        [string, { currentVersion: number; history: unknown[] }],
      ];
      expect(listed).toBe('refreshHistory');
      expect(list.currentVersion).toBe(2);
      expect(list.history).toHaveLength(2);
      await fire('onRequestHistoryData', { data: 1 });
      await until(async () => (await calls()).length === 2, 'the version is given');
      const [shown, data] = (await calls())[1]!;
      expect(shown).toBe('setHistoryData');
      const { token: versionToken, ...versionData } = data as { token: string; url: string };
      expect(versionData).toMatchObject({ fileType: 'docx', version: 1 });
      const [vHead, vBody, vSignature] = versionToken.split('.');
      expect(createHmac('sha256', secret).update(`${vHead}.${vBody}`).digest('base64url')).toBe(
        vSignature,
      );
      expect(JSON.parse(Buffer.from(vBody!, 'base64url').toString('utf8'))).toEqual(versionData);
      const kept = await fetch(versionData.url);
      expect(Buffer.from(await kept.arrayBuffer()).equals(originalBytes)).toBe(true);
      await closeDialog(page);
    } finally {
      await new Promise<void>((resolve) => docServer.close(() => resolve()));
    }
  });

  it('the viewer pages open files of this drive only', async () => {
    for (const address of [
      '/pdf.js/web/viewer.html?file=https%3A%2F%2Fexample.com%2Fa.pdf',
      '/resource/epubjs/viewer.html?url=%2Fassets%2Findex.js',
    ]) {
      const requests: string[] = [];
      page.on('request', (r) => requests.push(r.url()));
      const response = await page.goto(address);
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
      await page.getByTestId('doc-status').getByText('only opens files of this drive').waitFor();
      expect(requests.filter((u) => !u.startsWith(server.baseUrl))).toEqual([]);
      page.removeAllListeners('request');
    }
  });
});
