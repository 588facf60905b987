import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_MENUS, USER_ROLE, USER_ROLE_MENUS } from '@nimbus/contract';
import { startServer, until, type NimbusServer, api, openSignedIn } from './harness.ts';

// The web app offers only what the user's role may do: an action whose authority the role lacks
// is not in the context menu at all (the server would refuse it anyway, see
// server/test/api/authorities.test.ts).

const ADMIN = { username: 'admin', password: 'admin-secret-1' };
const USER = { username: 'carol', password: 'carol-secret-1' };

let server: NimbusServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let adminToken = '';

const login = (who: { username: string; password: string }) =>
  api<{ 'nimbus-token': string; userId: string }>(server, 'POST', '/login', { body: who });

/** The user role with every menu except those granting `authority`. */
async function narrowUserRole(authority: string | null): Promise<void> {
  const menuIds = USER_ROLE_MENUS.filter(
    (id) => SEED_MENUS.find((m) => m.id === id)?.authority !== authority,
  );
  await api(server, 'PUT', '/role/update', {
    token: adminToken,
    body: { id: USER_ROLE.id, menuIds },
  });
}

/** The ids of the actions the context menu of `name` offers. */
async function offeredFor(name: string): Promise<string[]> {
  await page.keyboard.press('Escape');
  const row = page.locator(`[data-testid="file-item"][data-name="${name}"]`);
  await row.waitFor({ state: 'visible' });
  await row.click({ button: 'right' });
  const items = page.locator('[data-testid^="action-"]:visible');
  // read in the same breath as the check: a menu that re-renders (the role's authorities
  // arriving after the reload) may be empty for a moment between two looks
  let ids: string[] = [];
  await until(async () => {
    ids = await items.evaluateAll((nodes) =>
      nodes.map((n) => (n.getAttribute('data-testid') ?? '').replace(/^action-/, '')),
    );
    return ids.length > 0;
  }, 'the context menu opens');
  await page.keyboard.press('Escape');
  return ids;
}

/** Reload so the app reads the user's menus and authorities again. */
async function reopen(): Promise<void> {
  await page.reload();
  await page.getByTestId('sidebar').waitFor({ state: 'visible' });
}

beforeAll(async () => {
  server = await startServer();
  await api(server, 'POST', '/public/initialization', { body: ADMIN });
  adminToken = (await login(ADMIN))['nimbus-token'];
  await api(server, 'POST', '/user/add', {
    token: adminToken,
    body: { ...USER, quota: 1 },
  });
  const session = await login(USER);
  await api(server, 'POST', '/addfile', {
    token: session['nimbus-token'],
    query: { fileName: 'notes.txt' },
  });
  await api(server, 'POST', '/addfile', {
    token: session['nimbus-token'],
    query: { fileName: 'plan.md' },
  });
  ({ browser, context, page } = await openSignedIn(server, {
    token: session['nimbus-token'],
    userId: session.userId,
    username: USER.username,
  }));
});

afterAll(async () => {
  await context?.close();
  await browser?.close();
  await narrowUserRole(null).catch(() => undefined);
  await server?.stop();
});

describe('actions follow the role', () => {
  it('hides delete, rename, download and share when the role loses them', async () => {
    const all = await offeredFor('notes.txt');
    for (const id of ['delete', 'rename', 'download', 'share']) expect(all, id).toContain(id);

    const cases: Array<[string, string[]]> = [
      ['cloud:file:delete', ['delete']],
      ['cloud:file:update', ['rename']],
      ['cloud:file:download', ['download']],
      ['cloud:file:share', ['share']],
    ];
    for (const [authority, hidden] of cases) {
      await narrowUserRole(authority);
      await reopen();
      const offered = await offeredFor('notes.txt');
      for (const id of hidden) expect(offered, `${authority}: ${id}`).not.toContain(id);
      // the rest stays
      expect(offered.length, authority).toBeGreaterThan(0);
      await narrowUserRole(null);
    }
    await reopen();
    expect(await offeredFor('notes.txt')).toEqual(all);
  });
});

describe('without downloads, files are previewed only', () => {
  it('opens a document with no download button and no history, and with both when allowed', async () => {
    const open = async () => {
      await page.keyboard.press('Escape');
      await page.locator('[data-testid="file-item"][data-name="plan.md"]').dblclick();
      await page.getByTestId('editor-title').waitFor({ state: 'visible' });
    };
    const close = async () => {
      await page.getByTestId('editor-close').click();
      await page.getByTestId('editor-title').waitFor({ state: 'hidden' });
    };
    const download = () => page.locator('.nb-editor').getByRole('button', { name: 'Download' });

    await narrowUserRole('cloud:file:download');
    await reopen();
    await open();
    expect(await page.getByTestId('editor-title').textContent()).toBe('plan.md');
    expect(await page.getByTestId('history-button').count()).toBe(0);
    expect(await download().count()).toBe(0);
    await close();

    await narrowUserRole(null);
    await reopen();
    await open();
    await page.getByTestId('history-button').waitFor({ state: 'visible' });
    expect(await download().count()).toBe(1);
    await close();
  });
});

describe('without the right to write, texts are read only', () => {
  it('opens a text in the viewer, not the editor, and in the editor again when allowed', async () => {
    const notes = page.locator('[data-testid="file-item"][data-name="notes.txt"]');
    await narrowUserRole('cloud:file:upload');
    await reopen();
    await notes.dblclick();
    await page.getByTestId('text-preview').waitFor({ state: 'visible' });
    expect(await page.getByTestId('text-editor-input').count()).toBe(0);
    await page.keyboard.press('Escape');
    await page.getByTestId('text-preview').waitFor({ state: 'detached' });

    await narrowUserRole(null);
    await reopen();
    await notes.dblclick();
    await page.getByTestId('text-editor-input').waitFor({ state: 'visible' });
    await page.getByTestId('editor-close').click();
    await page.getByTestId('text-editor-input').waitFor({ state: 'detached' });
  });
});
