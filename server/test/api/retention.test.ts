import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRASH_EXPIRY_OPERATION } from '@nimbus/contract';
import type {
  AuditEntry,
  HistoryRetention,
  HistoryVersion,
  WebsiteSetting,
} from '@nimbus/contract';
import type { LiveEvent } from '../../src/events/bus.ts';
import { JOB_RETENTION } from '../../src/modules/retention/retention.jobs.ts';
import { call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder } from '../share-fixtures.ts';

// Retention: trash items older than the administrator's days leave the trash by themselves, and
// versions beyond the settings go, on the next run of the background job. Time is moved by
// dating rows back, as a clock would have.

const DAY = 24 * 60 * 60 * 1000;

/** Ask again until `check` holds (events are delivered a moment after they are published). */
async function until(check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const { t, admin } = useAdminApp({ once: true });

type User = Awaited<ReturnType<typeof makeUser>>;
let users = 0;
const newUser = () => makeUser(t.app, admin.token, { username: `keeper${++users}` });
const owner = (u: User) => ({ userId: u.userId, username: u.username });

const settings = (body: Record<string, unknown>) =>
  call<WebsiteSetting>(t.app, 'PUT', '/website/setting/update', { token: admin.token, body });

/** One run of the background job, as the schedule starts it. */
async function runRetention(): Promise<void> {
  const { jobs } = t.app.services;
  const job = await jobs.waitFor(await jobs.enqueue(JOB_RETENTION, {}, { userId: null }), 30_000);
  expect(job.state, job.message ?? '').toBe('done');
}

const used = async (u: User) =>
  (await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token: u.token })).body.data!
    .takeUpSpace;

const trashNames = async (u: User) =>
  (
    await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: u.token,
      query: { queryFileType: 'trash', pageSize: 100 },
    })
  ).body
    .data!.map((f) => f.name)
    .sort();

async function trash(u: User, ids: string[]): Promise<void> {
  const del = await call(t.app, 'DELETE', '/delete', { token: u.token, query: { fileIds: ids } });
  expect(del.body.code, del.body.message).toBe(0);
}

/** The trash entry `id` (and what went with it) as put there `days` ago. */
const trashedDaysAgo = (id: string, days: number) =>
  t.database.db
    .updateTable('file')
    .set({ trashedAt: Date.now() - days * DAY })
    .where('trashId', '=', id)
    .execute();

const auditOf = async (action: string, username: string) =>
  (
    await call<AuditEntry[]>(t.app, 'GET', '/audit/list', {
      token: admin.token,
      query: { action, username },
    })
  ).body.data!;

describe('trash retention', () => {
  it('is off by default: a trash item years old stays', async () => {
    const setting = await call<WebsiteSetting>(t.app, 'GET', '/website/setting', {
      token: admin.token,
    });
    expect(setting.body.data).toMatchObject({ trashRetentionDays: 0, versionRetentionDays: 0 });
    const u = await newUser();
    const id = await putFile(t, owner(u), '/', 'ancient.txt', 'kept forever');
    await trash(u, [id]);
    await trashedDaysAgo(id, 3000);
    const before = await used(u);
    await runRetention();
    expect(await trashNames(u)).toEqual(['ancient.txt']);
    expect(await used(u)).toBe(before);
    expect(await auditOf('trash.expire', u.username)).toEqual([]);
  });

  it('takes items older than the days set on the next run, keeps younger ones, gives the space back and says so in the audit log', async () => {
    const u = await newUser();
    const old = await putFile(t, owner(u), '/', 'old.txt', 'o'.repeat(1000));
    const young = await putFile(t, owner(u), '/', 'young.txt', 'y'.repeat(300));
    const box = await makeFolder(t, u.token, '/', 'box');
    await putFile(t, owner(u), '/box', 'inside.txt', 'i'.repeat(500));
    await trash(u, [old, young, box]);
    await trashedDaysAgo(old, 31);
    await trashedDaysAgo(box, 45);
    await trashedDaysAgo(young, 29);
    expect(await used(u)).toBe(1800);

    // the owner's browsers hear of it as of their own "delete for good": the trash view
    // reloads and the quota bar shows the space given back
    const heard: LiveEvent[] = [];
    const stop = t.app.services.events.subscribe(u.userId, (e) => heard.push(e));
    const set = await settings({ trashRetentionDays: 30 });
    expect(set.body.data!.trashRetentionDays).toBe(30);
    // two runs at once (two nodes, a retry after a crash) free the space once
    await Promise.all([runRetention(), t.app.services.retention.run()]);

    expect(await trashNames(u)).toEqual(['young.txt']);
    expect(await used(u)).toBe(300);
    await until(() => heard.some((e) => e.url === 'operationTips'));
    stop();
    const told = heard.filter((e) => e.url === 'operationTips');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({
      body: { operation: TRASH_EXPIRY_OPERATION, success: true },
      space: 300,
    });
    const trashFolder = path.join(t.dataDir, 'trash', u.username);
    expect(fs.readdirSync(trashFolder)).toEqual([young]);
    const entries = await auditOf('trash.expire', u.username);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ ok: true, username: u.username, ip: '' });
    expect(entries[0]!.target).toMatch(
      /2 trash item\(s\) older than 30 days: (old\.txt, box|box, old\.txt)/,
    );

    // the next run finds nothing more to take
    await runRetention();
    expect(await trashNames(u)).toEqual(['young.txt']);
    expect(await auditOf('trash.expire', u.username)).toHaveLength(1);
    await settings({ trashRetentionDays: 0 });
  });

  it('refuses days out of bounds, naming the field', async () => {
    for (const body of [
      { trashRetentionDays: -1 },
      { trashRetentionDays: 3651 },
      { trashRetentionDays: 1.5 },
      { versionRetentionDays: -1 },
      { versionRetentionDays: 'ten' },
    ]) {
      const bad = await settings(body);
      expect(bad.status, JSON.stringify(body)).toBe(422);
      expect(bad.body.message).toContain(Object.keys(body)[0]);
    }
  });
});

describe('version retention', () => {
  const save = (u: User, fileId: string, contentText: string) =>
    call(t.app, 'POST', '/markdown/edit', { token: u.token, body: { fileId, contentText } });
  const versions = async (u: User, fileId: string) =>
    (
      await call<HistoryVersion[]>(t.app, 'GET', '/history/list', {
        token: u.token,
        query: { fileId, pageSize: 100 },
      })
    ).body.data!;
  /** Versions of `fileId` made `days` ago: the oldest `count` of them. */
  async function madeDaysAgo(fileId: string, days: number, oldest?: number): Promise<void> {
    const rows = await t.database.db
      .selectFrom('fileVersion')
      .select(['id', 'createdAt'])
      .where('fileId', '=', fileId)
      .orderBy('createdAt')
      .execute();
    const chosen = rows.slice(0, oldest ?? rows.length);
    for (const [i, row] of chosen.entries())
      await t.database.db
        .updateTable('fileVersion')
        // keep their order: the oldest stays the oldest
        .set({ createdAt: Date.now() - days * DAY - (chosen.length - i) * 1000 })
        .where('id', '=', row.id)
        .execute();
  }

  it('keeps the newest N and those younger than D days, the newest always, and gives the space back', async () => {
    const u = await newUser();
    // many.md: v1..v5 kept, all three days old; with N = 2, v1..v3 go
    const many = await putFile(t, owner(u), '/', 'many.md', 'v1');
    for (const text of ['v2', 'v3', 'v4', 'v5', 'v6']) await save(u, many, text);
    await madeDaysAgo(many, 3);
    // aged.md: two versions, both 40 days old; with D = 30 the older goes, the newest stays
    const aged = await putFile(t, owner(u), '/', 'aged.md', 'a1');
    for (const text of ['a2', 'a3']) await save(u, aged, text);
    await madeDaysAgo(aged, 40);
    // burst.md: three versions of today: none goes (the count prunes only after a day)
    const burst = await putFile(t, owner(u), '/', 'burst.md', 'b1');
    for (const text of ['b2', 'b3', 'b4']) await save(u, burst, text);
    const before = await used(u);
    const stored = async (fileId: string) =>
      (
        await t.database.db
          .selectFrom('fileVersion')
          .select(['id', 'storedSize'])
          .where('fileId', '=', fileId)
          .orderBy('createdAt', 'desc')
          .execute()
      ).map((r) => ({ id: r.id, storedSize: Number(r.storedSize) }));
    const goneOfMany = (await stored(many)).slice(2);
    const goneOfAged = (await stored(aged)).slice(1);

    expect((await settings({ versionsPerFile: 2, versionRetentionDays: 30 })).body.code).toBe(0);
    const policy = await call<HistoryRetention>(t.app, 'GET', '/history/retention', {
      token: u.token,
    });
    expect(policy.body.data).toEqual({ versionsPerFile: 2, versionRetentionDays: 30 });
    await runRetention();

    expect((await versions(u, many)).map((v) => v.filename)).toHaveLength(2);
    expect(await stored(many)).toHaveLength(2);
    expect(await stored(aged)).toHaveLength(1);
    expect(await stored(burst)).toHaveLength(3);
    const freed = [...goneOfMany, ...goneOfAged].reduce((n, v) => n + v.storedSize, 0);
    expect(await used(u)).toBe(before - freed);
    for (const v of goneOfMany)
      expect(fs.existsSync(path.join(t.dataDir, 'versions', u.userId, many, v.id))).toBe(false);
    const entries = await auditOf('versions.expire', u.username);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.target).toContain('4 version(s) beyond the newest 2 younger than 30 days');

    // the next run changes nothing
    await runRetention();
    expect(await used(u)).toBe(before - freed);
    expect(await auditOf('versions.expire', u.username)).toHaveLength(1);
  });
  it('gives the space of a version back once when it is deleted twice at once', async () => {
    const u = await newUser();
    const id = await putFile(t, owner(u), '/', 'twice.md', 'first');
    await save(u, id, 'second');
    const [version] = await versions(u, id);
    const before = await used(u);
    const stored = await t.database.db
      .selectFrom('fileVersion')
      .select('storedSize')
      .where('id', '=', version!.id)
      .executeTakeFirstOrThrow();
    const answers = await Promise.all(
      [1, 2].map(() =>
        call(t.app, 'DELETE', '/history/delete', {
          token: u.token,
          query: { id: version!.id, fileId: id },
        }),
      ),
    );
    expect(answers.some((a) => a.body.code === 0)).toBe(true);
    expect(await used(u)).toBe(before - Number(stored.storedSize));
  });
});
