import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_MENUS, USER_ROLE, USER_ROLE_MENUS } from '@nimbus/contract';
import type { LiveEvent } from '../../src/events/bus.ts';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const waitTask = async (taskId: string) => {
  const job = await t.app.services.jobs.waitFor(taskId, 60_000);
  expect(job.state, job.message ?? '').toBe('done');
  return job;
};

describe('index rebuild and folder sizes as background tasks', () => {
  it('rebuilds one folder, reporting synced progress', async () => {
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'inbox', currentDirectory: '/' },
    });
    fs.writeFileSync(
      path.join(t.dataDir, 'files', 'admin', 'inbox', 'dropped.txt'),
      'from outside',
    );
    const events: LiveEvent[] = [];
    t.app.services.events.subscribe(admin.userId, (e) => events.push(e));
    const res = await call<{ taskId: string }>(t.app, 'GET', '/user/setting/sync', {
      token: admin.token,
      query: { path: '/inbox' },
    });
    expect(res.body.code).toBe(0);
    await waitTask(res.body.data!.taskId);
    const listing = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/inbox' },
    });
    expect(listing.body.data!.map((i) => i.name)).toEqual(['dropped.txt']);
    await new Promise((r) => setTimeout(r, 50));
    const synced = events
      .filter((e) => e.url === 'synced')
      .map((e) => (e.body as { syncPercent: number }).syncPercent);
    expect(synced.at(-1)).toBe(100);
    const isSync = await call<{ syncPercent: number }>(t.app, 'GET', '/user/setting/isSync', {
      token: admin.token,
    });
    expect(isSync.body.data!.syncPercent).toBe(100);
  });

  it('rebuilds the whole drive for administrators only', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    fs.writeFileSync(path.join(t.dataDir, 'files', 'bob', 'b.txt'), 'bob');
    expect((await call(t.app, 'GET', '/cloud/setting/sync', { token: bob.token })).status).toBe(
      403,
    );
    const res = await call<{ taskIds: string[] }>(t.app, 'GET', '/cloud/setting/sync', {
      token: admin.token,
    });
    for (const id of res.body.data!.taskIds) await waitTask(id);
    const listing = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: bob.token,
    });
    expect(listing.body.data!.map((i) => i.name)).toEqual(['b.txt']);
  });

  it('recalculates folder sizes', async () => {
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'a', currentDirectory: '/' },
    });
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'b', currentDirectory: '/a' },
    });
    await putFile(t, owner(), '/a', 'one.bin', Buffer.alloc(10));
    await putFile(t, owner(), '/a/b', 'two.bin', Buffer.alloc(32));
    const res = await call<{ taskId: string }>(
      t.app,
      'GET',
      '/cloud/setting/recalculateFolderSize',
      { token: admin.token },
    );
    await waitTask(res.body.data!.taskId);
    const root = await call<Array<{ name: string; size: number }>>(t.app, 'GET', '/list', {
      token: admin.token,
    });
    expect(root.body.data!.find((i) => i.name === 'a')!.size).toBe(42);
  });
});

describe('file operation events', () => {
  it('announces a move to its owner only, with from and to', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const mine: LiveEvent[] = [];
    const theirs: LiveEvent[] = [];
    t.app.services.events.subscribe(admin.userId, (e) => mine.push(e));
    t.app.services.events.subscribe(bob.userId, (e) => theirs.push(e));
    const dir = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'dest', currentDirectory: '/' },
    });
    const id = await putFile(t, owner(), '/', 'f.txt', 'x');
    await call(t.app, 'GET', '/move', {
      token: admin.token,
      query: { froms: [id], to: dir.body.data!.id },
    });
    await new Promise((r) => setTimeout(r, 50));
    const op = mine.find((e) => e.url === 'operationFile');
    expect(op?.body).toMatchObject({
      operation: 'move',
      from: '/f.txt',
      to: '/dest/f.txt',
      code: 0,
    });
    expect(op?.username).toBe('admin');
    expect(typeof op?.space).toBe('number');
    expect(theirs).toEqual([]);
  });

  it('runs a big copy in the background and reports through the task list', async () => {
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'many', currentDirectory: '/' },
    });
    for (let i = 0; i < 505; i++) await putFile(t, owner(), '/many', `f${i}.txt`, `${i}`);
    const many = (
      await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', { token: admin.token })
    ).body.data!.find((i) => i.name === 'many')!;
    const events: LiveEvent[] = [];
    t.app.services.events.subscribe(admin.userId, (e) => events.push(e));
    const res = await call<{ taskId: string }>(t.app, 'GET', '/copy', {
      token: admin.token,
      query: { froms: [many.id], to: '0' },
    });
    expect(res.body.message).toBe('Copying in the background');
    const tasks = await call<Array<{ taskId: string; type: string }>>(
      t.app,
      'GET',
      '/cloud/task/progress',
      { token: admin.token },
    );
    expect(tasks.body.data!.map((x) => x.taskId)).toContain(res.body.data!.taskId);
    await waitTask(res.body.data!.taskId);
    const copy = await call(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/many(1)' },
    });
    expect(copy.body.count).toBe(505);
    await new Promise((r) => setTimeout(r, 50));
    expect(events.find((e) => e.url === 'operationFile')?.body).toMatchObject({
      operation: 'copy',
      to: '/many(1)',
      code: 0,
    });
  }, 60_000);

  it('refuses a big copy to a user without the upload authority, queueing nothing', async () => {
    const user = await makeUser(t.app, admin.token);
    const mine = { userId: user.userId, username: user.username };
    const made = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
      token: user.token,
      query: { filename: 'many' },
    });
    for (let i = 0; i < 505; i++) await putFile(t, mine, '/many', `f${i}.txt`, `${i}`);
    const narrowed = await call(t.app, 'PUT', '/role/update', {
      token: admin.token,
      body: {
        id: USER_ROLE.id,
        menuIds: USER_ROLE_MENUS.filter(
          (id) => SEED_MENUS.find((m) => m.id === id)?.authority !== 'cloud:file:upload',
        ),
      },
    });
    expect(narrowed.body.code, narrowed.body.message).toBe(0);
    const res = await call(t.app, 'GET', '/copy', {
      token: user.token,
      query: { froms: [made.body.data!.id], to: '0' },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe(8);
    const tasks = await t.app.services.jobs.running(user.userId);
    expect(tasks.filter((task) => task.type === 'copy')).toEqual([]);
  }, 60_000);
});
