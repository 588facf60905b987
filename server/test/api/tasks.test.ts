import { describe, expect, it } from 'vitest';
import type { DbJobQueue } from '../../src/jobs/db-queue.ts';
import type { Task } from '../../src/jobs/queue.ts';
import { call, makeUser, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();

describe('GET /api/cloud/task/progress', () => {
  it('needs a signed-in user', async () => {
    const res = await call(t.app, 'GET', '/cloud/task/progress');
    expect(res.status).toBe(401);
    expect(res.body.code).toBe(5);
  });

  it('lists the caller’s queued and running tasks only, administrators included', async () => {
    const jobs = t.app.services.jobs as DbJobQueue;
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    jobs.register(
      'unzip',
      async (ctx) => {
        ctx.progress(40, 'photos/2024');
        started();
        await gate;
      },
      { concurrency: 1 },
    );
    const first = await jobs.enqueue(
      'unzip',
      {},
      { userId: bob.userId, name: 'photos.zip', path: '/holiday/' },
    );
    const second = await jobs.enqueue(
      'unzip',
      {},
      { userId: bob.userId, name: 'music.zip', path: '/' },
    );
    await running;

    const res = await call<Task[]>(t.app, 'GET', '/cloud/task/progress', { token: bob.token });
    expect(res.body.code).toBe(0);
    expect(res.body.data).toEqual([
      {
        taskId: first,
        taskType: 'unzip',
        type: 'unzip',
        name: 'photos.zip',
        path: '/holiday/',
        progress: 40,
        username: 'bob',
        state: 'running',
        message: 'photos/2024',
      },
      {
        taskId: second,
        taskType: 'unzip',
        type: 'unzip',
        name: 'music.zip',
        path: '/',
        progress: 0,
        username: 'bob',
        state: 'queued',
        message: null,
      },
    ]);

    // Tasks carry the owner's paths: an administrator sees only their own.
    const asAdmin = await call<Task[]>(t.app, 'GET', '/cloud/task/progress', {
      token: admin.token,
    });
    expect(asAdmin.body.data).toEqual([]);

    release();
    await jobs.waitFor(first);
    await jobs.waitFor(second);
    const after = await call<Task[]>(t.app, 'GET', '/cloud/task/progress', { token: bob.token });
    expect(after.body.data).toEqual([]);
  });
});
