import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
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
      ['DELETE', undefined],
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

  it('refuses a body larger than the options with 413, and keeps only the options', async () => {
    for (const junk of ['x'.repeat(10_000_000), 'x'.repeat(10 * 1024 * 1024)]) {
      const res = await call(t.app, 'POST', '/cloud/check', {
        token: admin.token,
        body: { full: true, junk },
      });
      expect(res.status).toBe(413);
      expect(res.body).toMatchObject({ code: 10, message: expect.stringContaining('larger') });
    }
    // a field of the wrong kind and size is named, not stored
    const wrong = await call(t.app, 'POST', '/cloud/check', {
      token: admin.token,
      body: { repair: 'x'.repeat(500) },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toContain('repair');
    // what the task keeps is the two options, nothing else the body carried
    const started = await call<DriveCheckView>(t.app, 'POST', '/cloud/check', {
      token: admin.token,
      body: { repair: false, extra: 'not an option' },
    });
    expect(started.status).toBe(200);
    const job = await t.app.services.jobs.get(started.body.data!.taskId!);
    expect(job!.payload).toEqual({ full: false, repair: false });
    expect((await finished(admin.token)).state).toBe('done');
  });

  it('of 20 starts at once, exactly one starts; the others are 409 naming it', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    t.app.services.driveCheck.beforeWork = () => held;
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          call<DriveCheckView>(t.app, 'POST', '/cloud/check', { token: admin.token, body: {} }),
        ),
      );
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses).toEqual([200, ...Array<number>(19).fill(409)]);
      const taskId = answers.find((a) => a.status === 200)!.body.data!.taskId;
      for (const a of answers.filter((x) => x.status === 409))
        expect(a.body).toMatchObject({ code: 4, data: { taskId } });
      expect(await t.app.services.jobs.countActive('driveCheck')).toBe(1);
    } finally {
      t.app.services.driveCheck.beforeWork = undefined;
      release();
    }
    expect((await finished(admin.token)).state).toBe('done');
  });

  it('stops when cancelled, at once, keeping what it found and repairing nothing', async () => {
    const owner = { userId: admin.userId, username: ADMIN.username };
    const blobs = t.app.services.blobs;
    await putFile(t, owner, '/', 'gone.txt', 'these bytes will go');
    fs.rmSync(blobs.item(ADMIN.username, '/', 'gone.txt'));
    const stray = blobs.item(ADMIN.username, '/', 'left-over.bin');
    await blobs.write(stray, Buffer.from('nobody owns these'));
    // a 64 GiB file (sparse): hashing it alone would take minutes
    const BIG = 64 * 1024 ** 3;
    await putFile(t, owner, '/', 'huge.bin', 'small for now');
    fs.truncateSync(blobs.item(ADMIN.username, '/', 'huge.bin'), BIG);
    await t.database.db
      .updateTable('file')
      .set({ size: BIG })
      .where('name', '=', 'huge.bin')
      .execute();
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    try {
      const started = await call<DriveCheckView>(t.app, 'POST', '/cloud/check', {
        token: admin.token,
        body: { full: true, repair: true },
      });
      expect(started.status).toBe(200);
      const taskId = started.body.data!.taskId!;
      // well into its work: hashing the large file
      await vi.waitFor(
        async () => {
          const view = await call<DriveCheckView>(t.app, 'GET', '/cloud/check', {
            token: admin.token,
          });
          expect(view.body.data!.message).toBe('hashes');
        },
        { timeout: 20_000, interval: 50 },
      );

      // only an administrator cancels it
      expect((await call(t.app, 'DELETE', '/cloud/check', { token: carol.token })).status).toBe(
        403,
      );
      expect((await t.app.services.jobs.get(taskId))!.state).toBe('running');

      const asked = Date.now();
      const cancelled = await call<DriveCheckView>(t.app, 'DELETE', '/cloud/check', {
        token: admin.token,
      });
      expect(cancelled.status).toBe(200);
      expect(Date.now() - asked).toBeLessThan(5000);
      expect(cancelled.body.data).toMatchObject({ state: 'cancelled', taskId, repair: true });
      // polled as the page does: it has ended, cancelled, with what it found until then
      const view = await finished(admin.token);
      expect(view).toMatchObject({ state: 'cancelled', taskId, full: true, repair: true });
      expect(view.finishedAt).toBeGreaterThan(0);
      expect(view.report!.lostAndFound).toBeNull();
      expect(view.report!.findings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ kind: 'missing-bytes', item: '/gone.txt', repaired: false }),
          expect.objectContaining({ kind: 'stray-bytes', item: '/left-over.bin', repaired: false }),
        ]),
      );
      // nothing repaired: the stray bytes stay where they were, no recount was written
      expect(view.report!.findings.filter((f) => f.repaired)).toEqual([]);
      expect(await blobs.stat(stray)).not.toBeNull();
      expect((await t.app.services.jobs.get(taskId))!.state).toBe('cancelled');
      const tasks = await call<Task[]>(t.app, 'GET', '/cloud/task/progress', {
        token: admin.token,
      });
      expect(tasks.body.data!.filter((task) => task.type === 'driveCheck')).toEqual([]);

      // cancelling again, with nothing under way, answers the view as it is
      const again = await call<DriveCheckView>(t.app, 'DELETE', '/cloud/check', {
        token: admin.token,
      });
      expect(again.body.data).toMatchObject({ state: 'cancelled', taskId });
    } finally {
      fs.truncateSync(blobs.item(ADMIN.username, '/', 'huge.bin'), 0);
    }
  });

  it('stopped with the server, it is not taken for cancelled: it runs again after the start', async () => {
    const blobs = t.app.services.blobs;
    const huge = blobs.item(ADMIN.username, '/', 'huge.bin');
    fs.truncateSync(huge, 64 * 1024 ** 3);
    const { jobs } = t.app.services;
    try {
      const started = await call<DriveCheckView>(t.app, 'POST', '/cloud/check', {
        token: admin.token,
        body: { full: true },
      });
      const taskId = started.body.data!.taskId!;
      await vi.waitFor(async () => expect((await jobs.get(taskId))!.message).toBe('hashes'), {
        timeout: 20_000,
        interval: 50,
      });
      await jobs.stop();
      // given back to the queue, not recorded as cancelled
      expect((await jobs.get(taskId))!.state).toBe('queued');
      const view = await call<DriveCheckView>(t.app, 'GET', '/cloud/check', {
        token: admin.token,
      });
      expect(view.body.data).toMatchObject({ state: 'queued', taskId });
      fs.truncateSync(huge, 0);
      jobs.start();
      const done = await finished(admin.token);
      expect(done).toMatchObject({ state: 'done', taskId, full: true });
    } finally {
      fs.truncateSync(huge, 0);
    }
  });
});
