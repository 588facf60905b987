import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DriveCheckView } from '@nimbus/contract';
import type { Task } from '../../src/jobs/queue.ts';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';

// Cloud management → "Check the drive": `npm run check` as an administrator's background task,
// one at a time, its findings kept for the web app.

const { t, admin } = useAdminApp({ once: true });

async function finished(token: string): Promise<DriveCheckView> {
  const { taskId } = (await call<DriveCheckView>(t.app, 'GET', '/cloud/check', { token })).body
    .data!;
  if (taskId) await t.app.services.jobs.waitFor(taskId, 20_000);
  return (await call<DriveCheckView>(t.app, 'GET', '/cloud/check', { token })).body.data!;
}

describe('/api/cloud/check', () => {
  it('is for administrators only: 401 signed out, 403 for anyone else, on every path', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    for (const [method, body] of [
      ['GET', undefined],
      ['POST', { full: true }],
    ] as const) {
      expect((await call(t.app, method, '/cloud/check', { body })).status).toBe(401);
      const res = await call(t.app, method, '/cloud/check', { token: bob.token, body });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe(8);
    }
    // nothing was started by the refused calls
    const view = await call<DriveCheckView>(t.app, 'GET', '/cloud/check', { token: admin.token });
    expect(view.body.data).toMatchObject({ state: 'none', taskId: null, report: null });
  });

  it('refuses a body that is not the options, naming the field', async () => {
    const res = await call(t.app, 'POST', '/cloud/check', {
      token: admin.token,
      body: { full: 'yes' },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('full');
  });

  it('runs as the administrator’s task, names missing bytes, and repairs stray bytes', async () => {
    const owner = { userId: admin.userId, username: ADMIN.username };
    await putFile(t, owner, '/', 'report.txt', 'quarterly numbers');
    const blobs = t.app.services.blobs;
    fs.rmSync(blobs.item(ADMIN.username, '/', 'report.txt'));
    await blobs.write(blobs.item(ADMIN.username, '/', 'stray.bin'), Buffer.from('nobody'));

    // held while running: its task is in the administrator's list, and a second start is 409
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let atWork!: () => void;
    const working = new Promise<void>((r) => (atWork = r));
    t.app.services.driveCheck.beforeWork = async () => {
      atWork();
      await held;
    };
    try {
      const started = await call<DriveCheckView>(t.app, 'POST', '/cloud/check', {
        token: admin.token,
        body: { full: true },
      });
      expect(started.status).toBe(200);
      expect(started.body.data).toMatchObject({ full: true, repair: false, report: null });
      const taskId = started.body.data!.taskId!;
      await working;
      const tasks = await call<Task[]>(t.app, 'GET', '/cloud/task/progress', {
        token: admin.token,
      });
      expect(tasks.body.data).toContainEqual(
        expect.objectContaining({ taskId, type: 'driveCheck', state: 'running' }),
      );
      const second = await call(t.app, 'POST', '/cloud/check', {
        token: admin.token,
        body: { repair: true },
      });
      expect(second.status).toBe(409);
      expect(second.body).toMatchObject({ code: 4, data: { taskId } });
      expect(second.body.message).toContain('already running');
      const running = await call<DriveCheckView>(t.app, 'GET', '/cloud/check', {
        token: admin.token,
      });
      expect(running.body.data).toMatchObject({ state: 'running', taskId });
    } finally {
      t.app.services.driveCheck.beforeWork = undefined;
      release();
    }

    const done = await finished(admin.token);
    expect(done).toMatchObject({ state: 'done', progress: 100, full: true, repair: false });
    expect(done.finishedAt).toBeGreaterThan(0);
    expect(done.report!.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'missing-bytes', item: '/report.txt', repaired: false }),
        expect.objectContaining({ kind: 'stray-bytes', item: '/stray.bin', repaired: false }),
      ]),
    );
    expect(await blobs.stat(blobs.item(ADMIN.username, '/', 'stray.bin'))).not.toBeNull();

    // with repair: the stray bytes go to lost+found; the missing bytes stay for a person
    const repairing = await call<DriveCheckView>(t.app, 'POST', '/cloud/check', {
      token: admin.token,
      body: { repair: true },
    });
    expect(repairing.status).toBe(200);
    const repaired = await finished(admin.token);
    expect(repaired).toMatchObject({ state: 'done', full: false, repair: true });
    expect(repaired.report!.lostAndFound).toBeTruthy();
    expect(repaired.report!.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'missing-bytes', item: '/report.txt', repaired: false }),
        expect.objectContaining({ kind: 'stray-bytes', item: '/stray.bin', repaired: true }),
      ]),
    );
    expect(await blobs.stat(blobs.item(ADMIN.username, '/', 'stray.bin'))).toBeNull();

    // the last run is kept for the next visit, and the task has left the list
    const tasks = await call<Task[]>(t.app, 'GET', '/cloud/task/progress', { token: admin.token });
    expect(tasks.body.data!.filter((task) => task.type === 'driveCheck')).toEqual([]);
  });
});
