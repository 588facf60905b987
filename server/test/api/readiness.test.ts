import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { EarlyServer } from '../../src/early-server.ts';
import { READINESS_TIMEOUT_MS } from '../../src/modules/health/readiness.ts';
import { databaseAt, dialect, useAdminApp } from '../harness.ts';

// Liveness (/public/health) and readiness (/public/ready) answer promptly, whatever the
// database does.

const { t } = useAdminApp({ once: true });

/** Hold every connection of the app's database until `release` is called: a stuck database. */
async function holdDatabase(): Promise<() => Promise<void>> {
  // SQLite has one connection; PostgreSQL's pool has ten
  const count = dialect === 'sqlite' ? 1 : 10;
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  let held = 0;
  let allHeld!: () => void;
  const holding = new Promise<void>((r) => (allHeld = r));
  const holders = Array.from({ length: count }, () =>
    t.database.db.connection().execute(async () => {
      if (++held === count) allHeld();
      await gate;
    }),
  );
  await holding;
  return async () => {
    release();
    await Promise.all(holders);
  };
}

describe('/api/public/health', () => {
  it('answers 503 within its timeout while the database does not answer, and ok after', async () => {
    const release = await holdDatabase();
    try {
      const started = Date.now();
      const res = await t.app.inject({ method: 'GET', url: '/api/public/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ message: expect.stringContaining('database') });
      expect(Date.now() - started).toBeLessThan(READINESS_TIMEOUT_MS + 1500);
    } finally {
      await release();
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/public/health' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('ok');
  });
});

describe('while the database is migrated at start', () => {
  it('listens at once: ready says 503 "migrating", every other route 503, then all serve', async () => {
    // a database as the first release left it: the rest of the migrations run at start
    const { database, dataDir, url } = await databaseAt('001-accounts');
    await database.close();
    const early = new EarlyServer();
    const port = await early.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}/api`;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let atMigrations!: () => void;
    const migrating = new Promise<void>((r) => (atMigrations = r));
    const building = buildApp({
      config: testConfig({ dataDir, databaseUrl: url }),
      early,
      logger: false,
      beforeMigrations: async () => {
        atMigrations();
        await held;
      },
    });
    let app: FastifyInstance | undefined;
    try {
      await migrating;
      const ready = await fetch(`${base}/public/ready`);
      expect(ready.status).toBe(503);
      expect(ready.headers.get('retry-after')).toBe('5');
      expect(await ready.json()).toEqual({
        code: 11,
        message: expect.stringContaining('migrated') as unknown,
        data: { notReady: ['migrating'] },
      });
      for (const path of ['/public/health', '/user/info', '/file/list']) {
        const res = await fetch(`${base}${path}`, { method: 'POST', body: '{}' });
        expect(res.status, path).toBe(503);
        expect(((await res.json()) as { message: string }).message).toContain('starting');
      }
      release();
      app = await building;
      await early.handOver(app);
      const after = await fetch(`${base}/public/ready`);
      expect(after.status).toBe(200);
      expect((await fetch(`${base}/public/health`)).status).toBe(200);
      expect((await fetch(`${base}/user/info`)).status).toBe(401);
    } finally {
      release();
      await early.close(app ?? (await building.catch(() => undefined)));
    }
  });
});
