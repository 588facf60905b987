import { beforeEach, describe, expect, it } from 'vitest';
import type { Role, UserListItem } from '@nimbus/contract';
import { ADMIN, call, login, makeUser, useAdminApp } from '../harness.ts';

// User administration handed to a role that is not the administrator's: its holders administer
// ordinary users, and nothing they do gives them (or anyone) more than they hold.

/** A role with only the user-administration authorities (list, add, edit, delete users). */
let deputyRole: Role;
/** A role with a drive-wide authority the deputy does not hold. */
let powerRole: Role;
let deputy: { token: string; userId: string };
let olive: { token: string; userId: string };
let adam: { token: string; userId: string };
let pete: { token: string; userId: string };

async function addRole(name: string, code: string, menuIds: string[]): Promise<Role> {
  const res = await call<Role>(t.app, 'POST', '/role/add', {
    token: admin.token,
    body: { name, code, menuIds },
  });
  if (res.body.code !== 0) throw new Error(`role/add failed: ${res.body.message}`);
  return res.body.data!;
}

async function addUser(
  username: string,
  roles: string[],
): Promise<{ token: string; userId: string }> {
  const res = await call(t.app, 'POST', '/user/add', {
    token: admin.token,
    body: { username, password: `${username}-secret`, roles },
  });
  if (res.body.code !== 0) throw new Error(`user/add failed: ${res.body.message}`);
  return login(t.app, username, `${username}-secret`);
}

const { t, admin } = useAdminApp();
beforeEach(async () => {
  deputyRole = await addRole('User desk', 'userdesk', [
    'sys-user',
    'auth-user-add',
    'auth-user-update',
    'auth-user-delete',
  ]);
  powerRole = await addRole('Drive keeper', 'keeper', ['auth-cloud-set']);
  deputy = await addUser('deputy', [deputyRole.id]);
  olive = await addUser('olive', ['role-user']);
  adam = await addUser('adam', ['role-admin']);
  pete = await addUser('pete', ['role-user', powerRole.id]);
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Step {
  what: string;
  method: Method;
  url: string;
  body?: unknown;
  query?: Record<string, string | string[]>;
}

async function expectRefused(token: string, steps: Step[]): Promise<void> {
  for (const step of steps) {
    const res = await call(t.app, step.method, step.url, {
      token,
      body: step.body,
      query: step.query,
    });
    expect([res.status, res.body.code], step.what).toEqual([403, 8]);
  }
}

async function expectDone(token: string, steps: Step[]): Promise<void> {
  for (const step of steps) {
    const res = await call(t.app, step.method, step.url, {
      token,
      body: step.body,
      query: step.query,
    });
    expect([res.status, res.body.code, res.body.message], step.what).toEqual([
      200,
      0,
      expect.anything(),
    ]);
  }
}

async function rolesOf(userId: string): Promise<string[]> {
  const res = await call<UserListItem>(t.app, 'GET', '/user/userInfo', {
    token: admin.token,
    query: { id: userId },
  });
  return [...res.body.data!.roles].sort();
}

describe('a delegated user administrator', () => {
  it('administers ordinary users', async () => {
    await expectDone(deputy.token, [
      { what: 'list users', method: 'GET', url: '/user/userList' },
      { what: 'read a user', method: 'GET', url: '/user/userInfo', query: { id: olive.userId } },
      {
        what: 'add an ordinary user',
        method: 'POST',
        url: '/user/add',
        body: { username: 'newbie', password: 'newbie-secret', quota: 3 },
      },
      {
        what: 'add a user with the ordinary role',
        method: 'POST',
        url: '/user/add',
        body: { username: 'newbie2', password: 'newbie-secret', roles: ['role-user'] },
      },
      {
        what: "edit an ordinary user's profile and quota",
        method: 'PUT',
        url: '/user/update',
        body: { id: olive.userId, showName: 'Olive O.', quota: 4 },
      },
      {
        what: 'give an ordinary user the roles the deputy holds',
        method: 'PUT',
        url: '/user/update',
        body: { id: olive.userId, roles: ['role-user', deputyRole.id] },
      },
      {
        what: 'take them back',
        method: 'PUT',
        url: '/user/update',
        body: { id: olive.userId, roles: ['role-user'] },
      },
      {
        what: "reset an ordinary user's password",
        method: 'PUT',
        url: '/user/reset-pass',
        body: { id: olive.userId, password: 'olive-next' },
      },
      {
        what: "set an ordinary user's password",
        method: 'PUT',
        url: '/user/update-pass',
        body: { id: olive.userId, password: 'olive-next2' },
      },
      {
        what: "edit one's own profile, sending one's roles unchanged",
        method: 'PUT',
        url: '/user/update',
        body: { id: deputy.userId, showName: 'Deputy', roles: [deputyRole.id] },
      },
    ]);
    await login(t.app, 'olive', 'olive-next2');
    expect(await rolesOf(olive.userId)).toEqual(['role-user']);
    const del = await call(t.app, 'DELETE', '/user/delete', {
      token: deputy.token,
      query: { ids: [olive.userId] },
    });
    expect(del.body.code).toBe(0);
  });

  it('cannot raise itself or anyone else above what it holds', async () => {
    await expectRefused(deputy.token, [
      {
        what: 'give itself the administrator role',
        method: 'PUT',
        url: '/user/update',
        body: { id: deputy.userId, roles: [deputyRole.id, 'role-admin'] },
      },
      {
        what: 'change its own roles at all',
        method: 'PUT',
        url: '/user/update',
        body: { id: deputy.userId, roles: ['role-user'] },
      },
      {
        what: 'raise its own quota',
        method: 'PUT',
        url: '/user/update',
        body: { id: deputy.userId, quota: 500 },
      },
      {
        what: 'reset its own password without the current one',
        method: 'PUT',
        url: '/user/reset-pass',
        body: { id: deputy.userId, password: 'taken-over' },
      },
      {
        what: 'add an administrator',
        method: 'POST',
        url: '/user/add',
        body: { username: 'mole', password: 'mole-secret', roles: ['role-admin'] },
      },
      {
        what: 'add a user with a permission it does not hold',
        method: 'POST',
        url: '/user/add',
        body: { username: 'mole2', password: 'mole-secret', roles: [powerRole.id] },
      },
      {
        what: 'make an ordinary user an administrator',
        method: 'PUT',
        url: '/user/update',
        body: { id: olive.userId, roles: ['role-user', 'role-admin'] },
      },
      {
        what: 'give an ordinary user a permission it does not hold',
        method: 'PUT',
        url: '/user/update',
        body: { id: olive.userId, roles: [powerRole.id] },
      },
    ]);
    expect(await rolesOf(deputy.userId)).toEqual([deputyRole.id]);
    expect(await rolesOf(olive.userId)).toEqual(['role-user']);
    const users = await call<UserListItem[]>(t.app, 'GET', '/user/userList', {
      token: admin.token,
      query: { pageSize: 50 },
    });
    expect(users.body.data!.map((u) => u.username)).not.toContain('mole');
    expect(users.body.data!.map((u) => u.username)).not.toContain('mole2');
  });

  it('cannot touch administrators, the creator, or users holding more than it', async () => {
    for (const [who, target] of [
      ['the creator', admin.userId],
      ['an administrator', adam.userId],
      ['a user with a permission it lacks', pete.userId],
    ] as const) {
      await expectRefused(deputy.token, [
        {
          what: `reset the password of ${who}`,
          method: 'PUT',
          url: '/user/reset-pass',
          body: { id: target },
        },
        {
          what: `set the password of ${who}`,
          method: 'PUT',
          url: '/user/update-pass',
          body: { id: target, password: 'taken-over' },
        },
        {
          what: `change the roles of ${who}`,
          method: 'PUT',
          url: '/user/update',
          body: { id: target, roles: ['role-user'] },
        },
        {
          what: `change the quota of ${who}`,
          method: 'PUT',
          url: '/user/update',
          body: { id: target, quota: 0 },
        },
        {
          what: `change the profile of ${who}`,
          method: 'PUT',
          url: '/user/update',
          body: { id: target, showName: 'pwned' },
        },
        {
          what: `delete ${who}`,
          method: 'DELETE',
          url: '/user/delete',
          query: { ids: [target] },
        },
        {
          what: `guess the password of ${who}`,
          method: 'POST',
          url: '/valid-old-pass',
          body: { id: target, password: 'admin-secret' },
        },
      ]);
    }
    // nothing changed
    await login(t.app, ADMIN.username, ADMIN.password);
    await login(t.app, 'adam', 'adam-secret');
    await login(t.app, 'pete', 'pete-secret');
    expect(await rolesOf(adam.userId)).toEqual(['role-admin']);
    expect(await rolesOf(admin.userId)).toEqual(['role-admin']);
  });
});

describe('administrators', () => {
  it('grant the administrator role and administer other administrators', async () => {
    await expectDone(adam.token, [
      {
        what: 'make an ordinary user an administrator',
        method: 'PUT',
        url: '/user/update',
        body: { id: olive.userId, roles: ['role-admin'] },
      },
      {
        what: "reset another administrator's password",
        method: 'PUT',
        url: '/user/reset-pass',
        body: { id: olive.userId, password: 'olive-next' },
      },
      {
        what: 'grant any role',
        method: 'PUT',
        url: '/user/update',
        body: { id: pete.userId, roles: [powerRole.id, deputyRole.id] },
      },
    ]);
    expect(await rolesOf(olive.userId)).toEqual(['role-admin']);
  });

  it("never change their own roles nor the creator's account", async () => {
    await expectRefused(adam.token, [
      {
        what: 'change its own roles',
        method: 'PUT',
        url: '/user/update',
        body: { id: adam.userId, roles: ['role-admin', powerRole.id] },
      },
      {
        what: "reset the creator's password",
        method: 'PUT',
        url: '/user/reset-pass',
        body: { id: admin.userId, password: 'taken-over' },
      },
      {
        what: "set the creator's password",
        method: 'PUT',
        url: '/user/update-pass',
        body: { id: admin.userId, password: 'taken-over' },
      },
      {
        what: "change the creator's roles",
        method: 'PUT',
        url: '/user/update',
        body: { id: admin.userId, roles: ['role-admin', powerRole.id] },
      },
      {
        what: "change the creator's quota",
        method: 'PUT',
        url: '/user/update',
        body: { id: admin.userId, quota: 0 },
      },
      {
        what: 'delete the creator',
        method: 'DELETE',
        url: '/user/delete',
        query: { ids: [admin.userId] },
      },
    ]);
    await login(t.app, ADMIN.username, ADMIN.password);
    expect(await rolesOf(adam.userId)).toEqual(['role-admin']);
  });

  it('the creator edits their own profile and quota', async () => {
    await expectDone(admin.token, [
      {
        what: 'own profile and quota, roles unchanged',
        method: 'PUT',
        url: '/user/update',
        body: { id: admin.userId, showName: 'Boss', quota: 50, roles: ['role-admin'] },
      },
    ]);
  });
});

describe('ordinary users', () => {
  it('reach no user administration', async () => {
    const user = await makeUser(t.app, admin.token);
    await expectRefused(user.token, [
      { what: 'list users', method: 'GET', url: '/user/userList' },
      {
        what: 'add a user',
        method: 'POST',
        url: '/user/add',
        body: { username: 'x1', password: 'x1-secret' },
      },
      {
        what: 'give itself a role',
        method: 'PUT',
        url: '/user/update',
        body: { id: user.userId, roles: ['role-admin'] },
      },
      {
        what: 'raise its quota',
        method: 'PUT',
        url: '/user/update',
        body: { id: user.userId, quota: 999 },
      },
      {
        what: 'reset a password',
        method: 'PUT',
        url: '/user/reset-pass',
        body: { id: olive.userId },
      },
      {
        what: 'delete a user',
        method: 'DELETE',
        url: '/user/delete',
        query: { ids: [olive.userId] },
      },
    ]);
  });
});

describe('delegated role and menu administrators', () => {
  it('cannot give any role, their own included, a permission they do not hold', async () => {
    const roleDeskRole = await addRole('Role desk', 'roledesk', ['sys-role', 'auth-role-edit']);
    const rita = await addUser('rita', [roleDeskRole.id]);
    const userRole = (
      await call<Role[]>(t.app, 'GET', '/role/list', { token: admin.token })
    ).body.data!.find((r) => r.id === 'role-user')!;
    await expectRefused(rita.token, [
      {
        what: 'give its own role user administration',
        method: 'PUT',
        url: '/role/update',
        body: { id: roleDeskRole.id, menuIds: [...roleDeskRole.menuIds, 'auth-user-update'] },
      },
      {
        what: 'give every ordinary user drive settings',
        method: 'PUT',
        url: '/role/update',
        body: { id: 'role-user', menuIds: [...userRole.menuIds, 'auth-cloud-set'] },
      },
      {
        what: 'make a role with a permission it lacks',
        method: 'POST',
        url: '/role/add',
        body: { name: 'Sneaky', code: 'sneaky', menuIds: ['auth-user-delete'] },
      },
      {
        what: 'edit the administrator role',
        method: 'PUT',
        url: '/role/update',
        body: { id: 'role-admin', name: 'Admins' },
      },
      {
        what: 'edit a role holding more than it',
        method: 'PUT',
        url: '/role/update',
        body: { id: powerRole.id, menuIds: ['home'] },
      },
      {
        what: 'delete a role holding more than it',
        method: 'DELETE',
        url: '/role/delete',
        query: { ids: [powerRole.id] },
      },
    ]);
    await expectDone(rita.token, [
      {
        what: 'make a role of ordinary permissions and its own',
        method: 'POST',
        url: '/role/add',
        body: { name: 'Helpers', code: 'helpers', menuIds: ['auth-file-upload', 'sys-role'] },
      },
      {
        what: 'edit the ordinary role within what it holds',
        method: 'PUT',
        url: '/role/update',
        body: { id: 'role-user', menuIds: userRole.menuIds, remarks: 'everyone' },
      },
    ]);
    const roles = (await call<Role[]>(t.app, 'GET', '/role/list', { token: admin.token })).body
      .data!;
    expect(roles.find((r) => r.id === roleDeskRole.id)!.menuIds.sort()).toEqual(
      [...roleDeskRole.menuIds].sort(),
    );
    expect(roles.find((r) => r.id === 'role-user')!.menuIds.sort()).toEqual(
      [...userRole.menuIds].sort(),
    );
    expect(roles.find((r) => r.id === powerRole.id)!.menuIds).toEqual(powerRole.menuIds);
  });

  it('cannot point a menu at a permission they do not hold', async () => {
    const menuDeskRole = await addRole('Menu desk', 'menudesk', ['sys-menu', 'auth-menu-edit']);
    const mona = await addUser('mona', [menuDeskRole.id]);
    await expectRefused(mona.token, [
      {
        what: 'turn a menu its role links into user administration',
        method: 'PUT',
        url: '/menu/update',
        body: { id: 'sys-menu', authority: 'sys:user:update' },
      },
      {
        what: 'add a menu granting drive settings',
        method: 'POST',
        url: '/menu/add',
        body: { name: 'Sneaky', menuType: 1, authority: 'cloud:set:update' },
      },
      {
        what: 'change a menu granting a permission it lacks',
        method: 'PUT',
        url: '/menu/update',
        body: { id: 'auth-user-delete', authority: null },
      },
      {
        what: 'delete a menu granting a permission it lacks',
        method: 'DELETE',
        url: '/menu/delete',
        query: { ids: ['auth-user-delete'] },
      },
    ]);
    await expectDone(mona.token, [
      {
        what: 'add a menu without a permission',
        method: 'POST',
        url: '/menu/add',
        body: { name: 'Help', menuType: 1, path: '/help' },
      },
      {
        what: 'rename a menu it holds',
        method: 'PUT',
        url: '/menu/update',
        body: { id: 'sys-menu', name: 'Menus and links' },
      },
    ]);
    const info = await call<{ authority: string }>(t.app, 'GET', '/menu/info', {
      token: admin.token,
      query: { menuId: 'sys-menu' },
    });
    expect(info.body.data?.authority).toBe('sys:menu:list');
    const me = await call<{ authorities: string[] }>(t.app, 'GET', '/user/info', {
      token: mona.token,
    });
    expect(me.body.data?.authorities.sort()).toEqual(['sys:menu:list', 'sys:menu:update']);
  });
});
