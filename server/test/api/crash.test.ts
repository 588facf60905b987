import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/index.ts';
import { consistencyProblems } from '../consistency.ts';
import { ADMIN, call, makeTestApp, putFile, setupAdmin, type TestApp } from '../harness.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function startServer(t: TestApp, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
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

describe('a server killed mid-operation', () => {
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
      expect(
        await consistencyProblems(t.database.db, t.dataDir, admin.userId, ADMIN.username),
        url,
      ).toEqual([]);
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
      expect(
        await consistencyProblems(t.database.db, t.dataDir, admin.userId, ADMIN.username),
      ).toEqual([]);
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
