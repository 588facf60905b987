import type { ChildProcess } from 'node:child_process';
import { ErrorCode } from '@nimbus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { call, makeTestApp, setupAdmin, type TestApp } from '../harness.ts';
import { haveRedis, startRedis, stopRedis } from '../redis-server.ts';

// NIMBUS_ROLE splits one installation into nodes that serve people (web) and nodes that run the
// background jobs (worker), sharing one database and one Redis.

describe('NIMBUS_ROLE', () => {
  it('is all by default, and a split role is refused without a shared PostgreSQL and Redis', () => {
    expect(loadConfig({}).role).toBe('all');
    const pg = 'postgres://nimbus@127.0.0.1:5432/nimbus';
    const redis = 'redis://127.0.0.1:6379';
    expect(
      loadConfig({ NIMBUS_ROLE: 'web', NIMBUS_DATABASE_URL: pg, NIMBUS_REDIS_URL: redis }).role,
    ).toBe('web');
    for (const env of [
      { NIMBUS_ROLE: 'web' },
      { NIMBUS_ROLE: 'worker', NIMBUS_DATABASE_URL: pg },
      { NIMBUS_ROLE: 'worker', NIMBUS_REDIS_URL: redis },
    ])
      expect(() => loadConfig(env), JSON.stringify(env)).toThrow(
        /NIMBUS_ROLE: (web|worker) needs NIMBUS_DATABASE_URL \(PostgreSQL\) and NIMBUS_REDIS_URL/,
      );
    expect(() => loadConfig({ NIMBUS_ROLE: 'both' })).toThrow(/NIMBUS_ROLE/);
  });
});

describe.skipIf(!haveRedis)('a web node and a worker node sharing one database and Redis', () => {
  let redis: { process: ChildProcess; url: string };
  let web: TestApp;
  let worker: TestApp | undefined;
  let admin: { token: string };

  beforeAll(async () => {
    redis = await startRedis();
    web = await makeTestApp({ redisUrl: redis.url, role: 'web' });
    await web.app.ready();
    admin = await setupAdmin(web.app);
  });
  afterAll(async () => {
    await worker?.close();
    await web?.close();
    if (redis) await stopRedis(redis.process);
  });

  it('queues a task on the web node and runs it on the worker node, which serves nothing else', async () => {
    const started = await call<{ taskId: string }>(
      web.app,
      'GET',
      '/cloud/setting/recalculateFolderSize',
      { token: admin.token },
    );
    expect(started.body.code, started.body.message).toBe(0);
    const taskId = started.body.data!.taskId;
    // the web node runs no job: the task waits for a worker
    await expect(web.app.services.jobs.waitFor(taskId, 1500)).rejects.toThrow(/state queued/);

    worker = await makeTestApp({
      redisUrl: redis.url,
      role: 'worker',
      dataDir: web.dataDir,
      databaseUrl: web.config.databaseUrl,
    });
    await worker.app.ready();
    const done = await web.app.services.jobs.waitFor(taskId, 30_000);
    expect(done.state).toBe('done');

    // people's requests are refused, so a load balancer moves on to a web node
    for (const [method, url] of [
      ['GET', '/api/file/list'],
      ['POST', '/api/login'],
      ['PROPFIND', '/webdav/'],
      ['GET', '/'],
    ] as const) {
      const res = await worker.app.inject({
        method,
        url,
        headers: { 'nimbus-token': admin.token },
      });
      expect([res.statusCode, res.json().code], `${method} ${url}`).toEqual([
        503,
        ErrorCode.OFFLINE,
      ]);
      expect(res.json().message).toMatch(/NIMBUS_ROLE=worker/);
    }
    // whoever runs it still sees that it lives and is ready
    for (const url of ['/api/public/health', '/api/public/ready'])
      expect((await worker.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
  });
});
