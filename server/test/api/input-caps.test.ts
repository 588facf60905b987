import { describe, expect, it } from 'vitest';
import { call, useAdminApp } from '../harness.ts';

// Every free-text field of sign-in, users, roles and menus has a length limit, checked before any
// work is done: a request cannot make the server hash, store or search megabytes.

const { t, admin } = useAdminApp({ once: true });

const long = (n: number) => 'x'.repeat(n);

describe('length limits', () => {
  it('refuses every over-long string with 422 before acting', async () => {
    const id = admin.userId;
    const cases: Array<{
      what: string;
      method: 'GET' | 'POST' | 'PUT' | 'DELETE';
      url: string;
      body?: unknown;
      query?: Record<string, string | string[]>;
      token?: string;
    }> = [
      {
        what: 'event stream username',
        method: 'GET',
        url: '/events',
        query: { username: long(65) },
      },
      {
        what: "a share file's id in its address",
        method: 'GET',
        url: `/share-file/${long(129)}/a.txt`,
      },
      {
        what: 'sign-in username',
        method: 'POST',
        url: '/login',
        body: { username: long(33), password: 'pass-1234' },
      },
      {
        what: 'sign-in password',
        method: 'POST',
        url: '/login',
        body: { username: 'admin', password: long(129) },
      },
      {
        what: 'first-visit username',
        method: 'POST',
        url: '/public/initialization',
        body: { username: long(33), password: 'pass-1234' },
      },
      {
        what: 'current password to check',
        method: 'POST',
        url: '/valid-old-pass',
        body: { id, password: long(129) },
      },
      {
        what: 'current password of a change',
        method: 'PUT',
        url: '/user/update-pass',
        body: { id, oldPassword: long(129), password: 'pass-1234' },
      },
      {
        what: 'new password',
        method: 'PUT',
        url: '/user/update-pass',
        body: { id, oldPassword: 'x', password: long(129) },
      },
      { what: 'user id', method: 'GET', url: '/user/userInfo', query: { id: long(65) } },
      {
        what: 'username filter',
        method: 'GET',
        url: '/user/userList',
        query: { username: long(65) },
      },
      { what: 'name filter', method: 'GET', url: '/user/userList', query: { showName: long(65) } },
      { what: 'ids to delete', method: 'DELETE', url: '/user/delete', query: { ids: [long(65)] } },
      {
        what: 'display name of a new user',
        method: 'POST',
        url: '/user/add',
        body: { username: 'newbie', password: 'pass-1234', showName: long(65) },
      },
      {
        what: 'a role of a new user',
        method: 'POST',
        url: '/user/add',
        body: { username: 'newbie', password: 'pass-1234', roles: [long(65)] },
      },
      {
        what: 'too many roles',
        method: 'PUT',
        url: '/user/update',
        body: { id, roles: Array.from({ length: 101 }, (_, i) => `r${i}`) },
      },
      {
        what: 'display name',
        method: 'PUT',
        url: '/user/update',
        body: { id, showName: long(65) },
      },
      { what: 'slogan', method: 'PUT', url: '/user/update', body: { id, slogan: long(201) } },
      {
        what: 'introduction',
        method: 'PUT',
        url: '/user/update',
        body: { id, introduction: long(2001) },
      },
      {
        what: 'reset password id',
        method: 'PUT',
        url: '/user/reset-pass',
        body: { id: long(65) },
      },
      {
        what: 'role name',
        method: 'POST',
        url: '/role/add',
        body: { name: long(65), code: 'c1', menuIds: ['home'] },
      },
      {
        what: 'role remarks',
        method: 'POST',
        url: '/role/add',
        body: { name: 'r', code: 'c1', remarks: long(501), menuIds: ['home'] },
      },
      {
        what: 'menu of a role',
        method: 'POST',
        url: '/role/add',
        body: { name: 'r', code: 'c1', menuIds: [long(65)] },
      },
      {
        what: 'role id',
        method: 'PUT',
        url: '/role/update',
        body: { id: long(65), name: 'r' },
      },
      {
        what: 'menu parent',
        method: 'POST',
        url: '/menu/add',
        body: { name: 'm', menuType: 1, parentId: long(65) },
      },
      {
        what: 'menu authority',
        method: 'POST',
        url: '/menu/add',
        body: { name: 'm', menuType: 1, authority: long(101) },
      },
      { what: 'menu id', method: 'PUT', url: '/menu/update', body: { id: long(65), name: 'm' } },
    ];
    for (const c of cases) {
      const res = await call(t.app, c.method, c.url, {
        token: c.token ?? admin.token,
        body: c.body,
        query: c.query,
      });
      expect([res.status, res.body.code], c.what).toEqual([422, 10]);
    }
    // nothing was added
    const users = await call(t.app, 'GET', '/user/userList', { token: admin.token });
    expect(users.body.count).toBe(1);
  });
});
