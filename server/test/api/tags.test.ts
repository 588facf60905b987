import { describe, expect, it } from 'vitest';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';

interface Tag {
  id: string;
  tagId: string;
  name: string;
  color: string;
  sort: number;
  slug: string;
}

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

const addTag = (body: Record<string, unknown>, token = admin.token) =>
  call<Tag>(t.app, 'POST', '/tag/add', { token, body });
const listTags = async (token = admin.token) => {
  const res = await call<Tag[]>(t.app, 'GET', '/tag/list', {
    token,
    query: { userId: admin.userId },
  });
  expect(res.body.code).toBe(0);
  return res.body.data!;
};

describe('tag rules', () => {
  it('requires a name without [ ] / \\ " < > ? * and a hex colour (default #f56c6c)', async () => {
    for (const name of ['', '   ']) {
      const res = await addTag({ name });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('enter a tag name');
    }
    for (const name of ['a[b', 'a]b', 'a/b', 'a\\b', 'a"b', 'a<b', 'a>b', 'a?b', 'a*b']) {
      const res = await addTag({ name });
      expect(res.body.code, name).toBe(10);
      expect(res.body.message).toBe('a tag name cannot contain [ ] / \\ " < > ? *');
    }
    const long = await addTag({ name: 'x'.repeat(33) });
    expect(long.body.code).toBe(10);
    const badColour = await addTag({ name: 'ok', color: 'red' });
    expect(badColour.body.message).toBe('the colour must be a hex colour such as #f56c6c');

    const made = await addTag({ name: ' 工作 ' });
    expect(made.body.code).toBe(0);
    expect(made.body.data).toMatchObject({ name: '工作', color: '#f56c6c', slug: '工作' });
    const twin = await addTag({ name: '工作' });
    expect(twin.status).toBe(409);
    expect(twin.body.message).toBe('a tag with this name already exists');
    const sameButCase = await addTag({ name: 'Work' });
    expect(sameButCase.body.code).toBe(0);
    expect((await addTag({ name: 'work' })).status).toBe(409);
    // nothing half-made
    expect((await listTags()).map((tag) => tag.name)).toEqual(['工作', 'Work']);
  });

  it('updates names and colours with the same rules, and deletes', async () => {
    const a = (await addTag({ name: 'alpha', color: '#123456' })).body.data!;
    const b = (await addTag({ name: 'beta' })).body.data!;
    let res = await call(t.app, 'PUT', '/tag/update', {
      token: admin.token,
      body: { id: a.id, name: 'a*' },
    });
    expect(res.body.message).toBe('a tag name cannot contain [ ] / \\ " < > ? *');
    res = await call(t.app, 'PUT', '/tag/update', {
      token: admin.token,
      body: { id: a.id, name: 'beta' },
    });
    expect(res.status).toBe(409);
    res = await call(t.app, 'PUT', '/updateTag', {
      token: admin.token,
      query: { tagId: a.id, name: '阿尔法', color: '#00AA00' },
    });
    expect(res.body.code).toBe(0);
    expect(res.body.message).toBe('Modified');
    const info = await call<Tag>(t.app, 'GET', '/tag/info', {
      token: admin.token,
      query: { tagId: a.id },
    });
    expect(info.body.data).toMatchObject({ name: '阿尔法', color: '#00aa00' });

    res = await call(t.app, 'DELETE', '/tag/delete', {
      token: admin.token,
      query: { tagIds: [a.id, b.id] },
    });
    expect(res.body.code).toBe(0);
    expect(await listTags()).toEqual([]);
  });

  it('keeps the order the user drags them into', async () => {
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three', 'four'])
      ids.push((await addTag({ name })).body.data!.id);
    expect((await listTags()).map((tag) => tag.name)).toEqual(['one', 'two', 'three', 'four']);
    const res = await call<Tag[]>(t.app, 'POST', '/tag/sort', {
      token: admin.token,
      body: [ids[3], ids[0], ids[2]],
    });
    expect(res.body.code).toBe(0);
    expect(res.body.message).toBe('Tag order updated');
    // the ids named first, in that order; the others after them
    expect((await listTags()).map((tag) => [tag.name, tag.sort])).toEqual([
      ['four', 0],
      ['one', 1],
      ['three', 2],
      ['two', 3],
    ]);
    // a new tag goes last
    await addTag({ name: 'five' });
    expect((await listTags()).at(-1)!.name).toBe('five');
  });

  it('keeps every user to their own tags', async () => {
    const mine = (await addTag({ name: 'mine' })).body.data!;
    const bob = await makeUser(t.app, admin.token);
    expect(await listTags(bob.token)).toEqual([]);
    const info = await call(t.app, 'GET', '/tag/info', {
      token: bob.token,
      query: { tagId: mine.id },
    });
    expect(info.status).toBe(404);
    await call(t.app, 'DELETE', '/tag/delete', { token: bob.token, query: { tagIds: mine.id } });
    await call(t.app, 'PUT', '/tag/update', {
      token: bob.token,
      body: { id: mine.id, name: 'stolen' },
    });
    expect((await listTags()).map((tag) => tag.name)).toEqual(['mine']);
    // the same name is free for someone else
    expect((await addTag({ name: 'mine' }, bob.token)).body.code).toBe(0);
  });
});

describe('tagging files', () => {
  it('tags files with setTag (creating tags on the fly), lists by tagId, finds by tag name, and announces updateTags', async () => {
    const a = await putFile(t, owner(), '/', 'a.txt', 'a');
    const b = await putFile(t, owner(), '/', 'b.txt', 'b');
    const events: Array<{ url: string; body: unknown }> = [];
    t.app.services.events.subscribe(admin.userId, (e) => events.push(e));
    const existing = (await addTag({ name: '重要', color: '#ff0000' })).body.data!;

    let res = await call<Tag[]>(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: {
        fileIds: [a, b],
        tagList: [{ id: existing.id }, { name: '旅行计划' }],
        removeTagIds: [],
      },
    });
    expect(res.body.code, res.body.message).toBe(0);
    const created = res.body.data!.find((tag) => tag.name === '旅行计划')!;
    expect(created.color).toBe('#f56c6c');
    expect((await listTags()).map((tag) => tag.name)).toEqual(['重要', '旅行计划']);
    await expect.poll(() => events.some((e) => e.url === 'updateTags')).toBe(true);

    // a tag given by a name that exists is reused, not doubled
    res = await call(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: { fileIds: [a], tagList: [{ name: '重要' }], removeTagIds: [created.id] },
    });
    expect(res.body.code).toBe(0);
    expect((await listTags()).length).toBe(2);

    const tagsOf = await call<Record<string, Tag[]>>(t.app, 'GET', '/tag/fileTags', {
      token: admin.token,
      query: { fileIds: [a, b] },
    });
    expect(tagsOf.body.data![a]!.map((tag) => tag.name)).toEqual(['重要']);
    expect(tagsOf.body.data![b]!.map((tag) => tag.name)).toEqual(['重要', '旅行计划']);

    // the tag views
    const byTag = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { tagId: created.id },
    });
    expect(byTag.body.data!.map((f) => f.name)).toEqual(['b.txt']);
    expect(byTag.body.count).toBe(1);

    // search by tag name (ranked after name matches), and limited to a tag
    const found = await call<Array<{ name: string; matchedIn: string; tags: Tag[] }>>(
      t.app,
      'GET',
      '/search-file',
      { token: admin.token, query: { keyword: '旅行', searchOverall: true } },
    );
    expect(found.body.data!.map((f) => [f.name, f.matchedIn])).toEqual([['b.txt', 'tag']]);
    expect(found.body.data![0]!.tags.map((tag) => tag.name)).toEqual(['重要', '旅行计划']);
    const noTags = await call<unknown[]>(t.app, 'GET', '/search-file', {
      token: admin.token,
      query: { keyword: '旅行', searchOverall: true, includeTagName: false },
    });
    expect(noTags.body.count).toBe(0);
    const withinTag = await call<Array<{ name: string }>>(t.app, 'GET', '/search-file', {
      token: admin.token,
      query: { keyword: 'txt', searchOverall: true, tagId: existing.id },
    });
    expect(withinTag.body.data!.map((f) => f.name).sort()).toEqual(['a.txt', 'b.txt']);

    // deleting a tag takes it off the files; deleting a file takes its tags along
    res = await call(t.app, 'DELETE', '/deleteTag', {
      token: admin.token,
      query: { tagId: created.id },
    });
    expect(res.body.code).toBe(0);
    await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: a, sweep: true },
    });
    const left = await t.database.db.selectFrom('fileTag').select(['fileId', 'tagId']).execute();
    expect(left).toEqual([{ fileId: b, tagId: existing.id }]);
  });

  it('lists each item with its tags in their order, on every view of the drive', async () => {
    const docsIn = (token: string) =>
      call(t.app, 'POST', '/new_folder', {
        token,
        query: { currentDirectory: '/', filename: 'docs' },
      });
    const docs = await docsIn(admin.token);
    const a = await putFile(t, owner(), '/docs/', 'a.txt', 'a');
    const b = await putFile(t, owner(), '/docs/', 'b.txt', 'b');
    await putFile(t, owner(), '/docs/', 'c.txt', 'c');
    const first = (await addTag({ name: 'first', color: '#112233' })).body.data!;
    const second = (await addTag({ name: 'second' })).body.data!;
    await call(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: { fileIds: [a, b], tagList: [{ id: second.id }, { id: first.id }], removeTagIds: [] },
    });
    await call(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: { fileIds: [b], tagList: [], removeTagIds: [second.id] },
    });
    // another user's tag on the same names never shows
    const bob = await makeUser(t.app, admin.token);
    await docsIn(bob.token);
    const bobsFile = await putFile(
      t,
      { userId: bob.userId, username: bob.username },
      '/docs/',
      'a.txt',
      'x',
    );
    await call(t.app, 'POST', '/setTag', {
      token: bob.token,
      body: { fileIds: [bobsFile], tagList: [{ name: 'bobs' }], removeTagIds: [] },
    });

    type Listed = { name: string; tags?: Array<{ name: string; color: string }> };
    const tagsByName = (items: Listed[]) =>
      Object.fromEntries(items.map((f) => [f.name, (f.tags ?? []).map((tag) => tag.name)]));
    const folder = await call<Listed[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/docs' },
    });
    expect(tagsByName(folder.body.data!)).toEqual({
      'a.txt': ['first', 'second'],
      'b.txt': ['first'],
      'c.txt': [],
    });
    expect(folder.body.data!.find((f) => f.name === 'a.txt')!.tags![0]!.color).toBe('#112233');
    const opened = await call<Listed[]>(t.app, 'GET', '/search-file-open', {
      token: admin.token,
      query: { id: (docs.body.data as { id: string }).id },
    });
    expect(tagsByName(opened.body.data!)['b.txt']).toEqual(['first']);
    const root = await call<Listed[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/' },
    });
    expect(tagsByName(root.body.data!)).toEqual({ docs: [] });
    const recent = await call<Listed[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { queryFileType: 'recently' },
    });
    expect(tagsByName(recent.body.data!)['a.txt']).toEqual(['first', 'second']);
    const byTag = await call<Listed[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { tagId: first.id, pageSize: 1, pageIndex: 2 },
    });
    expect(byTag.body.data!.map((f) => f.tags!.map((tag) => tag.name))).toHaveLength(1);
    const bobs = await call<Listed[]>(t.app, 'GET', '/list', {
      token: bob.token,
      query: { currentDirectory: '/docs' },
    });
    expect(tagsByName(bobs.body.data!)).toEqual({ 'a.txt': ['bobs'] });
  });

  it("refuses to tag someone else's files or use their tags", async () => {
    const bob = await makeUser(t.app, admin.token);
    const bobsFile = await putFile(
      t,
      { userId: bob.userId, username: bob.username },
      '/',
      'b.txt',
      'b',
    );
    const mine = await putFile(t, owner(), '/', 'a.txt', 'a');
    const bobsTag = (await addTag({ name: 'bob' }, bob.token)).body.data!;
    let res = await call(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: { fileIds: [bobsFile], tagList: [{ name: 'x' }], removeTagIds: [] },
    });
    expect(res.body.code).toBe(7);
    res = await call(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: { fileIds: [mine], tagList: [{ id: bobsTag.id }], removeTagIds: [] },
    });
    expect(res.status).toBe(404);
    expect(await t.database.db.selectFrom('fileTag').selectAll().execute()).toEqual([]);
    // a rejected request creates no tag on the way
    expect((await listTags()).map((tag) => tag.name)).toEqual([]);
  });
});
