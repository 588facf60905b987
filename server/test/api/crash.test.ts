import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { newId } from '../../src/lib/ids.ts';
import type { NewFileRow } from '../../src/modules/files/files.repo.ts';
import { checkDrive } from '../../src/modules/check/check.service.ts';
import { LocalStore } from '../../src/storage/local-store.ts';
import { ADMIN, call, makeTestApp, putFile, setupAdmin, type TestApp } from '../harness.ts';
import { freePort } from '../free-port.ts';
import { ensureServerBuild } from '../../../scripts/build-server.mjs';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

async function startServer(t: TestApp, port: number): Promise<ChildProcess> {
  // the server as users run it: the bundle of these sources (built again when one is newer),
  // which starts in about half the time of compiling them on each start
  const bundle = await ensureServerBuild();
  const child = spawn(process.execPath, ['--enable-source-maps', bundle], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NIMBUS_PORT: String(port),
      NIMBUS_HOST: '127.0.0.1',
      NIMBUS_DATA_DIR: t.dataDir,
      NIMBUS_LOG_LEVEL: 'warn',
      ...(t.config.databaseUrl ? { NIMBUS_DATABASE_URL: t.config.databaseUrl } : {}),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // a busy machine takes a while to compile and start the server: a minute, unless it died
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/public/health`);
      if (res.ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

const procs: ChildProcess[] = [];
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill('SIGKILL');
});

async function killDuring(
  t: TestApp,
  token: string,
  method: string,
  url: string,
  delayMs: number,
): Promise<void> {
  const port = await freePort();
  const server = await startServer(t, port);
  procs.push(server);
  const pending = fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: { 'nimbus-token': token },
  }).catch(() => null);
  await new Promise((r) => setTimeout(r, delayMs));
  server.kill('SIGKILL');
  await new Promise((r) => server.once('exit', r));
  await pending;
}

/**
 * Start the server, send a request on a selection and kill the server once `midway` says its
 * disk work is under way (some items moved, not all).
 */
async function killMidway(
  t: TestApp,
  token: string,
  method: string,
  url: string,
  body: unknown,
  midway: () => boolean,
): Promise<void> {
  const port = await freePort();
  const server = await startServer(t, port);
  procs.push(server);
  const pending = fetch(`http://127.0.0.1:${port}/api${url}`, {
    method,
    headers: { 'nimbus-token': token, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).catch(() => null);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && !midway()) await new Promise((r) => setTimeout(r, 2));
  server.kill('SIGKILL');
  await new Promise((r) => server.once('exit', r));
  await pending;
}

/** `count` files of 10 bytes in the folder `/<folder>/`, straight into the disk and the rows. */
async function seedFiles(
  t: TestApp,
  userId: string,
  username: string,
  folder: string,
  count: number,
) {
  const { files, db } = t.app.services;
  const parent = await files.resolveFolder(userId, `/${folder}`);
  const dir = path.join(t.dataDir, 'files', username, folder);
  const now = Date.now();
  const rows: NewFileRow[] = [];
  for (let i = 0; i < count; i++) {
    const name = `f${i}.txt`;
    fs.writeFileSync(path.join(dir, name), '0123456789');
    rows.push({
      id: newId(),
      userId,
      parentId: parent.id,
      name,
      path: parent.prefix,
      isFolder: 0,
      size: 10,
      contentType: 'text/plain',
      suffix: 'txt',
      fileType: 'document',
      hash: null,
      uploadDate: now,
      updateDate: now,
      isFavorite: 0,
      media: null,
      childrenCount: 0,
      trashId: null,
      trashedAt: null,
    });
  }
  await db.transaction().execute(async (trx) => {
    await files.repo.insertMany(rows, trx);
    await files.repo.update(parent.id, { childrenCount: count, size: 10 * count }, trx);
    await files.repo.adjustUsed(userId, 10 * count, trx);
  });
  return rows.map((r) => r.id);
}

/** What `npm run check` finds on the whole drive (every user, a sample of hashes, the journal). */
async function checkFinds(t: TestApp): Promise<string[]> {
  const report = await checkDrive(t.database.db, new LocalStore(t.dataDir));
  return report.findings.map((f) => `${f.kind}: ${f.user} ${f.item} (${f.detail})`);
}

const entriesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir).length : 0);

describe('a server killed mid-operation', () => {
  it('comes back with disk and database agreeing after a trash and a move of 10,000 items', async () => {
    let t = await makeTestApp();
    const admin = await setupAdmin(t.app);
    for (const name of ['many', 'target'])
      await call(t.app, 'POST', '/new_folder', {
        token: admin.token,
        query: { filename: name, currentDirectory: '/' },
      });
    const ids = await seedFiles(t, admin.userId, ADMIN.username, 'many', 10_000);
    const target = (
      await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', { token: admin.token })
    ).body.data!.find((i) => i.name === 'target')!;
    await t.close();
    const trashDir = path.join(t.dataDir, 'trash', ADMIN.username);
    const targetDir = path.join(t.dataDir, 'files', ADMIN.username, 'target');

    const steps = [
      ['DELETE', '/delete', { fileIds: ids }, () => entriesIn(trashDir) >= 100],
      ['POST', '/move', { froms: ids, to: target.id }, () => entriesIn(targetDir) >= 100],
    ] as const;
    for (const [method, url, body, midway] of steps) {
      if (url === '/move') {
        // the trash killed midway may have finished before the kill: the items come back first
        t = await makeTestApp({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
        const actor = (await t.app.services.auth.actorFor(admin.userId))!;
        const entries = await t.database.db
          .selectFrom('file')
          .select('id')
          .where('userId', '=', admin.userId)
          .whereRef('trashId', '=', 'id')
          .execute();
        if (entries.length > 0)
          await t.app.services.trash.restore(
            actor,
            entries.map((e) => e.id),
          );
        await t.close();
      }
      await killMidway(t, admin.token, method, url, body, midway);
      t = await makeTestApp({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
      expect(await checkFinds(t), url).toEqual([]);
      // every item is where it was, or all of them where the operation put them
      const rows = await t.database.db
        .selectFrom('file')
        .select(['path', 'trashId'])
        .where('userId', '=', admin.userId)
        .where('isFolder', '=', 0)
        .execute();
      expect(rows).toHaveLength(10_000);
      expect(new Set(rows.map((r) => `${r.path} ${r.trashId === null}`)).size, url).toBe(1);
      await t.close();
    }
  }, 120_000);

  it('comes back with disk and database agreeing after a large copy, delete and restore', async () => {
    let t = await makeTestApp();
    const admin = await setupAdmin(t.app);
    const owner = { userId: admin.userId, username: ADMIN.username };
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'big', currentDirectory: '/' },
    });
    const payload = Buffer.alloc(256 * 1024, 7);
    for (let i = 0; i < 400; i++) {
      if (i % 100 === 0)
        await call(t.app, 'POST', '/new_folder', {
          token: admin.token,
          query: { filename: `d${i}`, currentDirectory: '/big' },
        });
      await putFile(t, owner, `/big/d${i - (i % 100)}`, `f${i}.bin`, payload);
    }
    const big = (
      await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', { token: admin.token })
    ).body.data!.find((i) => i.name === 'big')!;
    await t.close();

    for (const [method, url, delay] of [
      ['GET', `/copy?froms=${big.id}&to=0`, 150],
      ['GET', `/copy?froms=${big.id}&to=0`, 400],
      ['DELETE', `/delete?fileIds=${big.id}`, 5],
    ] as const) {
      await killDuring(t, admin.token, method, url, delay);
      // restart: the app rolls back whatever the crash interrupted
      t = await makeTestApp({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
      expect(await checkFinds(t), url).toEqual([]);
      await t.close();
    }

    // restore from the trash, killed part-way, then finished after the restart
    const db = openDatabase(t.config);
    const trashed = await db.db
      .selectFrom('file')
      .select('id')
      .where('id', '=', big.id)
      .where('trashId', '=', big.id)
      .executeTakeFirst();
    await db.close();
    if (trashed) {
      await killDuring(t, admin.token, 'POST', `/restore?fileIds=${big.id}`, 5);
      t = await makeTestApp({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
      expect(await checkFinds(t)).toEqual([]);
      await t.close();
    }
    // nothing of the original was lost
    t = await makeTestApp({ dataDir: t.dataDir, databaseUrl: t.config.databaseUrl });
    const originals = await t.database.db
      .selectFrom('file')
      .select(['id'])
      .where('path', 'like', '/big/%')
      .where('userId', '=', admin.userId)
      .execute();
    expect(originals.length).toBeGreaterThanOrEqual(404);
    expect(fs.existsSync(t.dataDir)).toBe(true);
    await t.close();
  }, 120_000);
});
