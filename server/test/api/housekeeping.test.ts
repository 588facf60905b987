import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_CACHE_SWEEP } from '../../src/modules/cache/cache.jobs.ts';
import { JOB_RETENTION } from '../../src/modules/retention/retention.jobs.ts';
import { JOB_UPLOAD_CLEANUP } from '../../src/modules/upload/upload.jobs.ts';
import { makeTestApp, type TestApp } from '../harness.ts';

// The housekeeping a node schedules as it starts (abandoned uploads, the caches, retention) is
// one job of each kind however many nodes share the database: a second node, or a restart,
// finds the job already waiting and adds none.

const HOUSEKEEPING = [JOB_UPLOAD_CLEANUP, JOB_CACHE_SWEEP, JOB_RETENTION];

describe('the housekeeping two nodes schedule', () => {
  let a: TestApp;
  let b: TestApp;

  beforeAll(async () => {
    a = await makeTestApp();
    b = await makeTestApp({ dataDir: a.dataDir, databaseUrl: a.config.databaseUrl });
    await a.app.ready();
    await b.app.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('is one waiting job of each kind', async () => {
    const rows = await a.database.db
      .selectFrom('job')
      .select(['type', 'state'])
      .where('type', 'in', HOUSEKEEPING)
      .execute();
    for (const type of HOUSEKEEPING) {
      expect(
        rows.filter((row) => row.type === type && row.state === 'queued'),
        type,
      ).toHaveLength(1);
    }
  });
});
