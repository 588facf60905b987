import { describe, expect, it } from 'vitest';
import { READINESS_TIMEOUT_MS } from '../../src/modules/health/readiness.ts';
import { dialect, useAdminApp } from '../harness.ts';

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
