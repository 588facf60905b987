import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@nimbus/contract';
import { up as menusOfTheOriginal } from '../../src/db/migrations/023-menus-of-the-original.ts';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, unlock, visitor } from '../share-fixtures.ts';

// The answers a client written for the original API reads (issue 25, points 5–10): the menu
// fields it loads its views from, the list item fields it draws and reopens shares with, the
// views it asks for in its own words, the history date, the share fields it keeps its token by,
// and no `null` it would turn into a request.

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp({ once: true });

const flatten = (nodes: MenuNode[]): MenuNode[] =>
  nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);

type Item = Record<string, unknown> & { id: string; name: string };

const list = (query: Record<string, string | number | boolean>, token = admin.token) =>
  call<Item[]>(t.app, 'GET', '/list', { token, query });

describe('menus as the original client loads them', () => {
  it('names the view and icon of the original for every entry of every type', async () => {
    const tree = await call<MenuNode[]>(t.app, 'GET', '/menu/tree', { token: admin.token });
    const all = flatten(tree.body.data!);
    const byId = new Map(all.map((m) => [m.id, m]));
    expect(byId.get('home')).toMatchObject({ component: '/home/index', icon: 'ziyuan' });
    expect(byId.get('recently')).toMatchObject({
      component: '/recently/index',
      icon: 'zuijinyuedu',
    });
    expect(byId.get('trash')).toMatchObject({ component: '/trash/index', icon: 'huishouzhan' });
    expect(byId.get('audio')).toMatchObject({ component: '/fileType/audio', icon: 'file_music' });
    expect(byId.get('setting-user')).toMatchObject({
      component: '/setting/sys/cusomerInfo',
      icon: 'UserSettings',
    });
    expect(byId.get('sys-user')).toMatchObject({
      component: '/setting/sys/cusomerManager',
      icon: 'huaban',
    });
    for (const menu of all) {
      expect(typeof menu.component, menu.id).toBe('string');
      expect(typeof menu.icon, menu.id).toBe('string');
      // authorities (type 1) have no view, as in the original; every other entry has one
      if (menu.menuType !== 1) {
        expect(menu.component, menu.id).toMatch(/^\//);
        expect(menu.icon, menu.id).not.toBe('');
      }
    }
    // the avatar menu's entries open views too
    for (const id of ['avatar-setting', 'avatar-cloud', 'avatar-task'])
      expect(byId.get(id)?.component, id).toMatch(/^\/setting\//);
  });

  it('gives the built-in menus of an older drive the original fields; custom menus keep theirs', async () => {
    const db = t.database.db;
    const custom = await call<MenuNode>(t.app, 'POST', '/menu/add', {
      token: admin.token,
      body: { name: 'Wiki', path: '/wiki', component: 'Wiki', icon: 'BookOutlined', menuType: 0 },
    });
    expect(custom.body.code).toBe(0);
    // a drive seeded before: its built-in rows hold the earlier values
    await db
      .updateTable('menu')
      .set({ component: 'Home', icon: 'HomeOutlined' })
      .where('id', '=', 'home')
      .execute();
    await db
      .updateTable('menu')
      .set({ component: null, icon: 'SettingOutlined' })
      .where('id', '=', 'avatar-setting')
      .execute();
    // an administrator chose another icon for Trash: that choice stays
    await db
      .updateTable('menu')
      .set({ component: 'Trash', icon: 'RestOutlined' })
      .where('id', '=', 'trash')
      .execute();
    await menusOfTheOriginal(db as unknown as Kysely<unknown>);
    const rows = await db.selectFrom('menu').selectAll().execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get('home')).toMatchObject({ component: '/home/index', icon: 'ziyuan' });
    expect(byId.get('avatar-setting')?.component).toMatch(/^\/setting\//);
    expect(byId.get('avatar-setting')?.icon).toBe('shezhi');
    expect(byId.get('trash')).toMatchObject({ component: '/trash/index', icon: 'RestOutlined' });
    expect(byId.get(custom.body.data!.id)).toMatchObject({
      component: 'Wiki',
      icon: 'BookOutlined',
    });
  });
});

describe('list items as the original client draws them', () => {
  it('carry the age in milliseconds, and share fields that reopen a private share as it is', async () => {
    const folderId = await makeFolder(t, admin.token, '/', 'private-docs');
    await putFile(t, owner(), '/private-docs', 'inside.txt', 'inside');
    await putFile(t, owner(), '/', 'loose.txt', 'loose');
    const share = await makeShare(t, admin.token, {
      fileId: folderId,
      isPrivacy: true,
      expireDate: '2999-12-31 23:59:00',
    });
    const before = Date.now();
    const root = await list({ currentDirectory: '/' });
    expect(root.body.code).toBe(0);
    for (const item of root.body.data!) {
      expect(typeof item.agoTime, item.name).toBe('number');
      expect(item.agoTime as number).toBeGreaterThanOrEqual(0);
      // the item is at most as old as the time since this test began, plus a margin
      expect(item.agoTime as number).toBeLessThan(Date.now() - before + 60_000);
    }
    const shared = root.body.data!.find((i) => i.id === folderId)!;
    expect(shared).toMatchObject({
      isShare: true,
      shareBase: true,
      isPrivacy: true,
      expiresAt: share.expiresAt,
    });
    const loose = root.body.data!.find((i) => i.name === 'loose.txt')!;
    expect(loose.isShare).toBe(false);
    expect(loose.shareBase).toBeUndefined();

    // inside the shared folder: shared through it, not a share of its own
    const inside = await list({ currentDirectory: '/private-docs' });
    expect(inside.body.data![0]).toMatchObject({
      name: 'inside.txt',
      isShare: true,
      shareBase: false,
      isPrivacy: true,
      expiresAt: share.expiresAt,
    });

    // a permanent share never expires: past the original client's "permanent" mark
    const permanentFolder = await makeFolder(t, admin.token, '/', 'forever');
    await makeShare(t, admin.token, { fileId: permanentFolder, isPrivacy: false });
    const again = await list({ currentDirectory: '/' });
    const forever = again.body.data!.find((i) => i.id === permanentFolder)!;
    expect(forever).toMatchObject({ isShare: true, shareBase: true, isPrivacy: false });
    expect(forever.expiresAt as number).toBeGreaterThan(253398735999000);
  });

  it('name the cover of a song that has one, and say nothing of a cover that is not there', async () => {
    await makeFolder(t, admin.token, '/', 'songs');
    const facts = (hasCover: boolean) => ({
      songName: hasCover ? 'Sunny' : 'Plain',
      singer: 'Band',
      album: '',
      duration: 3,
      hasCover,
    });
    for (const [name, hasCover] of [
      ['cover.mp3', true],
      ['plain.mp3', false],
    ] as const) {
      const bytes = `song ${name}`;
      const id = await putFile(t, owner(), '/songs', name, bytes);
      const hash = createHash('sha256').update(bytes).digest('hex');
      // the tags as the media reader records them
      await t.database.db
        .updateTable('file')
        .set({ media: JSON.stringify({ av: { hash, music: facts(hasCover) } }) })
        .where('id', '=', id)
        .execute();
    }
    await putFile(t, owner(), '/songs', 'unread.mp3', 'not read yet');
    const songs = await list({ currentDirectory: '/songs' });
    const byName = new Map(songs.body.data!.map((i) => [i.name, i]));
    expect(byName.get('cover.mp3')!.music).toMatchObject({ name: 'Sunny', singer: 'Band' });
    // the original client asks for a cover whenever `music` is there with a name not null
    expect(byName.get('plain.mp3')!.music).toBeUndefined();
    expect(byName.get('unread.mp3')!.music).toBeUndefined();
  });
});

describe('views as the original client asks for them', () => {
  it('answers recent files to the recently view, not the root folder', async () => {
    await makeFolder(t, admin.token, '/', 'deep');
    await putFile(t, owner(), '/deep', 'recent-inside.txt', 'x');
    const recent = await list({
      isFolder: false,
      sortableProp: 'uploadDate',
      order: 'descending',
      queryCondition: JSON.stringify({ isFolder: false, recently: true }),
      pageIndex: 1,
      pageSize: 50,
    });
    expect(recent.body.code).toBe(0);
    const names = recent.body.data!.map((i) => i.name);
    expect(names).toContain('recent-inside.txt');
    expect(recent.body.data!.every((i) => i.isFolder === false)).toBe(true);
    expect(names[0]).toBe('recent-inside.txt');
  });

  it('answers the mounted folders to isMount=true, not the root', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'mounter' });
    const folderId = await makeFolder(t, admin.token, '/', 'to-mount');
    const share = await makeShare(t, admin.token, { fileId: folderId, isPrivacy: true });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    await makeFolder(t, bob.token, '/', 'own-folder');
    const mounted = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(mounted.body.code, mounted.body.message).toBe(0);
    const mounts = await list(
      {
        isMount: true,
        sortableProp: 'name',
        order: 'ascending',
        queryCondition: JSON.stringify({ isMount: true }),
      },
      bob.token,
    );
    expect(mounts.body.code).toBe(0);
    expect(mounts.body.data!.map((i) => i.name)).toEqual(['to-mount']);
    expect(mounts.body.count).toBe(1);
  });
});

describe('history as the original client shows it', () => {
  it('dates a version in the spec format', async () => {
    const id = await putFile(t, owner(), '/', 'versioned.md', 'one');
    const saved = await call(t.app, 'POST', '/markdown/edit', {
      token: admin.token,
      body: {
        fileId: id,
        contentText: 'two',
        baseHash: createHash('sha256').update('one').digest('hex'),
      },
    });
    expect(saved.body.code, saved.body.message).toBe(0);
    const versions = await call<Array<{ uploadDate: string; metadata: { time: unknown } }>>(
      t.app,
      'GET',
      '/history/list',
      { token: admin.token, query: { fileId: id } },
    );
    const version = versions.body.data![0]!;
    expect(version.metadata.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(version.metadata.time).toBe(version.uploadDate);
  });
});

describe('shares as the original client reads them', () => {
  it('puts isPrivacy and the permissions on every item of an open private share', async () => {
    const folderId = await makeFolder(t, admin.token, '/', 'team');
    await putFile(t, owner(), '/team', 'plan.txt', 'plan');
    const share = await makeShare(t, admin.token, {
      fileId: folderId,
      isPrivacy: true,
      operationPermissionList: ['UPLOAD'],
    });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    const open = await call<Item[]>(t.app, 'GET', '/public/access-share', {
      headers: visitor(share.shareId, token),
      query: { share: share.shortId },
    });
    expect(open.body.code).toBe(0);
    expect(open.body.data![0]).toMatchObject({
      name: 'plan.txt',
      isPrivacy: true,
      operationPermissionList: ['UPLOAD'],
    });
    const sub = await call<Item[]>(t.app, 'GET', '/public/access-share/open', {
      headers: visitor(share.shareId, token),
      query: { share: share.shortId, fileId: folderId },
    });
    expect(sub.body.data![0]).toMatchObject({
      isPrivacy: true,
      operationPermissionList: ['UPLOAD'],
    });

    // a public share: not private, nothing more allowed
    const fileId = await putFile(t, owner(), '/', 'public.txt', 'public');
    const open2 = await makeShare(t, admin.token, { fileId, isPrivacy: false });
    const pub = await call<Item[]>(t.app, 'GET', '/public/access-share', {
      query: { share: open2.shortId },
    });
    expect(pub.body.data![0]).toMatchObject({ isPrivacy: false, operationPermissionList: [] });
  });

  it('gives the placeholder of a locked share its id and nothing of its contents', async () => {
    const folderId = await makeFolder(t, admin.token, '/', 'locked');
    await putFile(t, owner(), '/locked', 'secret.txt', 'secret');
    const share = await makeShare(t, admin.token, { fileId: folderId, isPrivacy: true });
    const locked = await call<Record<string, unknown>>(t.app, 'GET', '/public/access-share', {
      query: { share: share.shortId },
    });
    expect(locked.body.code).toBe(0);
    expect(locked.body.data).toMatchObject({ id: share.shareId, isPrivacy: true });
    const text = JSON.stringify(locked.body);
    expect(text).not.toContain(folderId);
    expect(text).not.toContain('secret.txt');
    expect(text).not.toContain(share.extractionCode!);
  });

  it('gives each row of the share list its id, which cancels it', async () => {
    const fileId = await putFile(t, owner(), '/', 'to-cancel.txt', 'c');
    const share = await makeShare(t, admin.token, { fileId });
    const rows = await call<Array<{ id: string; shareId: string; fileName: string }>>(
      t.app,
      'GET',
      '/share/list',
      { token: admin.token, query: { pageSize: 500 } },
    );
    for (const row of rows.body.data!) expect(row.id).toBe(row.shareId);
    const row = rows.body.data!.find((r) => r.fileName === 'to-cancel.txt')!;
    expect(row.id).toBe(share.shareId);
    const cancel = await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: row.id },
    });
    expect(cancel.body.code).toBe(0);
  });
});

describe('nulls the original never sent', () => {
  it('leaves out the avatar and logo that are not there', async () => {
    // a drive without a logo, a user without an avatar
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    const info = await call<Record<string, unknown>>(t.app, 'GET', '/user/info', {
      token: carol.token,
    });
    expect(info.body.code).toBe(0);
    expect(info.body.data).not.toHaveProperty('avatar');
    expect(info.body.data).not.toHaveProperty('netdiskLogo');
    const record = await call<Record<string, unknown>>(t.app, 'GET', '/public/website/record');
    expect(record.body.data).not.toHaveProperty('netdiskLogo');
    const users = await call<Array<Record<string, unknown>>>(t.app, 'GET', '/user/userList', {
      token: admin.token,
    });
    for (const user of users.body.data!) expect(user).not.toHaveProperty('avatar');

    const fileId = await putFile(t, { userId: carol.userId, username: 'carol' }, '/', 'c.txt', 'c');
    const share = await makeShare(t, carol.token, { fileId, isPrivacy: true });
    const sharer = await call<Record<string, unknown>>(t.app, 'GET', '/public/get/sharer', {
      query: { shareId: share.shortId },
    });
    expect(sharer.body.code).toBe(0);
    expect(sharer.body.data).not.toHaveProperty('avatar');
    expect(sharer.body.data).not.toHaveProperty('netdiskLogo');
    const locked = await call<{ sharer: Record<string, unknown> }>(
      t.app,
      'GET',
      '/public/access-share',
      { query: { share: share.shortId } },
    );
    expect(locked.body.data!.sharer).not.toHaveProperty('avatar');
    // nothing anywhere says null where a path or an id would go
    for (const body of [info.body, record.body, users.body, sharer.body, locked.body])
      expect(JSON.stringify(body)).not.toMatch(/"(avatar|netdiskLogo)":null/);
  });
});
