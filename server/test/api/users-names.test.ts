import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { testConfig } from '../../src/config.ts';
import { hashPassword } from '../../src/lib/password.ts';
import {
  ADMIN,
  call,
  databaseAt,
  login,
  makeTestApp,
  setupAdmin,
  type TestApp,
} from '../harness.ts';

// A username names one account regardless of case (it is also a folder name, and some disks
// ignore case); sign-in matches it regardless of case too.

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function fresh(): Promise<TestApp> {
  const t = await makeTestApp();
  closers.push(() => t.close());
  return t;
}

describe('usernames regardless of case', () => {
  it('refuses a username that differs from an existing one only in case', async () => {
    const t = await fresh();
    const admin = await setupAdmin(t.app);
    const add = (username: string) =>
      call(t.app, 'POST', '/user/add', {
        token: admin.token,
        body: { username, password: 'bob-secret' },
      });
    expect((await add('Bob')).body.code).toBe(0);
    for (const name of ['bob', 'BOB', 'bOb', 'ADMIN', 'Admin']) {
      const res = await add(name);
      expect([res.status, res.body.code, res.body.message], name).toEqual([
        409,
        4,
        'This username is already taken',
      ]);
    }
  });

  it('signs in with any case of the username', async () => {
    const t = await fresh();
    await setupAdmin(t.app);
    const upper = await login(t.app, 'ADMIN', ADMIN.password);
    const info = await call<{ username: string }>(t.app, 'GET', '/user/info', {
      token: upper.token,
    });
    expect(info.body.data?.username).toBe('admin');
  });

  it('lets one of several parallel additions of one name in any case win, and answers the others 409', async () => {
    const t = await fresh();
    const admin = await setupAdmin(t.app);
    const names = ['carl', 'CARL', 'Carl', 'cArl', 'caRl', 'carL'];
    const answers = await Promise.all(
      names.map((username) =>
        call(t.app, 'POST', '/user/add', {
          token: admin.token,
          body: { username, password: 'carl-secret' },
        }),
      ),
    );
    expect(answers.filter((a) => a.body.code === 0)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(names.length - 1);
    const listed = await call<Array<{ username: string }>>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { username: 'carl' },
    });
    expect(listed.body.count).toBe(1);
  });

  it('makes one creator of parallel first visits', async () => {
    const t = await fresh();
    const answers = await Promise.all(
      ['first', 'second', 'third', 'fourth'].map((username) =>
        call(t.app, 'POST', '/public/initialization', {
          body: { username, password: 'creator-secret' },
        }),
      ),
    );
    expect(answers.filter((a) => a.body.code === 0)).toHaveLength(1);
    for (const a of answers.filter((x) => x.body.code !== 0))
      expect([a.status, a.body.code]).toEqual([403, 8]);
    expect(await t.app.services.users.userCount()).toBe(1);
  });
});

describe('accounts created before usernames ignored case', () => {
  it('keeps twins working after the upgrade and refuses new ones', async () => {
    const { database, dataDir, url } = await databaseAt('007-upload-merge');
    const now = Date.now();
    const row = async (id: string, username: string, at: number) => ({
      id,
      username,
      showName: username,
      passwordHash: await hashPassword(`${username}-pass`),
      avatar: null,
      slogan: null,
      introduction: null,
      quotaGb: 1,
      usedBytes: 0,
      isCreator: 0 as 0 | 1,
      mfaSecret: null,
      mfaEnabled: 0 as const,
      theme: 'auto',
      passwordChangedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    // the table as migration 007 left it: no case column yet
    const legacy = database.db.withTables<{ user: Awaited<ReturnType<typeof row>> }>();
    await legacy
      .insertInto('user')
      .values([
        { ...(await row('u-creator', 'root', now - 3000)), isCreator: 1 },
        await row('u-lower', 'bob', now - 2000),
        await row('u-upper', 'BOB', now - 1000),
      ])
      .execute();
    const config = testConfig({ dataDir, databaseUrl: url });
    const app = await buildApp({ config, database, logger: false });
    closers.push(async () => {
      await app.close();
      await database.close();
    });

    const lower = await login(app, 'bob', 'bob-pass');
    const upper = await login(app, 'BOB', 'BOB-pass');
    expect(lower.userId).toBe('u-lower');
    expect(upper.userId).toBe('u-upper');
    // a spelling that is neither is not guessed
    const neither = await call(app, 'POST', '/login', {
      body: { username: 'Bob', password: 'bob-pass' },
    });
    expect(neither.status).toBe(401);

    const root = await login(app, 'root', 'root-pass');
    const again = await call(app, 'POST', '/user/add', {
      token: root.token,
      body: { username: 'bOB', password: 'third-pass' },
    });
    expect([again.status, again.body.code]).toEqual([409, 4]);
  });
});
