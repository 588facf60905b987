import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/lib/password.ts';
import { ADMIN, call, login, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';

let t: TestApp;
beforeEach(async () => {
  t = await makeTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('first run', () => {
  it('reports no user until the administrator is created, then only once', async () => {
    const before = await call(t.app, 'GET', '/public/has_user');
    expect(before.body).toMatchObject({ code: 0, data: true, count: 0 });

    const init = await call(t.app, 'POST', '/public/initialization', { body: ADMIN });
    expect(init.body.code).toBe(0);
    expect((await call(t.app, 'GET', '/public/has_user')).body.count).toBe(1);

    const again = await call(t.app, 'POST', '/public/initialization', {
      body: { username: 'intruder', password: 'intruder-pass' },
    });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe(8);
    expect(again.body.message).toMatch(/already initialized/);
  });

  it('refuses a short password and an unsafe username', async () => {
    const short = await call(t.app, 'POST', '/public/initialization', {
      body: { username: 'admin', password: '12345' },
    });
    expect(short.status).toBe(422);
    expect(short.body.code).toBe(10);
    expect(short.body.message).toMatch(/at least 6/);

    for (const username of ['../etc', 'a/b', '', 'x'.repeat(40), 'bad name']) {
      const res = await call(t.app, 'POST', '/public/initialization', {
        body: { username, password: 'long-enough' },
      });
      expect(res.body.code, username).toBe(10);
    }
    expect((await call(t.app, 'GET', '/public/has_user')).body.count).toBe(0);
  });

  it('creates the creator as an administrator', async () => {
    const { token } = await setupAdmin(t.app);
    const info = await call<{ creator: boolean; roles: string[]; username: string }>(
      t.app,
      'GET',
      '/user/info',
      { token },
    );
    expect(info.body.data).toMatchObject({ creator: true, roles: ['admin'], username: 'admin' });
  });
});

describe('login', () => {
  beforeEach(async () => {
    await call(t.app, 'POST', '/public/initialization', { body: ADMIN });
  });

  it('trims the username and returns the token fields', async () => {
    const res = await call<Record<string, string>>(t.app, 'POST', '/login', {
      body: { username: `  ${ADMIN.username} `, password: ADMIN.password },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.data?.['nimbus-token']).toMatch(/^[\w-]{40,}$/);
    expect(res.body.data?.username).toBe('admin');
    expect(res.body.data?.userId).toBeTruthy();
    expect(String(res.headers['set-cookie'])).toMatch(/nimbus-token=.*HttpOnly/i);
  });

  it('answers a wrong password and an unknown user alike', async () => {
    const wrong = await call(t.app, 'POST', '/login', {
      body: { username: 'admin', password: 'wrong-pass' },
    });
    const unknown = await call(t.app, 'POST', '/login', {
      body: { username: 'nobody', password: 'wrong-pass' },
    });
    expect(wrong.body).toEqual({ code: -1, message: 'Wrong username or password' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses a password shorter than 6 characters before checking it', async () => {
    const res = await call(t.app, 'POST', '/login', {
      body: { username: 'admin', password: 'abc' },
    });
    expect(res.body.code).toBe(10);
  });

  it('throttles repeated failures per username with a clear message, even for the right password', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, 'POST', '/login', {
        body: { username: 'admin', password: `wrong-${i}xx` },
      });
      expect(res.body.code).toBe(-1);
    }
    const locked = await call(t.app, 'POST', '/login', { body: ADMIN });
    expect(locked.status).toBe(429);
    expect(locked.body.code).toBe(22);
    expect(locked.body.message).toMatch(
      /Too many failed sign-in attempts\. Try again in 15 minutes/,
    );
  });

  it('throttles one address trying many usernames', async () => {
    for (let i = 0; i < 20; i++) {
      await call(t.app, 'POST', '/login', {
        body: { username: `guess${i}`, password: 'wrong-pass' },
      });
    }
    const res = await call(t.app, 'POST', '/login', { body: ADMIN });
    expect(res.body.code).toBe(22);
  });
});

describe('password hashes of an older, lighter cost', () => {
  it('are made again at the current cost by the next right password, in the app and over WebDAV', async () => {
    const strong = await makeTestApp({ passwordCost: 11 });
    try {
      const admin = await setupAdmin(strong.app);
      const bob = await makeUser(strong.app, admin.token, {
        username: 'bob',
        password: 'bob-secret-1',
      });
      const { db } = strong.database;
      const stored = async () =>
        db
          .selectFrom('user')
          .select(['passwordHash', 'passwordChangedAt'])
          .where('id', '=', bob.userId)
          .executeTakeFirstOrThrow();
      const weaken = async () => {
        await db
          .updateTable('user')
          .set({ passwordHash: await hashPassword('bob-secret-1', 10) })
          .where('id', '=', bob.userId)
          .execute();
        return stored();
      };
      const cost = (hash: string) => hash.split('$')[1];

      const weak = await weaken();
      expect(cost(weak.passwordHash)).toBe('1024');
      // a wrong password changes nothing
      const wrong = await call(strong.app, 'POST', '/login', {
        body: { username: 'bob', password: 'bob-secret-2' },
      });
      expect(wrong.status).toBe(401);
      expect((await stored()).passwordHash).toBe(weak.passwordHash);

      await login(strong.app, 'bob', 'bob-secret-1');
      const after = await stored();
      expect(cost(after.passwordHash)).toBe('2048');
      // not a change of password: its date stays and the sessions open before go on
      expect(after.passwordChangedAt).toBe(weak.passwordChangedAt);
      expect((await call(strong.app, 'GET', '/user/info', { token: bob.token })).status).toBe(200);
      await login(strong.app, 'bob', 'bob-secret-1');

      // WebDAV's password sign-in does the same
      await weaken();
      const dav = await strong.app.inject({
        method: 'PROPFIND',
        url: '/webdav/',
        headers: {
          authorization: `Basic ${Buffer.from('bob:bob-secret-1').toString('base64')}`,
          depth: '0',
        },
      });
      expect(dav.statusCode).toBe(207);
      expect(cost((await stored()).passwordHash)).toBe('2048');
    } finally {
      await strong.close();
    }
  });
});

describe('sessions', () => {
  it('logout revokes the token on the server', async () => {
    const { token } = await setupAdmin(t.app);
    expect((await call(t.app, 'GET', '/user/info', { token })).body.code).toBe(0);
    expect((await call(t.app, 'GET', '/logout', { token })).body.code).toBe(0);
    const after = await call(t.app, 'GET', '/user/info', { token });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe(5);
    expect(after.body.message).toMatch(/expired/);
  });

  it('answers code 5 without a token and for a made-up token', async () => {
    const none = await call(t.app, 'GET', '/user/info');
    expect(none).toMatchObject({ status: 401, body: { code: 5 } });
    const fake = await call(t.app, 'GET', '/user/info', { token: 'made-up-token' });
    expect(fake.body.code).toBe(5);
  });

  it('expires a session after its lifetime, and remember me lasts longer', async () => {
    await t.close();
    t = await makeTestApp({ sessionTtlMs: 1500, rememberTtlMs: 60_000 });
    await setupAdmin(t.app);
    const short = await login(t.app, ADMIN.username, ADMIN.password, false);
    const long = await login(t.app, ADMIN.username, ADMIN.password, true);
    await new Promise((r) => setTimeout(r, 1700));
    expect((await call(t.app, 'GET', '/user/info', { token: short.token })).body.code).toBe(5);
    expect((await call(t.app, 'GET', '/user/info', { token: long.token })).body.code).toBe(0);
  });

  it('rotates a session past half its lifetime and sends the new token in a header', async () => {
    await t.close();
    t = await makeTestApp({ sessionTtlMs: 2000 });
    const { token } = await setupAdmin(t.app);
    const early = await call(t.app, 'GET', '/user/info', { token });
    expect(early.headers['nimbus-token']).toBeUndefined();
    await new Promise((r) => setTimeout(r, 1100));
    const late = await call(t.app, 'GET', '/user/info', { token });
    const fresh = late.headers['nimbus-token'];
    expect(typeof fresh).toBe('string');
    expect(fresh).not.toBe(token);
    expect((await call(t.app, 'GET', '/user/info', { token: String(fresh) })).body.code).toBe(0);
  });

  it('a password change signs out the other sessions but keeps the current one', async () => {
    const { token, userId } = await setupAdmin(t.app);
    const other = await login(t.app, ADMIN.username, ADMIN.password);
    const res = await call(t.app, 'PUT', '/user/update-pass', {
      token,
      body: { id: userId, oldPassword: ADMIN.password, password: 'new-secret' },
    });
    expect(res.body.code).toBe(0);
    expect((await call(t.app, 'GET', '/user/info', { token })).body.code).toBe(0);
    expect((await call(t.app, 'GET', '/user/info', { token: other.token })).body.code).toBe(5);
    await login(t.app, ADMIN.username, 'new-secret');
  });

  it('survives a restart: tokens live in the database', async () => {
    const { token } = await setupAdmin(t.app);
    t = await t.restart();
    expect((await call(t.app, 'GET', '/user/info', { token })).body.code).toBe(0);
  });

  it('takes the cookie or query token only where the browser reads bytes (no CSRF)', async () => {
    const { token } = await setupAdmin(t.app);
    const viaCookie = await t.app.inject({
      method: 'POST',
      url: '/api/user/setting/personalization',
      headers: { cookie: `nimbus-token=${token}` },
      payload: { theme: 'dark' },
    });
    expect(viaCookie.json().code).toBe(5);
    // nor for API GETs, some of which change things (rename, move, copy…) or reveal data
    const { files } = t.app.services;
    const admin = (await t.app.services.auth.actorFor(
      (await t.app.services.users.accountByUsername('admin'))!.id,
    ))!;
    const folder = await files.newFolder(admin, '/', 'victim');
    for (const url of [
      `/api/rename?id=${folder.id}&newFileName=pwned`,
      '/api/user/info',
      '/api/list',
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie: `nimbus-token=${token}` },
      });
      expect(res.json().code, url).toBe(5);
      const byQuery = await t.app.inject({
        method: 'GET',
        url: `${url}${url.includes('?') ? '&' : '?'}nimbus-token=${token}`,
      });
      expect(byQuery.json().code, url).toBe(5);
    }
    expect((await files.info(admin, folder.id)).name).toBe('victim');
    // file bytes opened by the browser do take the cookie
    const bytes = await t.app.inject({
      method: 'GET',
      url: `/api/packageDownload?fileIds=${folder.id}`,
      headers: { cookie: `nimbus-token=${token}` },
    });
    expect(bytes.statusCode).toBe(200);
  });
});

describe('user info and personalization', () => {
  it('has the userInfo fields of the spec and saves the theme', async () => {
    const { token } = await setupAdmin(t.app);
    const info = await call<Record<string, unknown>>(t.app, 'GET', '/user/info', { token });
    for (const field of [
      'id',
      'username',
      'showName',
      'netdiskName',
      'exactSearch',
      'newVersion',
      'iframe',
      'personalization',
      'quota',
      'takeUpSpace',
    ]) {
      expect(info.body.data, field).toHaveProperty(field);
    }
    // no avatar and no logo yet: left out, never null (a client of the original would ask for
    // `/api/file/null`)
    expect(info.body.data).not.toHaveProperty('avatar');
    expect(info.body.data).not.toHaveProperty('netdiskLogo');
    expect(info.body.data?.personalization).toEqual({ theme: 'auto' });

    expect(
      (
        await call(t.app, 'POST', '/user/setting/personalization', {
          token,
          body: { theme: 'dark' },
        })
      ).body.code,
    ).toBe(0);
    expect(
      (await call(t.app, 'GET', '/user/setting/personalization', { token })).body.data,
    ).toEqual({ theme: 'dark' });
    const bad = await call(t.app, 'POST', '/user/setting/personalization', {
      token,
      body: { theme: 'neon' },
    });
    expect(bad.body.code).toBe(10);
  });

  it('an ordinary user sees their own info only', async () => {
    const admin = await setupAdmin(t.app);
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const own = await call<{ username: string; creator: boolean }>(t.app, 'GET', '/user/info', {
      token: bob.token,
    });
    expect(own.body.data).toMatchObject({ username: 'bob', creator: false });
    const other = await call(t.app, 'GET', '/user/userInfo', {
      token: bob.token,
      query: { id: admin.userId },
    });
    expect(other.status).toBe(403);
  });
});

describe('logging', () => {
  it('masks tokens in logged URLs', async () => {
    const { redactUrl } = await import('../../src/app.ts');
    expect(redactUrl('/api/pre-file/1/a.txt?nimbus-token=secret123&o=download')).toBe(
      '/api/pre-file/1/a.txt?nimbus-token=***&o=download',
    );
    expect(redactUrl('/api/x?share-token=abc')).toBe('/api/x?share-token=***');
    expect(redactUrl('/api/x?a=1')).toBe('/api/x?a=1');
  });
});

describe('form bodies', () => {
  it('initializes the drive from a form body, as the original client sends it', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/public/initialization',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=formadmin&password=form-secret',
    });
    expect(res.json()).toMatchObject({ code: 0 });
    await login(t.app, 'formadmin', 'form-secret');
  });
});
