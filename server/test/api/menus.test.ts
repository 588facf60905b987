import { describe, expect, it } from 'vitest';
import type { MenuNode, Role } from '@nimbus/contract';
import { call, makeTestApp, makeUser, useAdminApp } from '../harness.ts';

const { t, admin } = useAdminApp();

const flatten = (nodes: MenuNode[]): MenuNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

describe('menus', () => {
  it('gives the main sidebar menu in order, and settings for the administrator', async () => {
    const tree = await call<MenuNode[]>(t.app, 'GET', '/menu/tree', { token: admin.token });
    const main = tree.body.data!.filter((m) => m.menuType === 0 && !m.hide).map((m) => m.name);
    expect(main).toEqual([
      'Home',
      'Recently',
      'Favorite',
      'Document',
      'Image',
      'Audio',
      'Video',
      'Mount',
      'Trash',
      'Shares',
    ]);
    const paths = flatten(tree.body.data!).map((m) => m.path);
    expect(paths).toContain('/setting/cloudManager');
    expect(paths).toContain('/setting/sys/user');
  });

  it('gives an ordinary user the file features but no administration', async () => {
    const bob = await makeUser(t.app, admin.token);
    const tree = await call<MenuNode[]>(t.app, 'GET', '/menu/tree', { token: bob.token });
    const all = flatten(tree.body.data!);
    const paths = all.map((m) => m.path);
    expect(paths).toEqual(
      expect.arrayContaining(['/', '/trash', '/setting/user', '/setting/taskProgress']),
    );
    expect(paths).not.toContain('/setting/cloudManager');
    expect(paths).not.toContain('/setting/sys/user');
    expect(all.map((m) => m.authority)).toContain('cloud:file:upload');
  });

  it('adds, updates and deletes menus; children go with their parent', async () => {
    const add = await call<MenuNode>(t.app, 'POST', '/menu/add', {
      token: admin.token,
      body: { name: 'Blog', path: '/articles', icon: 'https://example.org/blog.svg', menuType: 3 },
    });
    expect(add.body.code).toBe(0);
    const id = add.body.data!.id;
    const child = await call<MenuNode>(t.app, 'POST', '/menu/add', {
      token: admin.token,
      body: { name: 'Child', parentId: id, menuType: 1, authority: 'blog:write' },
    });
    const info = await call<MenuNode>(t.app, 'GET', '/menu/info', {
      token: admin.token,
      query: { menuId: id },
    });
    expect(info.body.data).toMatchObject({ name: 'Blog', menuType: 3, builtin: false });

    const cycle = await call(t.app, 'PUT', '/menu/update', {
      token: admin.token,
      body: { id, parentId: child.body.data!.id },
    });
    expect(cycle.body.code).toBe(10);

    const upd = await call<MenuNode>(t.app, 'PUT', '/menu/update', {
      token: admin.token,
      body: { id, name: 'Articles', hide: true },
    });
    expect(upd.body.data).toMatchObject({ name: 'Articles', hide: true });

    const authorities = await call<string[]>(t.app, 'GET', '/menu/authorities', {
      token: admin.token,
    });
    expect(authorities.body.data).toContain('blog:write');

    expect(
      (
        await call(t.app, 'DELETE', '/menu/delete', {
          token: admin.token,
          query: { menuIds: [id] },
        })
      ).body.code,
    ).toBe(0);
    const gone = await call(t.app, 'GET', '/menu/info', {
      token: admin.token,
      query: { menuId: child.body.data!.id },
    });
    expect(gone.body.code).toBe(23);
  });

  it('refuses a menu without a name', async () => {
    const res = await call(t.app, 'POST', '/menu/add', {
      token: admin.token,
      body: { name: ' ', menuType: 0 },
    });
    expect(res.body).toMatchObject({ code: 10, message: expect.stringMatching(/menu name/) });
  });
});

describe('roles', () => {
  it('creates a role that grants menus to its users', async () => {
    const role = await call<Role>(t.app, 'POST', '/role/add', {
      token: admin.token,
      body: { name: 'Auditor', code: 'auditor', menuIds: ['home', 'sys-user'] },
    });
    expect(role.body.data).toMatchObject({ code: 'auditor', builtin: false });
    const bob = await makeUser(t.app, admin.token);
    // without the role bob cannot list users
    expect((await call(t.app, 'GET', '/user/userList', { token: bob.token })).status).toBe(403);
    await call(t.app, 'PUT', '/user/update', {
      token: admin.token,
      body: { id: bob.userId, roles: [role.body.data!.id] },
    });
    expect((await call(t.app, 'GET', '/user/userList', { token: bob.token })).body.code).toBe(0);

    const dup = await call(t.app, 'POST', '/role/add', {
      token: admin.token,
      body: { name: 'Again', code: 'auditor', menuIds: ['home'] },
    });
    expect(dup.body.code).toBe(4);
    const badMenu = await call(t.app, 'POST', '/role/add', {
      token: admin.token,
      body: { name: 'X', code: 'x', menuIds: ['nope'] },
    });
    expect(badMenu.body.code).toBe(10);
  });

  it('refuses a role without menus, naming the field', async () => {
    const attempts: Array<['POST' | 'PUT', string, Record<string, unknown>]> = [
      ['POST', '/role/add', { name: 'Empty', code: 'empty', menuIds: [] }],
      ['POST', '/role/add', { name: 'Empty', code: 'empty' }],
      ['PUT', '/role/update', { id: 'role-user', menuIds: [] }],
    ];
    for (const [method, url, body] of attempts) {
      const res = await call(t.app, method, url, { token: admin.token, body });
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).toBe(422);
      expect(res.body).toMatchObject({ code: 10, message: expect.stringMatching(/^menuIds: /) });
    }
    const roles = await call<Role[]>(t.app, 'GET', '/role/list', { token: admin.token });
    expect(roles.body.data!.map((r) => r.code)).not.toContain('empty');
    expect(roles.body.data!.find((r) => r.id === 'role-user')!.menuIds).toContain('home');
  });

  it('never deletes the administrator role', async () => {
    const res = await call(t.app, 'DELETE', '/role/delete', {
      token: admin.token,
      query: { roleIds: ['role-admin'] },
    });
    expect(res.status).toBe(403);
  });

  it('reset restores the defaults and keeps what people added', async () => {
    const own = await call<MenuNode>(t.app, 'POST', '/menu/add', {
      token: admin.token,
      body: { name: 'Mine', menuType: 0, path: '/mine' },
    });
    await call<Role>(t.app, 'POST', '/role/add', {
      token: admin.token,
      body: { name: 'Mine', code: 'mine', menuIds: ['home', own.body.data!.id] },
    });
    await call(t.app, 'PUT', '/menu/update', {
      token: admin.token,
      body: { id: 'home', name: 'Start', hide: true },
    });
    await call(t.app, 'DELETE', '/menu/delete', { token: admin.token, query: { ids: ['trash'] } });
    await call(t.app, 'PUT', '/role/update', {
      token: admin.token,
      body: { id: 'role-user', menuIds: ['home'] },
    });

    const reset = await call(t.app, 'PUT', '/user/setting/resetMenuAndRole', {
      token: admin.token,
    });
    expect(reset.body.code).toBe(0);

    const list = await call<MenuNode[]>(t.app, 'GET', '/menu/list', { token: admin.token });
    const byId = new Map(list.body.data!.map((m) => [m.id, m]));
    expect(byId.get('home')).toMatchObject({ name: 'Home', hide: false });
    expect(byId.has('trash')).toBe(true);
    expect(byId.has(own.body.data!.id)).toBe(true);
    const roles = await call<Role[]>(t.app, 'GET', '/role/list', { token: admin.token });
    const mine = roles.body.data!.find((r) => r.code === 'mine');
    expect(mine?.menuIds.sort()).toEqual(['home', own.body.data!.id].sort());
    expect(roles.body.data!.find((r) => r.code === 'user')!.menuIds).toContain('trash');
  });
});

describe('server core', () => {
  it('serves health, version and a JSON 404 for unknown API paths', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/public/health' });
    expect(health.statusCode).toBe(200);
    expect(health.body).toBe('ok');
    expect((await call(t.app, 'GET', '/version')).body.data).toBe('2.16.1');
    const missing = await call(t.app, 'GET', '/no/such/endpoint', { token: admin.token });
    expect(missing).toMatchObject({ status: 404, body: { code: 23 } });
  });

  it('validates the drive name (spec §5)', async () => {
    for (const bad of ['', 'with space', 'semi;colon']) {
      const res = await call(t.app, 'PUT', '/user/setting/update_netdisk_name', {
        token: admin.token,
        query: { netdiskName: bad },
      });
      expect(res.body.code, bad).toBe(10);
    }
    const good = await call(t.app, 'PUT', '/user/setting/update_netdisk_name', {
      token: admin.token,
      query: { netdiskName: '我的_Drive2' },
    });
    expect(good.body.code).toBe(0);
    const record = await call<{ netdiskName: string }>(t.app, 'GET', '/public/website/record');
    expect(record.body.data?.netdiskName).toBe('我的_Drive2');
  });
});

describe('the web app', () => {
  it('serves index.html for the root and unknown pages, JSON 404 for unknown API paths', async () => {
    const fs = await import('node:fs');
    const path = await import('node:path');
    const webDir = fs.mkdtempSync(path.join(t.dataDir, 'web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Nimbus</title>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log(1)');
    const web = await makeTestApp({ webDir });
    try {
      for (const url of ['/', '/login', '/trash?vmode=grid', '/s/abc']) {
        const res = await web.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(200);
        expect(res.body, url).toContain('<title>Nimbus</title>');
      }
      expect((await web.app.inject({ method: 'GET', url: '/assets/app.js' })).body).toBe(
        'console.log(1)',
      );
      expect((await web.app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode).toBe(
        404,
      );
      const api = await web.app.inject({ method: 'GET', url: '/api/nothing-here' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ code: 23 });
    } finally {
      await web.close();
    }
  });
});
