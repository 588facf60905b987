import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, startServer, type NimbusServer } from './harness.ts';
import { recordWire } from './wire.ts';

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
  it.each(['en-US', 'zh-CN'])(
    'gets the app brotli-compressed, its hashed files kept for a year, the page asked again (%s)',
    async (locale) => {
      const { context, page } = await openPage(browser, server, { locale });
      const wire = await recordWire(page);
      // the scripts' text: antd's style engine names its <style> marks in its code
      const scriptTexts: Array<Promise<{ url: string; text: string }>> = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script')
          scriptTexts.push(
            response.text().then(
              (text) => ({ url: new URL(response.url()).pathname, text }),
              () => ({ url: response.url(), text: '' }),
            ),
          );
      });
      await page.goto('/login');
      await page.getByTestId('login-username').waitFor();
      await page.waitForLoadState('networkidle');
      const answers = wire.answers();

      // the sign-in page is drawn without Ant Design: none of its code, none of its styles
      const scriptBodies = await Promise.all(scriptTexts);
      expect(scriptBodies.length).toBeGreaterThan(2);
      const withAntd = scriptBodies
        .filter(({ text }) => /data-css-hash|data-rc-order|data-token-hash/.test(text))
        .map(({ url }) => url);
      expect(withAntd, "scripts carrying antd's style engine").toEqual([]);
      const antdStyles = await page.evaluate(
        () =>
          document.querySelectorAll(
            'style[data-css-hash], style[data-rc-order], [class^="ant-"], [class*=" ant-"]',
          ).length,
      );
      expect(antdStyles, 'antd styles or antd-classed elements on the page').toBe(0);

      const assets = answers.filter((a) => a.url.startsWith('/assets/'));
      const scripts = assets.filter((a) => /\.(js|css)$/.test(a.url));
      expect(scripts.length).toBeGreaterThan(3);
      for (const a of scripts) {
        // a file under a kilobyte goes as it is: compressing it would not pay
        if (a.bytes > 2048) expect(a.encoding, a.url).toBe('br');
        expect(a.cache, a.url).toBe('public, max-age=31536000, immutable');
      }
      // the page's two questions leave with the scripts (preloaded), and are asked once
      const asked = await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .filter((e) => /\/api\/public\/(has_user|website\/record)$/.test(e.name))
          .map(
            (e) => `${new URL(e.name).pathname} ${(e as PerformanceResourceTiming).initiatorType}`,
          )
          .sort(),
      );
      expect(asked).toEqual(['/api/public/has_user link', '/api/public/website/record link']);
      const page1 = answers.find((a) => a.url === '/login');
      expect(page1?.cache).toBe('no-cache');
      expect(page1?.encoding).toBe('br');
      const total = wire.total();
      console.log(
        `first visit of the sign-in page, ${locale}: ${(total / 1000).toFixed(0)} kB on the wire;`,
        [...answers]
          .sort((x, y) => y.bytes - x.bytes)
          .slice(0, 8)
          .map((a) => `${a.url} ${(a.bytes / 1000).toFixed(1)} kB`)
          .join(', '),
      );
      // the drive, the share pages, the editors and viewers (and their texts) come when first
      // opened: a Chinese first visit carries only the sign-in page's Chinese
      expect(total).toBeLessThan(300_000);

      await context.close();
    },
  );

  it('loads the language menu when first asked, by pointer or keyboard, and turns the page Chinese', async () => {
    const { context, page } = await openPage(browser, server);
    await page.goto('/login');
    await page.getByTestId('login-username').waitFor();
    // a keyboard user: the theme button keeps the focus while its menu's code arrives
    await page.getByTestId('theme-switch').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('theme-dark').waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('theme-switch');
    await page.keyboard.press('Escape');
    // a pointer user: the language menu opens on the first click and Chinese loads with it
    await page.getByTestId('lang-switch').click();
    await page.getByTestId('lang-zh_CN').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
    await page.getByRole('button', { name: '登录' }).waitFor();
    // the choice is remembered: the next visit starts in Chinese with no English on screen
    await page.reload();
    await page.getByRole('button', { name: '登录' }).waitFor();
    expect(await page.locator('body').innerText()).not.toMatch(/Log in|Username|Password/);
    await context.close();
  });
});
