import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/events/bus.ts';
import type { DbJobQueue } from '../../src/jobs/db-queue.ts';
import { PermanentJobError, type JobContext, type Task } from '../../src/jobs/queue.ts';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { databaseAt, makeTestApp, setupAdmin, type TestApp } from '../harness.ts';

let t: TestApp;
let admin: { token: string; userId: string };

const queueOf = (app: TestApp) => app.app.services.jobs as DbJobQueue;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A promise with its resolve, to hand control between a test and a handler. */
function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Resolves when the signal aborts. */
const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

/** Collects the live events of one user from the bus. */
function recordEvents(app: TestApp, userId: string) {
  const events: LiveEvent[] = [];
  const stop = app.app.services.events.subscribe(userId, (e) => events.push(e));
  return { events, stop };
}

beforeEach(async () => {
  t = await makeTestApp();
  Object.assign(queueOf(t).options, { pollMs: 50, retryDelayMs: 10 });
  admin = await setupAdmin(t.app);
});
afterEach(async () => {
  await t.close();
});

describe('job queue', () => {
  it('runs a job with its payload and records it done', async () => {
    const jobs = queueOf(t);
    const seen: Array<{ payload: unknown; userId: string | null; attempt: number }> = [];
    jobs.register<{ n: number }>('echo', async (ctx) => {
      seen.push({ payload: ctx.payload, userId: ctx.userId, attempt: ctx.attempt });
    });
    const id = await jobs.enqueue(
      'echo',
      { n: 42 },
      { userId: admin.userId, name: 'a.txt', path: '/docs/' },
    );
    const job = await jobs.waitFor(id);
    expect(job).toMatchObject({
      state: 'done',
      progress: 100,
      attempts: 1,
      name: 'a.txt',
      path: '/docs/',
      payload: { n: 42 },
    });
    expect(job.startedAt).toBeGreaterThan(0);
    expect(job.finishedAt).toBeGreaterThanOrEqual(job.startedAt ?? 0);
    expect(seen).toEqual([{ payload: { n: 42 }, userId: admin.userId, attempt: 1 }]);
  });

  it('refuses a job type nobody registered', async () => {
    await expect(queueOf(t).enqueue('nope', {}, { userId: null })).rejects.toThrow(/no handler/);
  });

  it('publishes throttled taskProgress and taskCountChange events', async () => {
    const jobs = queueOf(t);
    const { events } = recordEvents(t, admin.userId);
    const release = deferred();
    jobs.register('steps', async (ctx) => {
      // 200 reports in ~100 ms: the throttle lets only a few through.
      for (let i = 1; i <= 200; i++) {
        ctx.progress(i / 4, `step ${i}`);
        if (i % 20 === 0) await sleep(10);
      }
      await release.promise;
      ctx.progress(100);
    });
    const id = await jobs.enqueue(
      'steps',
      {},
      { userId: admin.userId, name: 'big.zip', path: '/' },
    );
    await expect
      .poll(() => events.some((e) => e.url === 'taskProgress' && (e.body as Task).progress === 50))
      .toBe(true);
    // While it runs the task list has it, with its live progress.
    const listed = await jobs.running(admin.userId);
    expect(listed).toEqual([
      expect.objectContaining({
        taskId: id,
        taskType: 'steps',
        type: 'steps',
        name: 'big.zip',
        path: '/',
        progress: 50,
        username: 'admin',
        state: 'running',
      }),
    ]);
    release.resolve();
    await jobs.waitFor(id);
    await expect
      .poll(() => events.filter((e) => e.url === 'taskCountChange').at(-1)?.body)
      .toEqual({ data: [] });

    const progress = events.filter((e) => e.url === 'taskProgress').map((e) => e.body as Task);
    expect(
      progress.every((p) => p.taskId === id && p.name === 'big.zip' && p.username === 'admin'),
    ).toBe(true);
    // queued, running, a few throttled steps, 100, then the last one removes it from the list.
    expect(progress.length).toBeLessThan(20);
    expect(progress[0]).toMatchObject({ progress: 0, state: 'queued' });
    expect(progress.at(-2)).toMatchObject({ progress: 100 });
    expect(progress.at(-1)).toMatchObject({ progress: null, state: 'done' });
    const values = progress.map((p) => p.progress).filter((p): p is number => p !== null);
    expect(values).toEqual([...values].sort((a, b) => a - b));

    const counts = events
      .filter((e) => e.url === 'taskCountChange')
      .map((e) => (e.body as { data: Task[] }).data.length);
    expect(counts[0]).toBe(1);
    expect(counts.at(-1)).toBe(0);
    expect(events.every((e) => e.username === 'admin' && typeof e.space === 'number')).toBe(true);
  });

  it('runs at most `concurrency` jobs of a type at once', async () => {
    const jobs = queueOf(t);
    let now = 0;
    let most = 0;
    jobs.register(
      'slow',
      async () => {
        now++;
        most = Math.max(most, now);
        await sleep(60);
        now--;
      },
      { concurrency: 2 },
    );
    const ids = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) => jobs.enqueue('slow', { n }, { userId: admin.userId })),
    );
    const done = await Promise.all(ids.map((id) => jobs.waitFor(id)));
    expect(done.every((j) => j.state === 'done')).toBe(true);
    expect(most).toBe(2);
  });

  it('retries a failing handler, then fails the job with its message', async () => {
    const jobs = queueOf(t);
    const { events } = recordEvents(t, admin.userId);
    let runs = 0;
    jobs.register('flaky', async () => {
      runs++;
      throw new Error('disk on fire');
    });
    const id = await jobs.enqueue('flaky', {}, { userId: admin.userId, name: 'x' });
    const job = await jobs.waitFor(id);
    expect(job).toMatchObject({ state: 'failed', message: 'disk on fire', attempts: 3 });
    expect(runs).toBe(3);
    await expect
      .poll(() =>
        events.some((e) => e.url === 'taskProgress' && (e.body as Task).state === 'failed'),
      )
      .toBe(true);
    expect(await jobs.running(admin.userId)).toEqual([]);
  });

  it('succeeds on a later attempt after a passing failure', async () => {
    const jobs = queueOf(t);
    jobs.register('once-flaky', async (ctx) => {
      if (ctx.attempt === 1) throw new Error('timeout');
    });
    const job = await jobs.waitFor(await jobs.enqueue('once-flaky', {}, { userId: admin.userId }));
    expect(job).toMatchObject({ state: 'done', attempts: 2 });
  });

  it('fails at once on a permanent error', async () => {
    const jobs = queueOf(t);
    let runs = 0;
    jobs.register('broken', async () => {
      runs++;
      throw new PermanentJobError('The archive is damaged');
    });
    const job = await jobs.waitFor(await jobs.enqueue('broken', {}, { userId: admin.userId }));
    expect(job).toMatchObject({ state: 'failed', message: 'The archive is damaged', attempts: 1 });
    expect(runs).toBe(1);
  });

  it('lets a handler enqueue further jobs', async () => {
    const jobs = queueOf(t);
    const child = deferred<string>();
    jobs.register<{ n: number }>('child', async () => {});
    jobs.register('parent', async (ctx) => {
      child.resolve(await jobs.enqueue('child', { n: 1 }, { userId: ctx.userId }));
    });
    const parent = await jobs.waitFor(await jobs.enqueue('parent', {}, { userId: admin.userId }));
    expect(parent.state).toBe('done');
    expect((await jobs.waitFor(await child.promise)).state).toBe('done');
  });

  it('cancels a queued job and aborts a running one', async () => {
    const jobs = queueOf(t);
    const started = deferred();
    let sawAbort = false;
    jobs.register(
      'blocking',
      async (ctx) => {
        started.resolve();
        await aborted(ctx.signal);
        sawAbort = true;
        ctx.signal.throwIfAborted();
      },
      { concurrency: 1 },
    );
    const running = await jobs.enqueue('blocking', {}, { userId: admin.userId });
    const queued = await jobs.enqueue('blocking', {}, { userId: admin.userId });
    await started.promise;
    expect(await jobs.cancel(queued)).toBe(true);
    expect((await jobs.get(queued))?.state).toBe('cancelled');
    expect(await jobs.cancel(running)).toBe(true);
    expect((await jobs.waitFor(running)).state).toBe('cancelled');
    expect(sawAbort).toBe(true);
    expect(await jobs.cancel(running)).toBe(false);
    expect(await jobs.running(admin.userId)).toEqual([]);
  });

  it('does not run a job cancelled while this worker was claiming it', async () => {
    const jobs = queueOf(t);
    let ran = 0;
    jobs.register('late', async () => {
      ran += 1;
    });
    // the cancel lands after the claim has read the job as running, before the handler starts
    const repo = (jobs as unknown as { repo: { claim: (...a: unknown[]) => Promise<unknown> } })
      .repo;
    const claim = repo.claim.bind(repo);
    const cancels: Array<Promise<boolean>> = [];
    repo.claim = async (...args: unknown[]) => {
      const row = await claim(...args);
      if (row) {
        const cancelled = jobs.cancel(args[0] as string);
        cancels.push(cancelled);
        await cancelled;
      }
      return row;
    };
    try {
      const id = await jobs.enqueue('late', {}, { userId: admin.userId });
      expect((await jobs.waitFor(id)).state).toBe('cancelled');
      await sleep(200);
      expect(await Promise.all(cancels)).toEqual([true]);
      expect(ran).toBe(0);
      expect(jobs.activeCount('late')).toBe(0);
    } finally {
      repo.claim = claim;
    }
  });

  it('queues keyed work once while it is queued or running, and again once it finished', async () => {
    const jobs = queueOf(t);
    const release = deferred();
    jobs.register('keyed', () => release.promise, { concurrency: 1 });
    const first = await jobs.enqueue('keyed', { n: 1 }, { userId: admin.userId, key: 'file:a' });
    // queued, then running: the same answer
    expect(await jobs.enqueue('keyed', { n: 2 }, { userId: admin.userId, key: 'file:a' })).toBe(
      first,
    );
    await expect.poll(async () => (await jobs.get(first))?.state).toBe('running');
    expect(await jobs.enqueue('keyed', { n: 3 }, { userId: admin.userId, key: 'file:a' })).toBe(
      first,
    );
    // another key, or none, is other work
    const other = await jobs.enqueue('keyed', {}, { userId: admin.userId, key: 'file:b' });
    const plain = await jobs.enqueue('keyed', {}, { userId: admin.userId });
    expect(new Set([first, other, plain]).size).toBe(3);
    // many at once, as nodes deciding together: one job
    const raced = await Promise.all(
      [...Array(8).keys()].map(() =>
        jobs.enqueue('keyed', {}, { userId: admin.userId, key: 'file:c' }),
      ),
    );
    expect(new Set(raced).size).toBe(1);
    // inside a transaction too
    const inTrx = await t.database.db
      .transaction()
      .execute((trx) => jobs.enqueue('keyed', {}, { userId: admin.userId, key: 'file:a', trx }));
    expect(inTrx).toBe(first);
    release.resolve();
    expect((await jobs.waitFor(first)).state).toBe('done');
    const again = await jobs.enqueue('keyed', {}, { userId: admin.userId, key: 'file:a' });
    expect(again).not.toBe(first);
    await Promise.all([again, other, plain, raced[0]!].map((id) => jobs.waitFor(id)));
    await expect(
      jobs.enqueue('keyed', {}, { userId: admin.userId, key: 'k'.repeat(201) }),
    ).rejects.toThrow(/200 characters/);
  });

  it('tells the type once when the last attempt fails', async () => {
    const jobs = queueOf(t);
    const told: string[] = [];
    jobs.register(
      'flaky',
      async () => {
        throw new Error('disk on fire');
      },
      { maxAttempts: 2, onFailed: async (_job, message) => void told.push(message) },
    );
    const id = await jobs.enqueue('flaky', {}, { userId: admin.userId });
    expect((await jobs.waitFor(id)).state).toBe('failed');
    // told before the job reads as failed
    expect(told).toEqual(['disk on fire']);
  });

  it('never runs a job twice when two workers share the database', async () => {
    const { DbJobQueue } = await import('../../src/jobs/db-queue.ts');
    const first = queueOf(t);
    const second = new DbJobQueue(t.database, t.app.services.events, { pollMs: 20 }, (id) =>
      t.app.services.users.usernameOf(id),
    );
    const runs = new Map<string, number>();
    const byWorker = [0, 0];
    const handlerOf = (worker: number) => async (ctx: JobContext) => {
      runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
      byWorker[worker]!++;
      await sleep(5);
    };
    first.register('shared', handlerOf(0), { concurrency: 3 });
    second.register('shared', handlerOf(1), { concurrency: 3 });
    second.start();
    try {
      const ids = await Promise.all(
        [...Array(30).keys()].map((n) => first.enqueue('shared', { n }, { userId: admin.userId })),
      );
      await Promise.all(ids.map((id) => first.waitFor(id)));
      expect(ids.map((id) => runs.get(id))).toEqual(ids.map(() => 1));
      // Both took part, so claims did race.
      expect(byWorker[0]).toBeGreaterThan(0);
      expect(byWorker[1]).toBeGreaterThan(0);
    } finally {
      await second.stop();
    }
  });

  it('keeps finished jobs 7 days, then prunes them', async () => {
    const jobs = queueOf(t);
    jobs.register('noop', async () => {});
    const recent = await jobs.waitFor(await jobs.enqueue('noop', {}, { userId: admin.userId }));
    const old = await jobs.waitFor(await jobs.enqueue('noop', {}, { userId: admin.userId }));
    const eightDaysAgo = Date.now() - 8 * 24 * 3600_000;
    await t.database.db
      .updateTable('job')
      .set({ finishedAt: eightDaysAgo })
      .where('id', '=', old.id)
      .execute();
    t = await t.restart();
    await t.app.ready();
    await expect.poll(async () => (await queueOf(t).get(old.id))?.state ?? 'pruned').toBe('pruned');
    expect((await queueOf(t).get(recent.id))?.state).toBe('done');
  });
});

describe('job queue across restarts', () => {
  it('runs a job enqueued before a shutdown after the next start', async () => {
    // Enqueued on an app whose worker is already stopped: nothing runs it before the restart.
    await queueOf(t).stop();
    queueOf(t).register('later', async () => {});
    const id = await queueOf(t).enqueue('later', { file: 'a' }, { userId: admin.userId });
    expect((await queueOf(t).get(id))?.state).toBe('queued');

    t = await t.restart();
    let ran = false;
    queueOf(t).register('later', async () => {
      ran = true;
    });
    await t.app.ready();
    expect(await queueOf(t).waitFor(id)).toMatchObject({ state: 'done', attempts: 1 });
    expect(ran).toBe(true);
  });

  it('aborts a running job on close and runs it again after the restart', async () => {
    const started = deferred();
    let firstRunAborted = false;
    queueOf(t).register('long', async (ctx: JobContext) => {
      ctx.progress(30);
      started.resolve();
      await aborted(ctx.signal);
      firstRunAborted = true;
      ctx.signal.throwIfAborted();
    });
    const id = await queueOf(t).enqueue('long', {}, { userId: admin.userId, name: 'movie.mkv' });
    await started.promise;

    t = await t.restart();
    expect(firstRunAborted).toBe(true);
    // A stop is not the job's fault: the interrupted run does not count as an attempt.
    expect(await queueOf(t).get(id)).toMatchObject({ state: 'queued', attempts: 0 });
    const attempts: number[] = [];
    queueOf(t).register('long', async (ctx: JobContext) => {
      attempts.push(ctx.attempt);
    });
    await t.app.ready();
    expect(await queueOf(t).waitFor(id)).toMatchObject({ state: 'done', attempts: 1 });
    expect(attempts).toEqual([1]);
  });

  it('runs again a job that a crash left running', async () => {
    const started = deferred();
    const letGo = deferred();
    Object.assign(queueOf(t).options, { stopTimeoutMs: 50, leaseMs: 300 });
    // This handler ignores the abort, as a crashed process would never report back.
    queueOf(t).register('stubborn', async () => {
      started.resolve();
      await letGo.promise;
    });
    const id = await queueOf(t).enqueue('stubborn', {}, { userId: admin.userId });
    await started.promise;

    t = await t.restart();
    expect((await queueOf(t).get(id))?.state).toBe('running');
    Object.assign(queueOf(t).options, { pollMs: 50, leaseMs: 300 });
    const attempts: number[] = [];
    queueOf(t).register('stubborn', async (ctx: JobContext) => {
      attempts.push(ctx.attempt);
    });
    await t.app.ready();
    expect(await queueOf(t).waitFor(id, 10_000)).toMatchObject({ state: 'done', attempts: 2 });
    expect(attempts).toEqual([2]);
    letGo.resolve();
  });

  it('fails a job that was interrupted as many times as its attempts allow', async () => {
    queueOf(t).register('doomed', async () => {});
    await queueOf(t).stop();
    const id = await queueOf(t).enqueue('doomed', {}, { userId: admin.userId });
    // As a crash on its third run leaves it.
    await t.database.db
      .updateTable('job')
      .set({
        state: 'running',
        attempts: 3,
        workerId: 'gone',
        leaseUntil: Date.now() - 1000,
        startedAt: Date.now(),
      })
      .where('id', '=', id)
      .execute();

    t = await t.restart();
    let ran = false;
    const told: Array<{ id: string; message: string }> = [];
    queueOf(t).register(
      'doomed',
      async () => {
        ran = true;
      },
      { onFailed: async (job, message) => void told.push({ id: job.id, message }) },
    );
    await t.app.ready();
    const job = await queueOf(t).waitFor(id);
    expect(job.state).toBe('failed');
    expect(job.message).toMatch(/Interrupted 3 times/);
    expect(ran).toBe(false);
    // no handler ran to say so: the type hears it from the queue, once
    expect(told).toEqual([{ id, message: job.message }]);
  });
});

describe('transcodes queued before jobs had keys', () => {
  it("get their file's key on the upgrade, the oldest one where a file had two", async () => {
    const { database, dataDir, url } = await databaseAt('017-transcode-failure');
    const now = Date.now();
    const job = (id: string, type: string, payload: unknown, state: string, n: number) => ({
      id,
      type,
      name: '',
      path: '',
      payload: JSON.stringify(payload),
      state: state as 'queued',
      progress: 0,
      attempts: 0,
      runAt: now,
      createdAt: now + n,
      updatedAt: now,
    });
    // the job table of that time: the same, without the key
    await database.db
      .insertInto('job')
      .values([
        job('a1', 'transcode', { fileId: 'A' }, 'queued', 1),
        job('a2', 'transcode', { fileId: 'A' }, 'queued', 2),
        job('b1', 'transcode', { fileId: 'B' }, 'running', 3),
        job('c1', 'transcode', { fileId: 'C' }, 'done', 4),
        job('x1', 'transcode', 'not an object', 'queued', 5),
        job('s1', 'sync', { fileId: 'A' }, 'queued', 6),
      ])
      .execute();
    // the upgrade runs as the app starts; the queue is kept still to read the keys as left
    const app = await buildApp({
      config: testConfig({ dataDir, databaseUrl: url }),
      database,
      logger: false,
    });
    try {
      await (app.services.jobs as DbJobQueue).stop();
      const keys = await database.db
        .selectFrom('job')
        .select(['id', 'dedupeKey'])
        .orderBy('createdAt')
        .execute();
      expect(keys).toEqual([
        { id: 'a1', dedupeKey: 'file:A' },
        { id: 'a2', dedupeKey: null },
        { id: 'b1', dedupeKey: 'file:B' },
        { id: 'c1', dedupeKey: null },
        { id: 'x1', dedupeKey: null },
        { id: 's1', dedupeKey: null },
      ]);
      expect((await app.services.jobs.activeByKey('transcode', 'file:A'))?.id).toBe('a1');
    } finally {
      await app.close();
      await database.close();
    }
  });
});
