import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startServer, type NimbusServer } from './harness.ts';

// What a browser's first visit costs on the wire, and how long it may keep what it got.

let server: NimbusServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('the first visit', () => {
  it('gets the app brotli-compressed, its hashed files kept for a year, the page asked again', async () => {
    const { context, page } = await openPage(browser, server);
    const answers: Array<{ url: string; encoding?: string; cache?: string; bytes: number }> = [];
    page.on('requestfinished', (request) => {
      void (async () => {
        const response = await request.response();
        if (!response) return;
        const sizes = await request.sizes();
        answers.push({
          url: new URL(request.url()).pathname,
          encoding: response.headers()['content-encoding'],
          cache: response.headers()['cache-control'],
          bytes: sizes.responseBodySize + sizes.responseHeadersSize,
        });
      })();
    });
    await page.goto('/login');
    await page.getByTestId('login-username').waitFor();
    await page.waitForLoadState('networkidle');

    const assets = answers.filter((a) => a.url.startsWith('/assets/'));
    const scripts = assets.filter((a) => /\.(js|css)$/.test(a.url));
    expect(scripts.length).toBeGreaterThan(3);
    for (const a of scripts) {
      // a file under a kilobyte goes as it is: compressing it would not pay
      if (a.bytes > 2048) expect(a.encoding, a.url).toBe('br');
      expect(a.cache, a.url).toBe('public, max-age=31536000, immutable');
    }
    const page1 = answers.find((a) => a.url === '/login');
    expect(page1?.cache).toBe('no-cache');
    expect(page1?.encoding).toBe('br');
    const total = answers.reduce((sum, a) => sum + a.bytes, 0);
    console.log(`first visit of the sign-in page: ${(total / 1024).toFixed(0)} KiB on the wire`);
    expect(total).toBeLessThan(1024 * 1024);

    await context.close();
  });
});
