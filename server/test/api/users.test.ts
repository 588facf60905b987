import { describe, expect, it } from 'vitest';
import type { UserListItem } from '@nimbus/contract';
import { call, login, makeUser, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();

describe('user administration', () => {
  it('adds, lists with paging and filters, updates and deletes users', async () => {
    for (const name of ['carol', 'dave', 'erin', 'x_y']) {
      const res = await call(t.app, 'POST', '/user/add', {
        token: admin.token,
        body: { username: name, password: 'pass-1234', showName: name.toUpperCase(), quota: 2 },
      });
      expect(res.body.code).toBe(0);
    }
    const page = await call<UserListItem[]>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { page: 1, pageSize: 2, sortProp: 'username', sortOrder: 'ascending' },
    });
    expect(page.body.count).toBe(5);
    expect(page.body.data?.map((u) => u.username)).toEqual(['admin', 'carol']);

    const filtered = await call<UserListItem[]>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { username: 'av' },
    });
    expect(filtered.body.data?.map((u) => u.username)).toEqual(['dave']);

    // LIKE wildcards in a filter match literally
    const wildcard = await call<UserListItem[]>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { username: '%' },
    });
    expect(wildcard.body.code).toBe(0);
    expect(wildcard.body.count).toBe(0);
    const underscore = await call<UserListItem[]>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { username: '_' },
    });
    expect(underscore.body.data?.map((u) => u.username)).toEqual(['x_y']);

    const dave = filtered.body.data![0]!;
    const upd = await call<UserListItem>(t.app, 'PUT', '/user/update', {
      token: admin.token,
      body: { id: dave.id, showName: 'David', quota: 5 },
    });
    expect(upd.body.data).toMatchObject({ showName: 'David', quota: 5 });

    const del = await call(t.app, 'DELETE', '/user/delete', {
      token: admin.token,
      query: { ids: [dave.id] },
    });
    expect(del.body.code).toBe(0);
    const info = await call(t.app, 'GET', '/user/userInfo', {
      token: admin.token,
      query: { id: dave.id },
    });
    expect(info.body.code).toBe(12);
  });

  it('deletes several users given as repeated ids', async () => {
    const a = await makeUser(t.app, admin.token);
    const b = await makeUser(t.app, admin.token);
    const res = await call(t.app, 'DELETE', '/user/delete', {
      token: admin.token,
      query: { ids: [a.userId, b.userId] },
    });
    expect(res.body.code).toBe(0);
    // their sessions go with them
    expect((await call(t.app, 'GET', '/user/info', { token: a.token })).body.code).toBe(5);
  });

  it('refuses a taken username and unsafe usernames', async () => {
    await makeUser(t.app, admin.token, { username: 'frank' });
    const dup = await call(t.app, 'POST', '/user/add', {
      token: admin.token,
      body: { username: 'frank', password: 'pass-1234' },
    });
    expect(dup).toMatchObject({ status: 409, body: { code: 4 } });
    for (const username of ['..', 'a/b', 'a\\b', '.hidden', 'tab\tname', '名字']) {
      const res = await call(t.app, 'POST', '/user/add', {
        token: admin.token,
        body: { username, password: 'pass-1234' },
      });
      expect(res.body.code, username).toBe(10);
    }
  });

  it('names a user by id through one cache that forgets deleted users', async () => {
    const { users } = t.app.services;
    const other = await makeUser(t.app, admin.token);
    expect(await users.usernameOf(admin.userId)).toBe('admin');
    const name = await users.usernameOf(other.userId);
    expect(name).toMatch(/\w/);
    expect(await users.usernameOf('no-such-user')).toBeUndefined();
    await call(t.app, 'DELETE', '/user/delete', {
      token: admin.token,
      query: { ids: [other.userId] },
    });
    expect(await users.usernameOf(other.userId)).toBeUndefined();
  });

  it('never deletes the creator', async () => {
    const other = await makeUser(t.app, admin.token);
    const res = await call(t.app, 'DELETE', '/user/delete', {
      token: admin.token,
      query: { ids: [admin.userId, other.userId] },
    });
    expect(res.status).toBe(403);
    expect(res.body.message).toMatch(/creator/);
    // nothing was deleted
    expect(
      (
        await call(t.app, 'GET', '/user/userInfo', {
          token: admin.token,
          query: { id: other.userId },
        })
      ).body.code,
    ).toBe(0);
  });

  it('keeps ordinary users away from every admin endpoint', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const attempts: Array<[method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, opts: object]> =
      [
        ['GET', '/user/userList', {}],
        ['POST', '/user/add', { body: { username: 'mallory', password: 'pass-1234' } }],
        ['PUT', '/user/update', { body: { id: bob.userId, quota: 999 } }],
        ['DELETE', '/user/delete', { query: { ids: [admin.userId] } }],
        ['PUT', '/user/reset-pass', { body: { id: admin.userId } }],
        ['PUT', '/user/update-pass', { body: { id: admin.userId, password: 'taken-over' } }],
        ['GET', '/menu/list', {}],
        ['GET', '/menu/authorities', {}],
        ['POST', '/menu/add', { body: { name: 'x', menuType: 0 } }],
        ['PUT', '/menu/update', { body: { id: 'home', name: 'x' } }],
        ['DELETE', '/menu/delete', { query: { ids: ['home'] } }],
        ['GET', '/role/list', {}],
        ['POST', '/role/add', { body: { name: 'x', code: 'x', menuIds: ['home'] } }],
        ['DELETE', '/role/delete', { query: { ids: ['role-user'] } }],
        ['PUT', '/user/setting/resetMenuAndRole', {}],
        ['PUT', '/user/setting/update_netdisk_name', { query: { netdiskName: 'Mine' } }],
      ];
    for (const [method, url, opts] of attempts) {
      const res = await call(t.app, method, url, { token: bob.token, ...opts });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.code, `${method} ${url}`).toBe(8);
    }
    // and the admin's password still works
    await login(t.app, 'admin', 'admin-secret');
  });

  it('resets a password to one the admin sets, or to a generated one shown once', async () => {
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    const gen = await call<{ password: string }>(t.app, 'PUT', '/user/reset-pass', {
      token: admin.token,
      body: { id: carol.userId },
    });
    expect(gen.body.data?.password).toMatch(/^\w{12}$/);
    expect((await call(t.app, 'GET', '/user/info', { token: carol.token })).body.code).toBe(5);
    await login(t.app, 'carol', gen.body.data!.password);

    const set = await call(t.app, 'PUT', '/user/reset-pass', {
      token: admin.token,
      body: { id: carol.userId, password: 'chosen-pass' },
    });
    expect(set.body.code).toBe(0);
    await login(t.app, 'carol', 'chosen-pass');
    const short = await call(t.app, 'PUT', '/user/reset-pass', {
      token: admin.token,
      body: { id: carol.userId, password: '123' },
    });
    expect(short.body.code).toBe(10);
  });

  it('checks the old password before a change', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-pass-1' });
    const valid = await call(t.app, 'POST', '/valid-old-pass', {
      token: bob.token,
      body: { id: bob.userId, password: 'bob-pass-1' },
    });
    expect(valid.body.code).toBe(0);
    const invalid = await call(t.app, 'POST', '/valid-old-pass', {
      token: bob.token,
      body: { id: bob.userId, password: 'nope-nope' },
    });
    expect(invalid.body.code).toBe(-2);
    const wrongOld = await call(t.app, 'PUT', '/user/update-pass', {
      token: bob.token,
      body: { id: bob.userId, oldPassword: 'nope-nope', password: 'bob-pass-2' },
    });
    expect(wrongOld.body.code).toBe(-2);
    await login(t.app, 'bob', 'bob-pass-1');
  });

  it('keeps the administrator role on the creator', async () => {
    const res = await call(t.app, 'PUT', '/user/update', {
      token: admin.token,
      body: { id: admin.userId, roles: ['role-user'] },
    });
    expect(res.body.code).toBe(10);
  });
});
