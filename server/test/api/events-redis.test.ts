import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/events/bus.ts';
import { RedisEventBus } from '../../src/events/redis-bus.ts';
import { loadConfig } from '../../src/config.ts';
import { call, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';
import { haveRedis, startRedis, stopRedis } from '../redis-server.ts';
import { openStream, until, type Stream } from '../event-stream.ts';

// Two nodes share one database, one data folder and one Redis: what a user does through node A
// reaches their event streams on node B.

const busOf = (t: TestApp) => t.app.services.events as RedisEventBus;

describe.skipIf(!haveRedis)('live events across nodes through Redis', () => {
  let redis: { process: ChildProcess; url: string };
  let a: TestApp;
  let b: TestApp;
  let baseA: string;
  let baseB: string;
  let ann: { token: string; userId: string; username: string; password: string };
  let ben: { token: string; userId: string; username: string; password: string };
  const streams: Stream[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    a = await makeTestApp({ redisUrl: redis.url });
    // node B: the same database and data folder, the same Redis
    b = await makeTestApp({
      redisUrl: redis.url,
      dataDir: a.dataDir,
      databaseUrl: a.config.databaseUrl,
    });
    baseA = await a.app.listen({ port: 0, host: '127.0.0.1' });
    baseB = await b.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = await setupAdmin(a.app);
    ann = await makeUser(a.app, admin.token, { username: 'ann', quota: 1 });
    ben = await makeUser(a.app, admin.token, { username: 'ben', quota: 1 });
    await until(() => (busOf(a).isConnected() && busOf(b).isConnected()) || undefined, 'Redis');
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await b?.close();
    await a?.close();
    if (redis) await stopRedis(redis.process);
  });

  const stream = async (base: string, token: string) => {
    const s = await openStream(base, token);
    streams.push(s);
    return s;
  };

  it('shows a client on node B the upload and the new folder made through node A, with name and used bytes', async () => {
    const onB = await stream(baseB, ann.token);
    const put = await fetch(`${baseA}/webdav/report.txt`, {
      method: 'PUT',
      headers: {
        authorization: `Basic ${Buffer.from(`ann:${ann.password}`).toString('base64')}`,
      },
      body: 'twelve bytes',
    });
    expect(put.status).toBe(201);
    const uploaded = await until(
      () =>
        onB.events.find(
          (e) => e.url === 'createFile' && (e.body as { name?: string }).name === 'report.txt',
        ),
      'the upload on node B',
    );
    const usage = await a.app.services.users.usage(ann.userId);
    expect(uploaded).toMatchObject({ username: 'ann', space: usage!.space });
    expect(uploaded.space).toBeGreaterThanOrEqual(12);

    const made = await call<{ id: string }>(a.app, 'POST', '/new_folder', {
      token: ann.token,
      query: { currentDirectory: '/', filename: 'from-a' },
    });
    expect(made.body.code, made.body.message).toBe(0);
    const folder = await until(
      () =>
        onB.events.find(
          (e) => e.url === 'createFile' && (e.body as { name?: string }).name === 'from-a',
        ),
      'the new folder on node B',
    );
    expect(folder).toMatchObject({ username: 'ann', body: { id: made.body.data!.id } });

    // the id of a deleted item travels beside its body
    const gone = await call(a.app, 'DELETE', '/delete', {
      token: ann.token,
      query: { fileIds: [made.body.data!.id] },
    });
    expect(gone.body.code, gone.body.message).toBe(0);
    const deleted = await until(
      () => onB.events.find((e) => e.url === 'deleteFile'),
      'the delete on node B',
    );
    expect(deleted).toMatchObject({ username: 'ann', body: '/', fileId: made.body.data!.id });
  });

  it('keeps one user’s order across nodes and never shows them another user’s events', async () => {
    const annOnB = await stream(baseB, ann.token);
    const benOnB = await stream(baseB, ben.token);
    const annOnA = await stream(baseA, ann.token);
    for (let i = 0; i < 50; i++) {
      a.app.services.events.publish(ann.userId, { url: 'synced', body: { n: i } });
      a.app.services.events.publish(ben.userId, { url: 'synced', body: { n: 100 + i } });
    }
    // a change ben makes through node A goes to ben only
    const made = await call(a.app, 'POST', '/new_folder', {
      token: ben.token,
      query: { currentDirectory: '/', filename: 'bens-own' },
    });
    expect(made.body.code, made.body.message).toBe(0);
    const synced = (s: Stream) =>
      s.events.filter((e) => e.url === 'synced').map((e) => (e.body as { n: number }).n);
    const range = (from: number) => Array.from({ length: 50 }, (_, i) => from + i);
    await until(() => synced(annOnB).length === 50 || undefined, 'ann’s 50 events on node B');
    await until(() => synced(annOnA).length === 50 || undefined, 'ann’s 50 events on node A');
    await until(
      () =>
        benOnB.events.some(
          (e) => e.url === 'createFile' && (e.body as { name?: string }).name === 'bens-own',
        ) || undefined,
      'ben’s folder on node B',
    );
    expect(synced(annOnB)).toEqual(range(0));
    expect(synced(annOnA)).toEqual(range(0));
    expect(synced(benOnB)).toEqual(range(100));
    for (const e of [...annOnB.events, ...annOnA.events]) expect(e.username).toBe('ann');
    expect(benOnB.events.every((e) => e.username === 'ben')).toBe(true);
    expect(annOnB.events.some((e) => (e.body as { name?: string }).name === 'bens-own')).toBe(
      false,
    );
  });

  it('keeps serving the clients of its own node when Redis goes away, and says so', async () => {
    const warnings: string[] = [];
    const own = new RedisEventBus(() => Promise.resolve({ username: 'ann', space: 7 }), redis.url);
    own.start({ log: { warn: (_obj, msg) => warnings.push(msg ?? '') } });
    await until(() => own.isConnected() || undefined, 'the extra bus to connect');
    const heard: LiveEvent[] = [];
    own.subscribe(ann.userId, (e) => heard.push(e));
    const annOnA = await stream(baseA, ann.token);

    await stopRedis(redis.process);
    await until(() => (!own.isConnected() && !busOf(a).isConnected()) || undefined, 'the outage');

    own.publish(ann.userId, { url: 'synced', body: 'local' });
    await until(() => heard.find((e) => e.body === 'local'), 'the local delivery');
    expect(warnings.some((w) => w.includes('Redis unreachable'))).toBe(true);

    // (a change of the tree is refused meanwhile: its lock lives in Redis too, see locks-redis)
    a.app.services.events.publish(ann.userId, { url: 'synced', body: 'while-redis-is-down' });
    await until(
      () => annOnA.events.find((e) => e.url === 'synced' && e.body === 'while-redis-is-down'),
      'the event on node A',
    );
    await own.close();
  });
});

describe('NIMBUS_REDIS_URL', () => {
  it('takes a redis:// or rediss:// address, and leaves events in the process when unset or empty', () => {
    expect(loadConfig({}).redisUrl).toBeUndefined();
    expect(loadConfig({ NIMBUS_REDIS_URL: '' }).redisUrl).toBeUndefined();
    expect(loadConfig({ NIMBUS_REDIS_URL: 'redis://127.0.0.1:6379/0' }).redisUrl).toBe(
      'redis://127.0.0.1:6379/0',
    );
    expect(loadConfig({ NIMBUS_REDIS_URL: 'rediss://:secret@cache.lan:6380' }).redisUrl).toBe(
      'rediss://:secret@cache.lan:6380',
    );
    for (const bad of ['http://127.0.0.1:6379', 'localhost:6379', 'redis'])
      expect(() => loadConfig({ NIMBUS_REDIS_URL: bad }), bad).toThrow(/NIMBUS_REDIS_URL/);
  });
});
