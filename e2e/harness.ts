import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild } from '../scripts/build-server.mjs';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';
import { leash } from '../server/test/leash.ts';
import { freePort } from '../server/test/free-port.ts';

export const repoRoot = path.resolve(import.meta.dirname, '..');
export const screenshotDir = path.join(import.meta.dirname, 'screenshots');

/** A Nimbus server process of its own: fresh data folder, SQLite, a free port. */
export interface NimbusServer {
  baseUrl: string;
  dataDir: string;
  pid: number;
  /** What the server printed so far (shown when something goes wrong). */
  output(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return true;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Start the real server (the bundle `npm start` runs) and wait until
 * /api/public/health answers. It serves the built web app (web/dist unless NIMBUS_WEB_DIR says
 * otherwise), so build it first.
 */
export async function startServer(extraEnv: Record<string, string> = {}): Promise<NimbusServer> {
  const webDir = process.env.NIMBUS_WEB_DIR ?? path.join(repoRoot, 'web', 'dist');
  if (!fs.existsSync(path.join(webDir, 'index.html'))) {
    throw new Error(`no web app at ${webDir}: run \`npm run build -w web\` first`);
  }
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NIMBUS_PORT: String(port),
    NIMBUS_HOST: '127.0.0.1',
    NIMBUS_DATA_DIR: dataDir,
    NIMBUS_LOG_LEVEL: process.env.NIMBUS_LOG_LEVEL ?? 'warn',
    ...extraEnv,
  };
  // SQLite in the fresh folder, whatever the surrounding shell points at.
  if (!('NIMBUS_DATABASE_URL' in extraEnv)) delete env.NIMBUS_DATABASE_URL;

  const bundle = await ensureServerBuild();
  const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
    cwd: repoRoot,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (child.pid) leash(child.pid);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const baseUrl = `http://127.0.0.1:${port}`;
  const server: NimbusServer = {
    baseUrl,
    dataDir,
    pid: child.pid ?? -1,
    output: () => output,
    async stop() {
      if (!exited(child)) {
        child.kill('SIGTERM');
        if (!(await waitForExit(child, 10_000))) {
          child.kill('SIGKILL');
          await waitForExit(child, 5_000);
        }
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };

  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (exited(child)) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      throw new Error(`the server exited before it was ready:\n${output}`);
    }
    try {
      const res = await fetch(`${baseUrl}/api/public/health`, {
        signal: AbortSignal.timeout(2000),
      });
      if (res.ok) return server;
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  await server.stop();
  throw new Error(`the server did not answer /api/public/health within 60 s:\n${output}`);
}

/** Debian's Chromium (or CHROMIUM_PATH), headless, without the background chatter. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
    ],
  });
}

export const DESKTOP = { width: 1440, height: 900 } as const;
export const PHONE = { width: 375, height: 812 } as const;

/** A fresh browser context (its own storage) on the server, in English and light mode. */
export async function openPage(
  browser: Browser,
  server: NimbusServer,
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    viewport: DESKTOP,
    locale: 'en-US',
    colorScheme: 'light',
    ...options,
  });
  // generous: a loaded two-core machine can take seconds to open a lazily loaded editor
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Sign the page in with a session made through the API, as the web app keeps it (its persisted
 * store in localStorage), and open the home page.
 */
export async function signInPage(
  page: Page,
  session: { token: string; userId: string; username: string },
): Promise<void> {
  await page.goto('/login');
  await page.evaluate(({ token, userId, username }) => {
    localStorage.setItem(
      'store',
      JSON.stringify({
        state: {
          token,
          userId,
          username,
          shareToken: '',
          shareId: '',
          theme: 'light',
          fileClipboard: [],
          message: '',
        },
        version: 1,
      }),
    );
  }, session);
  // signed in now: the app takes /login to the home page by itself
  await page.reload();
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByTestId('sidebar').waitFor({ state: 'visible' });
}

/** A browser with one page signed in as `session`, on the home page: a story's starting point. */
export async function openSignedIn(
  server: NimbusServer,
  session: { token: string; userId: string; username: string },
  options: BrowserContextOptions = {},
): Promise<{ browser: Browser; context: BrowserContext; page: Page }> {
  const browser = await launchBrowser();
  try {
    const { context, page } = await openPage(browser, server, options);
    await signInPage(page, session);
    return { browser, context, page };
  } catch (error) {
    await browser.close(); // nobody else holds it yet
    throw error;
  }
}

/** Closes what a test file opened, whatever of it was opened: the page's context, the browser, the server. */
export async function closeAll(opened: {
  context?: BrowserContext;
  browser?: Browser;
  server?: NimbusServer;
}): Promise<void> {
  await opened.context?.close();
  await opened.browser?.close();
  await opened.server?.stop();
}

/** A session of the API: its token, and whose it is. */
export interface ApiSession {
  token: string;
  userId: string;
  username: string;
}

/** An answer of the API: its envelope. */
export interface ApiAnswer<T> {
  code: number;
  message: string;
  data: T;
}

/** What one call of the API sends: whose session, the query, a JSON body. */
export interface ApiOptions {
  token?: string;
  query?: Record<string, string | string[]>;
  body?: unknown;
}

/** One call of the server's API, answered with its envelope whatever its code. */
export async function apiAnswer<T = unknown>(
  server: NimbusServer,
  method: string,
  url: string,
  { token, query = {}, body }: ApiOptions = {},
): Promise<ApiAnswer<T>> {
  const address = new URL(`${server.baseUrl}/api${url}`);
  for (const [key, value] of Object.entries(query)) {
    for (const v of Array.isArray(value) ? value : [value]) address.searchParams.append(key, v);
  }
  const res = await fetch(address, {
    method,
    headers: {
      ...(token ? { 'nimbus-token': token } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await res.json()) as ApiAnswer<T>;
}

/** One call of the API that must succeed: its data; any other code fails with the message. */
export async function api<T = unknown>(
  server: NimbusServer,
  method: string,
  url: string,
  options: ApiOptions = {},
): Promise<T> {
  const answer = await apiAnswer<T>(server, method, url, options);
  if (answer.code !== 0) throw new Error(`${method} ${url}: ${answer.code} ${answer.message}`);
  return answer.data;
}

/**
 * Shares an item at the top of the signed-in user's drive under `shortId` as a public link (no
 * code), the way the share dialog does: the visitor's side of a feature is then one address away.
 * Answers the item shared.
 */
export async function shareFromRoot(
  server: NimbusServer,
  token: string,
  name: string,
  shortId: string,
): Promise<{ id: string; name: string; isFolder: boolean }> {
  const listed = await api<Array<{ id: string; name: string; isFolder: boolean }>>(
    server,
    'GET',
    '/list?currentDirectory=%2F',
    { token },
  );
  const item = listed.find((entry) => entry.name === name);
  if (!item) throw new Error(`no ${name} at the top of the drive to share`);
  await api(server, 'POST', '/share/generate', {
    token,
    body: { fileId: item.id, isFolder: item.isFolder, isPrivacy: false, shortId },
  });
  return item;
}
/** The first visit's administrator made on a fresh server, and a remembered session of theirs. */
export async function createAdmin(
  server: NimbusServer,
  who: { username: string; password: string },
): Promise<ApiSession> {
  await api(server, 'POST', '/public/initialization', { body: who });
  const session = await api<{ 'nimbus-token': string; userId: string }>(server, 'POST', '/login', {
    body: { ...who, rememberMe: true },
  });
  return { token: session['nimbus-token'], userId: session.userId, username: who.username };
}

/** Save a full-page screenshot as e2e/screenshots/<name>.png and return its path. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  return file;
}

/**
 * Clicks an element once it stands still: no animation runs on it or on an element around it.
 * A dialog's button or a menu's item is drawn while it zooms or slides in; on a busy machine a
 * click aimed at it then can land beside it, and is lost.
 */
export async function clickWhenStill(target: Locator, timeout?: number): Promise<void> {
  await target.waitFor({ state: 'visible', timeout });
  await target.evaluate(async (element) => {
    const moving = () =>
      document.getAnimations().some((animation) => {
        const on = (animation.effect as KeyframeEffect | null)?.target;
        return animation.playState === 'running' && on instanceof Node && on.contains(element);
      });
    const deadline = Date.now() + 10_000;
    while (moving() && Date.now() < deadline)
      await new Promise((resolve) => requestAnimationFrame(resolve));
  });
  await target.click({ timeout });
}

/** Poll until `check` returns true; fail with `message` after `timeoutMs`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  message: string,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`timed out: ${message}`);
    await sleep(100);
  }
}

/**
 * Waits until nothing on the page runs off its side: after a viewport change the app swaps in its
 * phone (or desktop) layout once it has seen the new width. Fails naming `what` and the overflow.
 */
export async function untilFitsWidth(page: Page, what: string, timeoutMs = 10_000): Promise<void> {
  const overflow = () =>
    page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const px = await overflow();
    if (px <= 0) return;
    if (Date.now() > deadline) throw new Error(`${what} runs ${px} px beyond the side`);
    await sleep(100);
  }
}

/**
 * The relative luminance (0 black … 1 white) of the page background: the first of body and
 * html whose computed background colour is not transparent.
 */
export async function backgroundLuminance(page: Page): Promise<number> {
  const color = await page.evaluate(() => {
    for (const element of [document.body, document.documentElement]) {
      const value = getComputedStyle(element).backgroundColor;
      if (value && value !== 'transparent' && !/rgba\(.*,\s*0\)$/.test(value)) return value;
    }
    return 'rgb(255, 255, 255)';
  });
  const channels = color
    .match(/[\d.]+/g)
    ?.slice(0, 3)
    .map(Number) ?? [255, 255, 255];
  const [r, g, b] = channels.map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
