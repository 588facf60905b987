import type { ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ErrorCode } from '@nimbus/contract';
import { RedisLocks } from '../../src/lib/locks.ts';
import { call, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';
import { haveRedis, startRedis, stopRedis } from '../redis-server.ts';

// Two nodes share one database, one data folder and one Redis: what one node decides under a
// lock, or counts against a limit, holds for the other as it would on one node.

const FENCE_KEY = 'nimbus:lock-fence';
const userLockKey = (userId: string) => `nimbus:lock:user:${userId}`;

async function until<T>(
  take: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  return vi.waitFor(
    async () => {
      const value = await take();
      if (value === undefined) throw new Error(`still waiting for ${what}`);
      return value;
    },
    { timeout: timeoutMs, interval: 10 },
  );
}

describe.skipIf(!haveRedis)('locks and limits across nodes through Redis', () => {
  let redis: { process: ChildProcess; url: string };
  let probe: Redis;
  let a: TestApp;
  let b: TestApp;
  let ann: { token: string; userId: string; username: string; password: string };

  const locksOf = (t: TestApp) => t.app.services.locks as RedisLocks;
  const fence = async () => Number((await probe.get(FENCE_KEY)) ?? 0);

  beforeAll(async () => {
    redis = await startRedis();
    probe = new Redis(redis.url, { maxRetriesPerRequest: 0 });
    // the last test stops Redis: the probe's lost connection is expected
    probe.on('error', () => undefined);
    a = await makeTestApp({ redisUrl: redis.url });
    // node B: the same database and data folder, the same Redis
    b = await makeTestApp({
      redisUrl: redis.url,
      dataDir: a.dataDir,
      databaseUrl: a.config.databaseUrl,
    });
    await a.app.ready();
    await b.app.ready();
    const admin = await setupAdmin(a.app);
    ann = await makeUser(a.app, admin.token, { username: 'ann', quota: 1 });
    await makeUser(a.app, admin.token, { username: 'bob', quota: 1 });
    await until(
      async () => (locksOf(a).isConnected() && locksOf(b).isConnected()) || undefined,
      'Redis',
    );
  });
  afterAll(async () => {
    probe?.disconnect();
    await b?.close();
    await a?.close();
    if (redis) await stopRedis(redis.process);
  });

  it('makes a change on node B wait while node A holds the user’s lock', async () => {
    let held = true;
    let finishedWhileHeld = false;
    let madeOnB: Promise<Awaited<ReturnType<typeof call<{ id: string }>>>> | undefined;
    await a.app.services.files.withLock(ann.userId, async () => {
      expect(await probe.exists(userLockKey(ann.userId))).toBe(1);
      const before = await fence();
      madeOnB = call<{ id: string }>(b.app, 'POST', '/new_folder', {
        token: ann.token,
        query: { currentDirectory: '/', filename: 'made-on-b' },
      }).then((res) => {
        if (held) finishedWhileHeld = true;
        return res;
      });
      // node B asked Redis for the lock and was refused (or, without a shared lock, it is done)
      await until(
        async () => ((await fence()) > before || finishedWhileHeld ? true : undefined),
        'node B to try the lock',
      );
      expect(finishedWhileHeld).toBe(false);
      held = false;
    });
    const res = await madeOnB!;
    expect(res.body.code, res.body.message).toBe(0);
    expect(finishedWhileHeld).toBe(false);
    // freed by its holder
    expect(await probe.exists(userLockKey(ann.userId))).toBe(0);
  });

  it('checks at most five of 200 wrong passwords sent at once to both nodes', async () => {
    const tries = Array.from({ length: 200 }, (_, i) =>
      call(i % 2 === 0 ? a.app : b.app, 'POST', '/login', {
        body: { username: 'ann', password: `wrong-${i}`, rememberMe: false },
      }),
    );
    const answers = await Promise.all(tries);
    // a checked password is answered 401 "wrong"; one the limiter refused, 429 unchecked
    const checked = answers.filter((r) => r.status === 401);
    const refused = answers.filter((r) => r.status === 429);
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(195);
    for (const r of refused) expect(r.body.code).toBe(ErrorCode.TOO_MANY_REQUESTS);
  });

  it('checks at most five of 20 wrong WebDAV passwords sent at once to both nodes', async () => {
    const wrong = (i: number) => `Basic ${Buffer.from(`bob:wrong-${i}`).toString('base64')}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? a.app : b.app).inject({
          method: 'PROPFIND',
          url: '/webdav/',
          headers: { authorization: wrong(i), depth: '0' },
          // another address than the sign-ins above, so only this burst counts against it
          remoteAddress: '10.0.0.7',
        }),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(5);
    expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
  });

  it('takes again a lock whose holder died once its lease runs out', async () => {
    const dead = new RedisLocks(redis.url, { leaseMs: 400 });
    await until(async () => dead.isConnected() || undefined, 'the other node to connect');
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // the work of a node that is killed while it runs: it never ends
    void dead.mutex('user').run(ann.userId, () => {
      entered();
      return new Promise<never>(() => {});
    });
    await inside;
    const lease = await probe.pttl(userLockKey(ann.userId));
    expect(lease).toBeGreaterThan(0);
    // killed: it neither renews nor frees its lock
    await dead.close();
    const started = Date.now();
    const res = await call(b.app, 'POST', '/new_folder', {
      token: ann.token,
      query: { currentDirectory: '/', filename: 'after-the-lease' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(lease - 50);
  });

  it('lets one node at a time into a lock, and a holder that lost it never frees the next one’s', async () => {
    const one = new RedisLocks(redis.url);
    const two = new RedisLocks(redis.url);
    try {
      await until(
        async () => (one.isConnected() && two.isConnected()) || undefined,
        'both nodes to connect',
      );
      let inside = 0;
      let most = 0;
      const turn = (node: RedisLocks) =>
        node.mutex('merge').run('session-1', async () => {
          most = Math.max(most, ++inside);
          await new Promise((resolve) => setImmediate(resolve));
          inside -= 1;
        });
      await Promise.all(Array.from({ length: 20 }, (_, i) => turn(i % 2 ? one : two)));
      expect(most).toBe(1);

      // the first holder's lease is gone (as after a long pause), the second takes the lock;
      // the first one's release must leave the second one's lock in place
      const key = 'nimbus:lock:merge:session-2';
      let secondIn!: () => void;
      const second = new Promise<void>((resolve) => (secondIn = resolve));
      let firstDone!: () => void;
      const first = new Promise<void>((resolve) => (firstDone = resolve));
      let secondRun: Promise<void> | undefined;
      await one.mutex('merge').run('session-2', async () => {
        await probe.del(key);
        secondRun = two.mutex('merge').run('session-2', async () => {
          secondIn();
          await first;
          // the first holder has finished (and tried to free the lock): still the second's
          expect(await probe.exists(key)).toBe(1);
        });
        await second;
      });
      firstDone();
      await secondRun;
      await until(async () => ((await probe.exists(key)) === 0 ? true : undefined), 'the free');
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('refuses a change that needs the lock with a clear error when Redis is gone', async () => {
    await stopRedis(redis.process);
    await until(
      async () => (!locksOf(a).isConnected() ? true : undefined),
      'node A to see Redis gone',
    );
    const started = Date.now();
    const res = await call(a.app, 'POST', '/new_folder', {
      token: ann.token,
      query: { currentDirectory: '/', filename: 'without-redis' },
    });
    expect(res.status).toBe(503);
    expect(res.body.code).toBe(ErrorCode.OFFLINE);
    expect(res.body.message).toMatch(/Redis cannot be reached/);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
