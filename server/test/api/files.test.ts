import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import type { NewFileRow } from '../../src/modules/files/files.repo.ts';

interface Item {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
  size: number;
  isFavorite: boolean;
  childrenCount: number;
}

const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const disk = (...parts: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...parts);

const { t, admin } = useAdminApp();

const newFolder = async (name: string, currentDirectory = '/') => {
  const res = await call<Item>(t.app, 'POST', '/new_folder', {
    token: admin.token,
    query: { filename: name, currentDirectory },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!;
};
const list = async (currentDirectory = '/', extra: Record<string, string | number> = {}) => {
  const res = await call<Item[]>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { currentDirectory, ...extra },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body;
};
const used = async () =>
  (await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token: admin.token })).body
    .data!.takeUpSpace;

describe('folders and names', () => {
  it('creates folders on disk and lists folders first, sorted and paged in the database', async () => {
    await newFolder('b-folder');
    await newFolder('a-folder');
    await putFile(t, owner(), '/', 'c.txt', 'ccc');
    await putFile(t, owner(), '/', 'a.txt', 'a');
    expect(fs.statSync(disk('a-folder')).isDirectory()).toBe(true);

    const all = await list('/');
    expect(all.count).toBe(4);
    expect(all.data!.map((i) => i.name)).toEqual(['a-folder', 'b-folder', 'a.txt', 'c.txt']);

    const bySize = await list('/', { sortableProp: 'size', order: 'descending' });
    expect(bySize.data!.map((i) => i.name)).toEqual(['a-folder', 'b-folder', 'c.txt', 'a.txt']);

    const page2 = await list('/', { pageIndex: 2, pageSize: 3 });
    expect(page2.count).toBe(4);
    expect(page2.data!.map((i) => i.name)).toEqual(['c.txt']);
  });

  it('works with Chinese, emoji and spaces in nested folders', async () => {
    await newFolder('文档 📁');
    await newFolder('子 目录', '/文档 📁');
    const id = await putFile(t, owner(), '/文档 📁/子 目录', '笔记 ✅.txt', '你好');
    const inner = await list('/文档 📁/子 目录');
    expect(inner.data!.map((i) => i.name)).toEqual(['笔记 ✅.txt']);
    expect(fs.readFileSync(disk('文档 📁', '子 目录', '笔记 ✅.txt'), 'utf8')).toBe('你好');
    const info = await call<Item>(t.app, 'GET', '/file_info', {
      token: admin.token,
      query: { id },
    });
    expect(info.body.data).toMatchObject({ name: '笔记 ✅.txt', path: '/文档 📁/子 目录/' });
    const parent = await list('/文档 📁');
    expect(parent.data![0]!.childrenCount).toBe(1);
  });

  it('refuses bad names with a clear message and creates nothing', async () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['   ', /empty/],
      ['.', /"\."/],
      ['..', /"\."/],
      ['a/b', /"\/"/],
      ['a\\b', /"\\"/],
      ['nul\u0000byte', /control/],
      ['tab\tname', /control/],
      ['x'.repeat(256), /too long/],
      ['字'.repeat(86), /too long/],
    ];
    for (const [name, message] of cases) {
      const res = await call(t.app, 'POST', '/new_folder', {
        token: admin.token,
        query: { filename: name, currentDirectory: '/' },
      });
      expect(res.body.code, JSON.stringify(name)).toBe(10);
      expect(res.body.message, JSON.stringify(name)).toMatch(message);
    }
    expect((await list('/')).count).toBe(0);
    expect(fs.readdirSync(disk())).toEqual([]);
    // 255 bytes is fine
    await newFolder('x'.repeat(255));
  });

  it('names a wrong page number in words', async () => {
    const res = await call(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/', pageSize: 'many', pageIndex: '0' },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('pageSize: must be a number');
    expect(res.body.message).toContain('pageIndex: at least 1');
  });

  it('refuses a path that climbs out of the tree', async () => {
    for (const dir of ['/../..', '/a/../../etc', '..']) {
      const res = await call(t.app, 'GET', '/list', {
        token: admin.token,
        query: { currentDirectory: dir },
      });
      expect(res.body.code, dir).toBe(10);
    }
  });

  it('refuses a name taken in the same folder', async () => {
    await newFolder('docs');
    const res = await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'docs', currentDirectory: '/' },
    });
    expect(res).toMatchObject({
      status: 409,
      body: { code: 4, message: '"docs" already exists in this folder' },
    });
  });

  it('answers a folder that does not exist', async () => {
    const res = await call(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/nope' },
    });
    expect(res.body.code).toBe(13);
  });
});

describe('rename', () => {
  it('keeps ids and rewrites every descendant path', async () => {
    const a = await newFolder('a');
    const b = await newFolder('b', '/a');
    const fileId = await putFile(t, owner(), '/a/b', 'f.txt', 'hello');
    await call(t.app, 'POST', '/favorite', { token: admin.token, query: { fileIds: [fileId] } });

    const res = await call<Item>(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id: a.id, newFileName: 'renamed' },
    });
    expect(res.body.data).toMatchObject({ id: a.id, name: 'renamed' });
    const info = await call<Item>(t.app, 'GET', '/file_info', {
      token: admin.token,
      query: { id: fileId },
    });
    expect(info.body.data).toMatchObject({ id: fileId, path: '/renamed/b/', isFavorite: true });
    const bInfo = await call<Item>(t.app, 'GET', '/file_info', {
      token: admin.token,
      query: { id: b.id },
    });
    expect(bInfo.body.data!.path).toBe('/renamed/');
    expect(fs.readFileSync(disk('renamed', 'b', 'f.txt'), 'utf8')).toBe('hello');
    expect(fs.existsSync(disk('a'))).toBe(false);
  });

  it('refuses a taken name and a bad name, changing nothing', async () => {
    await newFolder('x');
    const y = await newFolder('y');
    const taken = await call(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id: y.id, newFileName: 'x' },
    });
    expect(taken.body.code).toBe(4);
    const bad = await call(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id: y.id, newFileName: '../x' },
    });
    expect(bad.body.code).toBe(10);
    expect((await list('/')).data!.map((i) => i.name)).toEqual(['x', 'y']);
  });

  it('renames a file and updates its type', async () => {
    const id = await putFile(t, owner(), '/', 'notes.txt', 'n');
    const res = await call<Item & { suffix: string; type: string }>(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id, newFileName: 'photo.PNG' },
    });
    expect(res.body.data).toMatchObject({ suffix: 'png', type: 'image' });
  });

  it('renames by path', async () => {
    await newFolder('dir');
    await putFile(t, owner(), '/dir', 'old.md', '#');
    const res = await call<Item>(t.app, 'GET', '/rename/path', {
      token: admin.token,
      query: { path: '/dir/old.md', newFileName: 'new.md' },
    });
    expect(res.body.data!.name).toBe('new.md');
  });
});

describe('move and copy', () => {
  it('moves items with their ids, and reports conflicts first', async () => {
    const src = await newFolder('src');
    const dst = await newFolder('dst');
    const fileId = await putFile(t, owner(), '/src', 'a.txt', 'A');
    await putFile(t, owner(), '/dst', 'a.txt', 'other');

    const check = await call<Item[]>(t.app, 'GET', '/check-move-copy', {
      token: admin.token,
      query: { froms: [fileId], to: dst.id },
    });
    expect(check.body.count).toBe(1);
    expect(check.body.data![0]!.name).toBe('a.txt');

    const refused = await call<Array<{ code: number; msg: string }>>(t.app, 'GET', '/move', {
      token: admin.token,
      query: { froms: [fileId], to: dst.id },
    });
    expect(refused.body.data![0]).toMatchObject({
      code: -1,
      msg: '"a.txt" already exists in the target folder',
    });

    const moved = await call<Array<{ code: number }>>(t.app, 'GET', '/move', {
      token: admin.token,
      query: { froms: [fileId], to: dst.id, isOverride: 'true' },
    });
    expect(moved.body.data![0]!.code).toBe(0);
    const info = await call<Item>(t.app, 'GET', '/file_info', {
      token: admin.token,
      query: { id: fileId },
    });
    expect(info.body.data!.path).toBe('/dst/');
    expect(fs.readFileSync(disk('dst', 'a.txt'), 'utf8')).toBe('A');
    // the overwritten file went to the trash, not away
    const trash = await list('/', { queryFileType: 'trash' });
    expect(trash.data!.map((i) => i.name)).toEqual(['a.txt']);
    expect((await list('/src')).count).toBe(0);
    expect((await list('/', {})).data!.find((i) => i.id === src.id)!.childrenCount).toBe(0);
  });

  it('refuses to move a folder into itself or its descendant', async () => {
    const a = await newFolder('a');
    const b = await newFolder('b', '/a');
    for (const to of [a.id, b.id]) {
      const res = await call(t.app, 'GET', '/move', {
        token: admin.token,
        query: { froms: [a.id], to },
      });
      expect(res.body.code).toBe(10);
      expect(res.body.message).toMatch(/into itself/);
    }
    expect(fs.existsSync(disk('a', 'b'))).toBe(true);
  });

  it('copies a folder tree with new ids and counts the space', async () => {
    await newFolder('a');
    await newFolder('b', '/a');
    await putFile(t, owner(), '/a/b', 'f.txt', '12345');
    const before = await used();
    const a = (await list('/')).data![0]!;
    const res = await call<Array<{ code: number; to: string }>>(t.app, 'GET', '/copy', {
      token: admin.token,
      query: { froms: [a.id], to: '0' },
    });
    expect(res.body.data![0]).toMatchObject({ code: 0, to: '/a(1)' });
    const inner = await list('/a(1)/b');
    expect(inner.data!.map((i) => i.name)).toEqual(['f.txt']);
    expect(fs.readFileSync(disk('a(1)', 'b', 'f.txt'), 'utf8')).toBe('12345');
    expect(await used()).toBe(before + 5);
    const original = await list('/a/b');
    expect(original.data![0]!.id).not.toBe(inner.data![0]!.id);
  });

  it('refuses a copy that would exceed the quota before writing a byte', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob', quota: 0.000001 }); // about 1 KiB
    const bobOwner = { userId: bob.userId, username: 'bob' };
    const id = await putFile(t, bobOwner, '/', 'big.bin', Buffer.alloc(700));
    const res = await call(t.app, 'GET', '/copy', {
      token: bob.token,
      query: { froms: [id], to: '0' },
    });
    expect(res).toMatchObject({ status: 413, body: { code: 20 } });
    expect(fs.readdirSync(path.join(t.dataDir, 'files', 'bob'))).toEqual(['big.bin']);
  });

  it('duplicates a file next to itself', async () => {
    const id = await putFile(t, owner(), '/', 'report.pdf', 'pdf');
    const res = await call<Item>(t.app, 'GET', '/duplicate', {
      token: admin.token,
      query: { fileId: id },
    });
    expect(res.body.data!.name).toBe('report(1).pdf');
    const named = await call<Item>(t.app, 'GET', '/duplicate', {
      token: admin.token,
      query: { fileId: id, newFilename: 'copy.pdf' },
    });
    expect(named.body.data!.name).toBe('copy.pdf');
  });
});

describe('trash', () => {
  it('round-trips a folder through the trash, restoring under a free name when taken', async () => {
    const a = await newFolder('a');
    const fileId = await putFile(t, owner(), '/a', 'f.txt', 'data');
    const del = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [a.id] },
    });
    expect(del.body.code).toBe(0);
    expect((await list('/')).count).toBe(0);
    expect(fs.existsSync(disk('a'))).toBe(false);
    const trash = await list('/', { queryFileType: 'trash' });
    expect(trash.data!.map((i) => i.name)).toEqual(['a']);
    // trash still counts against the quota
    expect(await used()).toBe(4);

    await newFolder('a'); // the name is taken meanwhile
    const res = await call<Array<{ to: string; msg: string }>>(t.app, 'POST', '/restore', {
      token: admin.token,
      query: { fileIds: [a.id] },
    });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data![0]).toMatchObject({ to: '/a(1)', msg: 'Restored as "a(1)"' });
    const info = await call<Item>(t.app, 'GET', '/file_info', {
      token: admin.token,
      query: { id: fileId },
    });
    expect(info.body.data!.path).toBe('/a(1)/');
    expect(fs.readFileSync(disk('a(1)', 'f.txt'), 'utf8')).toBe('data');
    expect((await list('/', { queryFileType: 'trash' })).count).toBe(0);
  });

  it('restores into a parent folder that was deleted meanwhile', async () => {
    await newFolder('p');
    const id = await putFile(t, owner(), '/p', 'x.txt', 'x');
    await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: [id] } });
    const p = (await list('/')).data![0]!;
    await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [p.id], sweep: 'true' },
    });
    await call(t.app, 'POST', '/restore', { token: admin.token, query: { fileIds: [id] } });
    expect((await list('/p')).data!.map((i) => i.name)).toEqual(['x.txt']);
  });

  it('sweep and clear-trash free the space for good', async () => {
    const one = await putFile(t, owner(), '/', 'one.bin', Buffer.alloc(100));
    const two = await putFile(t, owner(), '/', 'two.bin', Buffer.alloc(50));
    await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: [one, two] } });
    expect(await used()).toBe(150);
    await call(t.app, 'DELETE', '/sweep', { token: admin.token, query: { fileIds: [one] } });
    expect(await used()).toBe(50);
    await call(t.app, 'DELETE', '/clear-trash', { token: admin.token });
    expect(await used()).toBe(0);
    expect(fs.readdirSync(path.join(t.dataDir, 'trash', ADMIN.username))).toEqual([]);
    const gone = await call(t.app, 'POST', '/restore', {
      token: admin.token,
      query: { fileIds: [two] },
    });
    expect(gone.body.code).toBe(7);
  });

  it('deletes for good in one step, a folder and an item inside it chosen together', async () => {
    const folder = await newFolder('old');
    const inner = await putFile(t, owner(), '/old', 'inner.bin', Buffer.alloc(70));
    await putFile(t, owner(), '/', 'kept.bin', Buffer.alloc(30));
    const res = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: [folder.id, inner], sweep: 'true' },
    });
    expect(res.body).toMatchObject({ code: 0, message: 'Deleted' });
    expect(await used()).toBe(30);
    expect((await list('/', { queryFileType: 'trash' })).count).toBe(0);
    expect(fs.existsSync(disk('old'))).toBe(false);
    expect(fs.readdirSync(path.join(t.dataDir, 'trash', ADMIN.username))).toEqual([]);
    expect((await list('/')).data!.map((i) => i.name)).toEqual(['kept.bin']);
  });
});

describe('views, favorites and new files', () => {
  it('lists drive-wide views by type, recently and favorites', async () => {
    await newFolder('pics');
    const img = await putFile(t, owner(), '/pics', 'cat.jpg', 'jpg');
    await putFile(t, owner(), '/', 'song.mp3', 'mp3');
    await putFile(t, owner(), '/', 'doc.pdf', 'pdf');
    expect((await list('/', { queryFileType: 'image' })).data!.map((i) => i.name)).toEqual([
      'cat.jpg',
    ]);
    expect((await list('/', { queryFileType: 'audio' })).data!.map((i) => i.name)).toEqual([
      'song.mp3',
    ]);
    expect((await list('/', { queryFileType: 'document' })).data!.map((i) => i.name)).toEqual([
      'doc.pdf',
    ]);
    const recent = await list('/', { queryFileType: 'recently' });
    expect(recent.data!.every((i) => !i.isFolder)).toBe(true);
    await call(t.app, 'POST', '/favorite', { token: admin.token, query: { fileIds: [img] } });
    expect((await list('/', { isFavorite: 'true' })).data!.map((i) => i.name)).toEqual(['cat.jpg']);
    await call(t.app, 'POST', '/unFavorite', { token: admin.token, query: { fileIds: [img] } });
    expect((await list('/', { isFavorite: 'true' })).count).toBe(0);
  });

  it('creates valid empty documents', async () => {
    for (const name of ['a.txt', 'b.md', 'c.mind', 'd.docx', 'e.xlsx', 'f.pptx']) {
      const res = await call<Item>(t.app, 'POST', '/addfile', {
        token: admin.token,
        query: { fileName: name, parentPath: '/' },
      });
      expect(res.body.code, name).toBe(0);
    }
    expect(fs.statSync(disk('a.txt')).size).toBe(0);
    expect(JSON.parse(fs.readFileSync(disk('c.mind'), 'utf8')).root.data.text).toBe('c');
    for (const name of ['d.docx', 'e.xlsx', 'f.pptx']) {
      const bytes = fs.readFileSync(disk(name));
      expect(bytes.subarray(0, 4).toString('hex'), name).toBe('504b0304');
    }
    const dup = await call(t.app, 'POST', '/addfile', {
      token: admin.token,
      query: { fileName: 'a.txt', parentPath: '/' },
    });
    expect(dup.body.code).toBe(4);
  });

  it('lists child folders for the move dialog', async () => {
    const a = await newFolder('a');
    await newFolder('z', '/a');
    await newFolder('m', '/a');
    await putFile(t, owner(), '/a', 'file.txt', '');
    const tree = await call<Item[]>(t.app, 'GET', '/query-file-tree', {
      token: admin.token,
      query: { fileId: a.id },
    });
    expect(tree.body.data!.map((i) => i.name)).toEqual(['m', 'z']);
  });
});

describe('long selections', () => {
  // a query string holds a few hundred ids before the HTTP header limit; a whole folder is more
  const COUNT = 600;
  async function many(folder: string): Promise<string[]> {
    const { files, db } = t.app.services;
    const parent = await files.resolveFolder(admin.userId, folder);
    const ids: string[] = [];
    const rows: NewFileRow[] = [];
    for (let i = 0; i < COUNT; i++) {
      const name = `f-${String(i).padStart(4, '0')}.txt`;
      fs.writeFileSync(disk(...folder.split('/').filter(Boolean), name), 'x');
      const id = crypto.randomUUID();
      ids.push(id);
      rows.push({
        id,
        userId: admin.userId,
        parentId: parent.id,
        name,
        path: parent.prefix,
        isFolder: 0,
        size: 1,
        contentType: 'text/plain',
        suffix: 'txt',
        fileType: 'text',
        hash: null,
        uploadDate: Date.now(),
        updateDate: Date.now(),
        isFavorite: 0,
        media: null,
        childrenCount: 0,
        trashId: null,
        trashedAt: null,
      });
    }
    await db.transaction().execute((trx) => files.repo.insertMany(rows, trx));
    await files.repo.adjustChildren(parent.id, COUNT);
    await files.repo.adjustUsed(admin.userId, COUNT);
    return ids;
  }

  it('moves, trashes, restores and favorites hundreds of items with the ids in a JSON body', async () => {
    await newFolder('big');
    const target = await newFolder('target');
    const ids = await many('/big');

    const favorite = await call(t.app, 'POST', '/favorite', {
      token: admin.token,
      body: { fileIds: ids },
    });
    expect(favorite.body.code, favorite.body.message).toBe(0);
    expect((await list('/', { isFavorite: 'true', pageSize: 1 })).count).toBe(COUNT);

    const conflicts = await call<Item[]>(t.app, 'POST', '/check-move-copy', {
      token: admin.token,
      body: { froms: ids, to: target.id },
    });
    expect(conflicts.body).toMatchObject({ code: 0, data: [] });
    const moved = await call<Array<{ code: number }>>(t.app, 'POST', '/move', {
      token: admin.token,
      body: { froms: ids, to: target.id, isOverride: false },
    });
    expect(moved.body.code, moved.body.message).toBe(0);
    expect(moved.body.data!.filter((r) => r.code === 0)).toHaveLength(COUNT);
    expect((await list('/target', { pageSize: 1 })).count).toBe(COUNT);
    expect((await list('/big')).count).toBe(0);
    expect(fs.readdirSync(disk('target'))).toHaveLength(COUNT);

    const trashed = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      body: { fileIds: ids },
    });
    expect(trashed.body.code, trashed.body.message).toBe(0);
    expect((await list('/target')).count).toBe(0);
    expect((await list('/', { queryFileType: 'trash', pageSize: 1 })).count).toBe(COUNT);

    const restored = await call<Array<{ code: number }>>(t.app, 'POST', '/restore', {
      token: admin.token,
      body: { fileIds: ids },
    });
    expect(restored.body.code, restored.body.message).toBe(0);
    expect((await list('/target', { pageSize: 1 })).count).toBe(COUNT);
  });

  it('zips hundreds of items posted as a form with the token in it, never with the cookie alone', async () => {
    await newFolder('big');
    const ids = await many('/big');
    const allowed = await call<{ allowDownload: boolean }>(
      t.app,
      'POST',
      '/isAllowPackageDownload',
      {
        token: admin.token,
        body: { fileIds: ids },
      },
    );
    expect(allowed.body.data?.allowDownload).toBe(true);

    const form = (fields: Record<string, string>) => ({
      method: 'POST' as const,
      url: '/api/packageDownload',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });
    const res = await t.app.inject(form({ fileIds: ids.join(','), 'nimbus-token': admin.token }));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    // the central directory's entry count (end of central directory record)
    const zip = res.rawPayload;
    const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    expect(zip.readUInt16LE(end + 10)).toBe(COUNT);

    // a page on another site can post the form, but neither knows the token nor may use the cookie
    const anonymous = await t.app.inject(form({ fileIds: ids.join(',') }));
    expect(anonymous.statusCode).toBe(401);
    const byCookie = await t.app.inject({
      ...form({ fileIds: ids.join(',') }),
      cookies: { 'nimbus-token': admin.token },
    });
    expect(byCookie.statusCode).toBe(401);
    const wrong = await t.app.inject(form({ fileIds: ids.join(','), 'nimbus-token': 'nope' }));
    expect(wrong.json()).toMatchObject({ code: 5 });
  });
});

describe('isolation between users', () => {
  it("refuses another user's ids everywhere", async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const secret = await putFile(t, owner(), '/', 'secret.txt', 'top secret');
    const folder = await newFolder('private');
    const attempts: Array<
      [method: 'GET' | 'POST' | 'DELETE', url: string, query: Record<string, string | string[]>]
    > = [
      ['GET', '/file_info', { id: secret }],
      ['GET', '/rename', { id: secret, newFileName: 'mine.txt' }],
      ['GET', '/move', { froms: [secret], to: '0' }],
      ['GET', '/copy', { froms: [secret], to: '0' }],
      ['GET', '/duplicate', { fileId: secret }],
      ['DELETE', '/delete', { fileIds: [secret] }],
      ['POST', '/favorite', { fileIds: [secret] }],
      ['GET', '/list', { folder: folder.id }],
      ['GET', '/query-file-tree', { fileId: folder.id }],
      ['GET', '/check-move-copy', { froms: [secret], to: '0' }],
      ['GET', '/isAllowDownload', { fileIds: [secret] }],
      ['GET', '/packageDownload', { fileIds: [secret] }],
    ];
    for (const [method, url, query] of attempts) {
      const res = await call(t.app, method, url, { token: bob.token, query });
      expect(res.body.code, `${method} ${url}`).toBeGreaterThan(0);
      expect(JSON.stringify(res.body), url).not.toContain('top secret');
    }
    // the same with the ids in a JSON body
    const bodies: Array<[method: 'POST' | 'DELETE', url: string, body: Record<string, unknown>]> = [
      ['POST', '/move', { froms: [secret], to: '0' }],
      ['POST', '/copy', { froms: [secret], to: '0' }],
      ['POST', '/check-move-copy', { froms: [secret], to: '0' }],
      ['DELETE', '/delete', { fileIds: [secret] }],
      ['POST', '/favorite', { fileIds: [secret] }],
      ['POST', '/isAllowPackageDownload', { fileIds: [secret] }],
    ];
    for (const [method, url, body] of bodies) {
      const res = await call(t.app, method, url, { token: bob.token, body });
      expect(res.body.code, `${method} ${url} (body)`).toBeGreaterThan(0);
      expect(JSON.stringify(res.body), url).not.toContain('top secret');
    }
    // moving bob's own file into the admin's folder is refused too
    const bobFile = await putFile(t, { userId: bob.userId, username: 'bob' }, '/', 'b.txt', 'b');
    const into = await call(t.app, 'GET', '/move', {
      token: bob.token,
      query: { froms: [bobFile], to: folder.id },
    });
    expect(into.body.code).toBe(13);
    const raw = await t.app.inject({
      method: 'GET',
      url: `/api/pre-file/${secret}/secret.txt`,
      headers: { 'nimbus-token': bob.token },
    });
    expect(raw.statusCode).toBe(404);
    const byPath = await t.app.inject({
      method: 'GET',
      url: `/api/file/admin/secret.txt`,
      headers: { 'nimbus-token': bob.token },
    });
    expect(byPath.statusCode).toBe(403);
    expect(fs.readFileSync(disk('secret.txt'), 'utf8')).toBe('top secret');
  });
});

describe('listing counts', () => {
  it('the recently view counts files only, and folder counts follow every change', async () => {
    await newFolder('f1');
    await newFolder('f2');
    for (let i = 0; i < 3; i++) await putFile(t, owner(), '/', `r${i}.txt`, 'r');
    const recent = await list('/', { queryFileType: 'recently', pageSize: 2 });
    expect(recent.count).toBe(3);
    expect(recent.data!.every((i) => !i.isFolder)).toBe(true);

    const a = await newFolder('a');
    const one = await putFile(t, owner(), '/a', 'one.txt', '1');
    const two = await putFile(t, owner(), '/a', 'two.txt', '2');
    await newFolder('sub', '/a');
    expect((await list('/a')).count).toBe(3);
    await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: [one] } });
    expect((await list('/a')).count).toBe(2);
    await call(t.app, 'GET', '/move', { token: admin.token, query: { froms: [two], to: '0' } });
    expect((await list('/a')).count).toBe(1);
    await call(t.app, 'POST', '/restore', { token: admin.token, query: { fileIds: [one] } });
    const after = await list('/a');
    expect(after.count).toBe(2);
    expect(after.data!.length).toBe(2);
    expect((await list('/')).data!.find((i) => i.id === a.id)!.childrenCount).toBe(2);
  });
});
