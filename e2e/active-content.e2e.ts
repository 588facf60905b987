import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  openPage,
  signInPage,
  startServer,
  until,
  type NimbusServer,
  api,
  closeAll,
} from './harness.ts';

// Files a browser could run, uploaded into a shared folder, opened by their signed-in owner
// through every address that serves bytes: nothing in them runs. Each would, if it ran, mark
// the window and use the owner's token (from local storage) to make a folder through the API.

const ADMIN = { username: 'admin', password: 'admin-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let token = '';
const violations: string[] = [];

/** A script that, if it ever ran on the drive's origin, would act as the signed-in user. */
function payload(tag: string): string {
  return `
    try {
      var store = JSON.parse(localStorage.getItem('store'));
      fetch('/api/new_folder?currentDirectory=%2F&filename=pwned-${tag}', {
        method: 'POST', headers: { 'nimbus-token': store.state.token },
      });
    } catch (e) {}
    window.__pwned = (window.__pwned || []).concat(${JSON.stringify(tag)});
    try { window.top.__pwned = window.__pwned; window.top.document.title = 'pwned'; } catch (e) {}`;
}

const xhtml = (tag: string) => `<?xml version="1.0" encoding="UTF-8"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>x</title></head>
<body><p>diagram</p><script>//<![CDATA[
${payload(tag)}
//]]></script></body></html>`;

const FILES: Record<string, string> = {
  'diagram.drawio': xhtml('drawio'),
  'page.html': `<!DOCTYPE html><html><body><script>${payload('html')}</script></body></html>`,
  'logo.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>//<![CDATA[
${payload('svg')}
//]]></script><rect width="10" height="10"/></svg>`,
  'data.xml': `<?xml version="1.0"?>
<root><h:script xmlns:h="http://www.w3.org/1999/xhtml">//<![CDATA[
${payload('xml')}
//]]></h:script></root>`,
  'page.xhtml': xhtml('xhtml'),
  'notes.txt': `<html><body><img src=x onerror="${payload('txt').replace(/"/g, '&quot;')}"><script>${payload('txt')}</script></body></html>`,
};

/** Whatever opening `url` does (a page, a download, an error), wait for it to settle. */
async function open(url: string): Promise<void> {
  const download = page.waitForEvent('download', { timeout: 10_000 });
  // a page loads; a download aborts the navigation and arrives as a download instead
  const loaded = await page.goto(url, { waitUntil: 'load' }).then(
    () => true,
    () => false,
  );
  const saved = loaded ? null : await download.catch(() => null);
  if (loaded) download.catch(() => undefined);
  await saved?.cancel().catch(() => undefined);
  // time for a script to run and its request to land, had anything run
  await page.waitForTimeout(300);
}

beforeAll(async () => {
  server = await startServer();
  await api(server, 'POST', '/public/initialization', { body: ADMIN });
  const login = await api<{ 'nimbus-token': string; userId: string }>(server, 'POST', '/login', {
    body: { ...ADMIN, rememberMe: true },
  });
  token = login['nimbus-token'];
  await api(server, 'POST', '/new_folder?currentDirectory=%2F&filename=drop', { token });
  browser = await launchBrowser();
  ({ context, page } = await openPage(browser, server, { acceptDownloads: true }));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text()))
      violations.push(`${page.url()}: ${message.text()}`);
  });
  await signInPage(page, { token, userId: login.userId, username: ADMIN.username });
});

afterAll(() => closeAll({ context, browser, server }));

describe('files a browser could run', () => {
  it('uploads them through the web app, which works under its content security policy', async () => {
    await page.goto('/?path=%2Fdrop%2F&vmode=list');
    await page.getByTestId('sidebar').waitFor();
    await page.getByTestId('upload-input-files').setInputFiles(
      Object.entries(FILES).map(([name, text]) => ({
        name,
        mimeType: 'application/octet-stream',
        buffer: Buffer.from(text),
      })),
    );
    await until(async () => {
      const listed = await api<Array<{ name: string }>>(
        server,
        'GET',
        '/list?currentDirectory=%2Fdrop%2F',
        { token },
      ).catch(() => []);
      return listed.length === Object.keys(FILES).length;
    }, 'the uploads land in /drop');
    // the app's own pages, worker and styles ran without a single refusal
    expect(violations).toEqual([]);
  });

  it('runs none of them through any byte route, opened by the signed-in owner', async () => {
    const listed = await api<Array<{ id: string; name: string }>>(
      server,
      'GET',
      '/list?currentDirectory=%2Fdrop%2F',
      { token },
    );
    const root = await api<Array<{ id: string; name: string }>>(server, 'GET', '/list', { token });
    const drop = root.find((i) => i.name === 'drop')!;
    const share = await api<{ shareId: string; shortId: string; extractionCode: string }>(
      server,
      'POST',
      '/share/generate',
      { token, body: { fileId: drop.id, isPrivacy: true } },
    );
    const shareToken = await api<string>(server, 'POST', '/public/valid-share-code', {
      body: { shareId: share.shortId, shareCode: share.extractionCode },
    });
    const q = `shareId=${share.shareId}&share-token=${encodeURIComponent(shareToken)}`;
    const own = `nimbus-token=${encodeURIComponent(token)}`;
    const opened: string[] = [];
    for (const file of listed) {
      const name = encodeURIComponent(file.name);
      const urls = [
        `/api/file/admin/drop/${name}?${own}`,
        `/api/pre-file/${file.id}/${name}?${own}`,
        `/api/share-file/${file.id}/${encodeURIComponent(shareToken)}/${name}`,
        `/api/share-file/${file.id}/${name}?${q}`,
        `/api/public/s/preview/${name}?${q}&fileId=${file.id}`,
      ];
      for (const url of urls) {
        await open(url);
        opened.push(url);
        const ran = await page
          .evaluate(() => (window as { __pwned?: string[] }).__pwned)
          .catch(() => undefined);
        expect(ran, url).toBe(undefined);
      }
    }
    // and framed by the app itself, as a preview would show them: every address at once
    await page.goto('/?path=%2Fdrop%2F');
    await page.getByTestId('sidebar').waitFor();
    await page.evaluate(
      (sources) =>
        Promise.all(
          sources.map(
            (src) =>
              new Promise<void>((resolve) => {
                const frame = document.createElement('iframe');
                frame.onload = () => resolve();
                // an attachment never loads in a frame: it only downloads
                setTimeout(resolve, 3000);
                frame.src = src;
                document.body.appendChild(frame);
              }),
          ),
        ),
      opened,
    );
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as { __pwned?: string[] }).__pwned)).toBe(undefined);
    expect(await page.title()).not.toBe('pwned');
    expect(opened.length).toBe(Object.keys(FILES).length * 5);
    // nothing acted as the owner
    const after = await api<Array<{ name: string }>>(server, 'GET', '/list', { token });
    expect(after.map((i) => i.name).filter((n) => n.startsWith('pwned'))).toEqual([]);
  });

  it('downloads a PDF opened directly from any byte route, so its scripts never run', async () => {
    // a PDF whose opening action is a script: a browser's own PDF viewer would run it
    const pdf = [
      '%PDF-1.4',
      '1 0 obj << /Type /Catalog /Pages 2 0 R /OpenAction 4 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >> endobj',
      '4 0 obj << /S /JavaScript /JS (app.alert("pdf script ran")) >> endobj',
      'trailer << /Root 1 0 R >>',
      '%%EOF',
    ].join('\n');
    await page.goto('/?path=%2Fdrop%2F&vmode=list');
    await page.getByTestId('sidebar').waitFor();
    await page
      .getByTestId('upload-input-files')
      .setInputFiles([
        { name: 'active.pdf', mimeType: 'application/pdf', buffer: Buffer.from(pdf) },
      ]);
    let id = '';
    await until(async () => {
      const listed = await api<Array<{ id: string; name: string }>>(
        server,
        'GET',
        '/list?currentDirectory=%2Fdrop%2F',
        { token },
      ).catch(() => []);
      id = listed.find((i) => i.name === 'active.pdf')?.id ?? '';
      return id !== '';
    }, 'the PDF lands in /drop');
    const root = await api<Array<{ id: string; name: string }>>(server, 'GET', '/list', { token });
    const share = await api<{ shareId: string }>(server, 'POST', '/share/generate', {
      token,
      body: {
        fileId: root.find((i) => i.name === 'drop')!.id,
      },
    });
    const q = `shareId=${share.shareId}`;
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    for (const url of [
      '/api/file/admin/drop/active.pdf',
      `/api/pre-file/${id}/active.pdf`,
      `/api/share-file/${id}/active.pdf?${q}`,
      `/api/public/s/preview/active.pdf?${q}&fileId=${id}`,
      `/api/public/s/download/active.pdf?${q}&fileId=${id}`,
    ]) {
      // an attachment: the browser's own viewer never opens it (asked with the page's cookies)
      const answer = await page.request.get(url);
      expect(answer.headers()['content-disposition'], url).toMatch(/^attachment;/);
      const download = page.waitForEvent('download');
      await page.goto(url).catch(() => undefined);
      const saved = await download;
      expect(saved.suggestedFilename(), url).toBe('active.pdf');
      await saved.cancel().catch(() => undefined);
    }
    expect(dialogs).toEqual([]);
  });

  it('cannot be framed by another site', async () => {
    const other = await context.newPage();
    await other.setContent(`<iframe id="f" src="${server.baseUrl}/" width="800"></iframe>`);
    await other.waitForTimeout(1000);
    const frame = other.frames().find((f) => f !== other.mainFrame());
    // the frame holds an error page, never the app
    const framedApp = await frame
      ?.evaluate(() => document.querySelector('[data-testid="sidebar"], #root') !== null)
      .catch(() => false);
    expect(framedApp ?? false).toBe(false);
    await other.close();
  });
});
