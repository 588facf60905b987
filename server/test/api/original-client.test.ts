import { createHash, randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Envelope } from '@nimbus/contract';
import { call, login, makeTestApp, makeUser, putFile, type TestApp } from '../harness.ts';

// A client written for the original API (spec §7, API-NOTES), as it speaks on the wire: query
// strings built by hand (values it encoded itself, then encoded again; bracketed list keys;
// empty optional values), multipart forms for JSON routes, and its upload identifier.

let t: TestApp;
let admin: { token: string; userId: string; username: string };
const ADMIN = { username: 'origin', password: 'origin-secret' };
/** How Nimbus's own web app sends a value: encoded once. */
const once = encodeURIComponent;

/** A request as the client sends it: `query` is the query string exactly as on the wire. */
async function wire<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  query = '',
  options: { token?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  const token = options.token === undefined ? admin.token : options.token;
  const res = await t.app.inject({
    method,
    url: `/api${path}${query ? `?${query}` : ''}`,
    headers: { ...(token ? { 'nimbus-token': token } : {}), ...options.headers },
    ...(options.body === undefined ? {} : { payload: options.body as string }),
  });
  return { status: res.statusCode, body: res.json<Envelope<T>>() };
}

/** A FormData as the browser sends it: its bytes and its content type. */
async function form(fields: Record<string, string | Blob>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: data });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type')! },
  };
}

/** Every document of the user has its text: the content jobs are done. */
async function indexed(userId: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const busy = await t.database.db
      .selectFrom('searchDoc')
      .select('state')
      .where('userId', '=', userId)
      .where('live', '=', 1)
      .where('state', 'in', ['pending', 'running', 'pending_ocr', 'running_ocr'])
      .execute();
    if (busy.length === 0) return;
    if (Date.now() > deadline) throw new Error('still indexing');
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Item = { id: string; name: string; path: string; isFolder: boolean; hash: string | null };
const names = (items: Item[] | undefined) => (items ?? []).map((i) => i.name).sort();

beforeAll(async () => {
  t = await makeTestApp();
  // the first run's form, as the original client posts it: multipart
  const init = await wire('POST', '/public/initialization', '', {
    token: '',
    ...(await form({ username: ADMIN.username, password: ADMIN.password })),
  });
  expect(init.status, JSON.stringify(init.body)).toBe(200);
  expect(init.body.code).toBe(0);
  admin = { ...(await login(t.app, ADMIN.username, ADMIN.password)), username: ADMIN.username };
  const made = await wire('POST', '/new_folder', 'filename=Docs&currentDirectory=%2F');
  expect(made.body.code).toBe(0);
  await putFile(t, admin, '/Docs/', 'hello 2.txt', 'hello two');
  await putFile(t, admin, '/Docs/', 'note.txt', 'a note');
  // names that really hold `%`, as Nimbus's web app sends them (encoded once)
  for (const name of ['100%25 sure', '50%'])
    expect(
      (await wire('POST', '/new_folder', `filename=${once(name)}&currentDirectory=${once('/')}`))
        .body.code,
    ).toBe(0);
  await putFile(t, admin, '/100%25 sure/', '50%.txt', 'fifty');
  await putFile(t, admin, '/100%25 sure/', 'doc.md', '# doc');
});
afterAll(async () => {
  await t.close();
});

describe('values the original client encoded itself', () => {
  it('lists, searches and lists by path inside a folder sent as %252FDocs', async () => {
    const list = await wire<Item[]>('GET', '/list', 'currentDirectory=%252FDocs&pageIndex=1');
    expect(list.status).toBe(200);
    expect(names(list.body.data)).toEqual(['hello 2.txt', 'note.txt']);
    const byPath = await wire<Item[]>('GET', '/listfiles', 'path=%252FDocs&username=origin');
    expect(names(byPath.body.data)).toEqual(['hello 2.txt', 'note.txt']);
    await indexed(admin.userId);
    const found = await wire<Item[]>(
      'GET',
      '/search-file',
      'keyword=hello&currentDirectory=%252FDocs&searchOverall=false',
    );
    expect(names(found.body.data)).toEqual(['hello 2.txt']);
  });

  it('keeps names that really hold % on the same routes, sent as the web app sends them', async () => {
    const folder = once('/100%25 sure');
    const list = await wire<Item[]>('GET', '/list', `currentDirectory=${folder}`);
    expect(names(list.body.data)).toEqual(['50%.txt', 'doc.md']);
    const byPath = await wire<Item[]>('GET', '/listfiles', `path=${folder}`);
    expect(names(byPath.body.data)).toEqual(['50%.txt', 'doc.md']);
    await indexed(admin.userId);
    const found = await wire<Item[]>(
      'GET',
      '/search-file',
      `keyword=fifty&currentDirectory=${folder}`,
    );
    expect(names(found.body.data)).toEqual(['50%.txt']);
    const root = await wire<Item[]>('GET', '/list', `currentDirectory=${once('/')}`);
    expect(names(root.body.data)).toEqual(['100%25 sure', '50%', 'Docs']);
  });

  it('creates a folder with a Chinese name inside a folder (upload-folder)', async () => {
    // 文件 encoded twice, as the original client's folder upload sends it
    const made = await wire<Item>(
      'POST',
      '/upload-folder',
      'isFolder=true&folderPath=&filename=%25E6%2596%2587%25E4%25BB%25B6&currentDirectory=%252FDocs&username=origin&userId=&folder=',
    );
    expect(made.body.code, made.body.message).toBe(0);
    expect(made.body.data).toMatchObject({ name: '文件', path: '/Docs/' });
    const real = await wire<Item>(
      'POST',
      '/upload-folder',
      `filename=${once('50%')}&currentDirectory=${once('/100%25 sure')}`,
    );
    expect(real.body.data).toMatchObject({ name: '50%', path: '/100%25 sure/' });
  });

  it('checks names in a folder sent as "%2F" in a JSON body (checkExist)', async () => {
    const json = { 'content-type': 'application/json' };
    const original = await wire<{ exist: boolean }>('POST', '/checkExist', '', {
      headers: json,
      body: JSON.stringify({ filenames: ['hello 2.txt'], currentDirectory: '%2FDocs' }),
    });
    expect(original.body.data?.exist).toBe(true);
    const real = await wire<{ exist: boolean }>('POST', '/checkExist', '', {
      headers: json,
      body: JSON.stringify({ filenames: ['50%.txt'], currentDirectory: '/100%25 sure' }),
    });
    expect(real.body.data?.exist).toBe(true);
  });

  it('saves by path sent as "Docs%2Fnote.txt" (markdown/edit1) and lists its history', async () => {
    const json = { 'content-type': 'application/json' };
    const saved = await wire('POST', '/markdown/edit1', '', {
      headers: json,
      body: JSON.stringify({
        username: 'origin',
        userId: admin.userId,
        relativePath: 'Docs%2Fnote.txt',
        contentText: 'the note, edited',
      }),
    });
    expect(saved.body.code, saved.body.message).toBe(0);
    const history = await wire<unknown[]>(
      'GET',
      '/history/path/list',
      'path=%252FDocs%252Fnote.txt&pageIndex=1&pageSize=10',
    );
    expect(history.body.code, history.body.message).toBe(0);
    expect(history.body.data).toHaveLength(1);
    const real = await wire('POST', '/markdown/edit1', '', {
      headers: json,
      body: JSON.stringify({ relativePath: '/100%25 sure/doc.md', contentText: '# edited' }),
    });
    expect(real.body.code, real.body.message).toBe(0);
    const realHistory = await wire<unknown[]>(
      'GET',
      '/history/path/list',
      `path=${once('/100%25 sure/doc.md')}`,
    );
    expect(realHistory.body.data).toHaveLength(1);
    const root = await wire<Item[]>('GET', '/list', 'currentDirectory=%252F');
    expect(names(root.body.data)).not.toContain('%2FDocs');
  });

  it('renames to a name sent as hello%2520renamed.txt, and deletes with %252FDocs', async () => {
    const id = await putFile(t, admin, '/Docs/', 'to-rename.txt', 'r');
    const renamed = await wire<Item>(
      'GET',
      '/rename',
      `newFileName=hello%2520renamed.txt&username=origin&id=${id}`,
    );
    expect(renamed.body.code, renamed.body.message).toBe(0);
    const real = await putFile(t, admin, '/Docs/', 'to-rename-2.txt', 'r');
    const renamedReal = await wire(
      'GET',
      '/rename',
      `newFileName=${once('100%25 done.txt')}&id=${real}`,
    );
    expect(renamedReal.body.code, renamedReal.body.message).toBe(0);
    let list = await wire<Item[]>('GET', '/list', 'currentDirectory=%252FDocs');
    expect(names(list.body.data)).toEqual(
      expect.arrayContaining(['hello renamed.txt', '100%25 done.txt']),
    );
    const deleted = await wire(
      'DELETE',
      '/delete',
      `username=origin&fileIds=${id}&currentDirectory=%252FDocs`,
    );
    expect(deleted.body.code, deleted.body.message).toBe(0);
    list = await wire<Item[]>('GET', '/list', 'currentDirectory=%252FDocs');
    expect(names(list.body.data)).not.toContain('hello renamed.txt');
  });
});

describe('bracketed list keys and empty values', () => {
  it('reads fileIds[]= as the list fileIds (isAllowDownload, delete)', async () => {
    const a = await putFile(t, admin, '/', 'a.txt', 'a');
    const b = await putFile(t, admin, '/', 'b.txt', 'b');
    const permit = await wire<{ allowDownload: boolean }>(
      'GET',
      '/isAllowDownload',
      `fileIds%5B%5D=${a}&fileIds%5B%5D=${b}`,
    );
    expect(permit.status, permit.body.message).toBe(200);
    expect(permit.body.data?.allowDownload).toBe(true);
    const deleted = await wire('DELETE', '/delete', `fileIds[]=${a}&fileIds[]=${b}`);
    expect(deleted.body.code, deleted.body.message).toBe(0);
    const root = await wire<Item[]>('GET', '/list', 'currentDirectory=%252F');
    expect(names(root.body.data)).not.toContain('a.txt');
    expect(names(root.body.data)).not.toContain('b.txt');
  });

  it('takes empty optional values as not given (user list, list)', async () => {
    const users = await wire<unknown[]>(
      'GET',
      '/user/userList',
      'page=1&pageSize=10&sortProp=&sortOrder=&username=&showName=',
    );
    expect(users.status, users.body.message).toBe(200);
    expect(users.body.count).toBeGreaterThanOrEqual(1);
    const list = await wire<Item[]>(
      'GET',
      '/list',
      'currentDirectory=&queryFileType=&sortableProp=&order=&isFolder=&pageIndex=&pageSize=',
    );
    expect(list.status, list.body.message).toBe(200);
    expect(names(list.body.data)).toContain('Docs');
  });
});

describe('form bodies', () => {
  it('updates the profile from a multipart form and from a urlencoded one', async () => {
    const multi = await wire('PUT', '/user/update', '', {
      ...(await form({ id: admin.userId, showName: 'Orig Inal', slogan: 'from a form' })),
    });
    expect(multi.body.code, multi.body.message).toBe(0);
    const url = await wire('PUT', '/user/update', '', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id=${admin.userId}&introduction=hello+there`,
    });
    expect(url.body.code, url.body.message).toBe(0);
    const info = await call<{ showName: string; slogan: string; introduction: string }>(
      t.app,
      'GET',
      '/user/info',
      { token: admin.token },
    );
    expect(info.body.data).toMatchObject({
      showName: 'Orig Inal',
      slogan: 'from a form',
      introduction: 'hello there',
    });
  });

  it('takes the profile form with its new picture, as the cropper sends it (a blob)', async () => {
    const png = await sharp({
      create: { width: 40, height: 40, channels: 3, background: '#cc6633' },
    })
      .png()
      .toBuffer();
    const res = await wire('PUT', '/user/update', '', {
      ...(await form({
        id: admin.userId,
        slogan: 'with a picture',
        blobAvatar: new Blob([new Uint8Array(png)], { type: 'image/png' }),
      })),
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ avatar: expect.any(String) });
    const info = await call<{ avatar?: string; slogan?: string }>(t.app, 'GET', '/user/info', {
      token: admin.token,
    });
    expect(info.body.data).toMatchObject({ slogan: 'with a picture', avatar: expect.any(String) });
  });

  it('refuses a picture that is none, another user’s picture and a file elsewhere, by name', async () => {
    const notPicture = await wire('PUT', '/user/update', '', {
      ...(await form({
        id: admin.userId,
        slogan: 'unchanged?',
        blobAvatar: new Blob([randomBytes(64)]),
      })),
    });
    expect(notPicture.status).toBe(422);
    expect(notPicture.body.message).toMatch(/^blobAvatar:/);
    const bob = await makeUser(t.app, admin.token, {
      username: 'carol',
      password: 'carol-secret-1',
    });
    const others = await wire('PUT', '/user/update', '', {
      ...(await form({
        id: bob.userId,
        blobAvatar: new Blob([randomBytes(64)], { type: 'image/png' }),
      })),
    });
    expect(others.status).toBe(403);
    expect(others.body.message).toMatch(/blobAvatar/);
    // another field of the same form, or a file on another form, stays refused
    const stray = await wire('PUT', '/user/update', '', {
      ...(await form({ id: admin.userId, notes: new Blob(['x']) })),
    });
    expect(stray.status).toBe(422);
    expect(stray.body.message).toMatch(/notes/);
    const elsewhere = await wire('PUT', '/user/update-pass', '', {
      ...(await form({ id: admin.userId, password: 'x', blobAvatar: new Blob(['x']) })),
    });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body.message).toMatch(/blobAvatar/);
    // nothing of a refused form was kept
    const info = await call<{ slogan?: string }>(t.app, 'GET', '/user/info', {
      token: admin.token,
    });
    expect(info.body.data!.slogan).not.toBe('unchanged?');
  });

  it('takes one role from a form as a plain value', async () => {
    const dave = await makeUser(t.app, admin.token, {
      username: 'dave',
      password: 'dave-secret-1',
    });
    const roles = await call<Array<{ id: string; code: string }>>(t.app, 'GET', '/role/list', {
      token: admin.token,
    });
    const role = (roles.body.data ?? []).find((r) => r.code !== 'admin') ?? roles.body.data![0]!;
    const res = await wire('PUT', '/user/update', '', {
      ...(await form({ id: dave.userId, roles: role.id })),
    });
    expect(res.status).toBe(200);
    const urlencoded = await wire('PUT', '/user/update', '', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `id=${dave.userId}&roles=${role.id}`,
    });
    expect(urlencoded.status).toBe(200);
  });

  it('changes the password after valid-old-pass with only {id, password}, once', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-secret-1' });
    const other = await login(t.app, 'bob', 'bob-secret-1');
    const change = async (token: string, password: string) =>
      wire('PUT', '/user/update-pass', '', {
        token,
        ...(await form({ id: bob.userId, password })),
      });
    // no proof: refused, naming the field
    const none = await change(bob.token, 'bob-secret-2');
    expect(none.status).toBe(422);
    expect(none.body.message).toMatch(/oldPassword/);
    // a wrong old password proves nothing
    const wrong = await call(t.app, 'POST', '/valid-old-pass', {
      token: bob.token,
      body: { id: bob.userId, password: 'not-it-at-all' },
    });
    expect(wrong.body.code).toBe(-2);
    expect((await change(bob.token, 'bob-secret-2')).status).toBe(422);
    const proved = await call(t.app, 'POST', '/valid-old-pass', {
      token: bob.token,
      body: { id: bob.userId, password: 'bob-secret-1' },
    });
    expect(proved.body.code).toBe(0);
    // another session of the same user has no proof
    expect((await change(other.token, 'bob-secret-2')).status).toBe(422);
    // two changes at once with one proof: one wins
    const both = await Promise.all([
      change(bob.token, 'bob-secret-2'),
      change(bob.token, 'bob-secret-3'),
    ]);
    expect(both.map((r) => r.body.code).sort()).toEqual([0, 10]);
    const won = both[0].body.code === 0 ? 'bob-secret-2' : 'bob-secret-3';
    const again = await login(t.app, 'bob', won);
    // used up: the next change needs a new proof
    expect((await change(again.token, 'bob-secret-4')).status).toBe(422);
  });

  it('does not take a proof past its minutes, nor for another account', async () => {
    const carol = await makeUser(t.app, admin.token, { password: 'carol-secret-1' });
    const prove = () =>
      call(t.app, 'POST', '/valid-old-pass', {
        token: carol.token,
        body: { id: carol.userId, password: 'carol-secret-1' },
      });
    expect((await prove()).body.code).toBe(0);
    // carol's proof does not change the administrator's password
    const foreign = await wire('PUT', '/user/update-pass', '', {
      token: carol.token,
      ...(await form({ id: admin.userId, password: 'taken-over-1' })),
    });
    expect(foreign.body.code).not.toBe(0);
    expect((await prove()).body.code).toBe(0);
    const realNow = Date.now;
    Date.now = () => realNow() + 6 * 60_000;
    try {
      const late = await wire('PUT', '/user/update-pass', '', {
        token: carol.token,
        body: JSON.stringify({ id: carol.userId, password: 'carol-secret-2' }),
        headers: { 'content-type': 'application/json' },
      });
      expect(late.body.message).toMatch(/oldPassword/);
    } finally {
      Date.now = realNow;
    }
    await login(t.app, ADMIN.username, ADMIN.password);
  });
});

describe('uploads with the original identifier', () => {
  /** The original's chunk fields (API-NOTES §1.4): identifier = size + name without punctuation. */
  function original(name: string, content: Buffer, chunkSize: number, dir = '%2FDocs') {
    const totalChunks = Math.max(1, Math.floor(content.length / chunkSize));
    const identifier = `${content.length}-${name.replace(/[^0-9a-zA-Z_-]/g, '')}`;
    const fields = (n: number) => {
      const start = (n - 1) * chunkSize;
      const end = n === totalChunks ? content.length : start + chunkSize;
      return {
        chunkNumber: String(n),
        chunkSize: String(chunkSize),
        currentChunkSize: String(end - start),
        totalSize: String(content.length),
        identifier,
        filename: once(name),
        relativePath: once(name),
        totalChunks: String(totalChunks),
        isFolder: 'false',
        lastModified: '1700000000000',
        currentDirectory: dir,
        username: ADMIN.username,
        userId: admin.userId,
        folder: '',
        fileId: '',
        bytes: content.subarray(start, end),
      };
    };
    return { identifier, totalChunks, fields };
  }

  const query = (f: Record<string, string>) =>
    Object.entries(f)
      .map(([k, v]) => `${k}=${once(v)}`)
      .join('&');

  async function send(name: string, content: Buffer, chunkSize: number) {
    const plan = original(name, content, chunkSize);
    let merge = false;
    for (let n = 1; n <= plan.totalChunks; n++) {
      const { bytes, ...fields } = plan.fields(n);
      const test = await wire<{ pass: boolean; resume: number[] }>('GET', '/upload', query(fields));
      expect(test.body.code, test.body.message).toBe(0);
      expect(test.body.data?.pass).toBe(false);
      const sent = await wire<{ merge: boolean }>('POST', '/upload', '', {
        ...(await form({ ...fields, file: new Blob([new Uint8Array(bytes)]) })),
      });
      expect(sent.body.code, sent.body.message).toBe(0);
      merge = sent.body.data!.merge;
    }
    expect(merge).toBe(true);
    // the merge as the original sends it: no chunkSize, no totalChunks
    const {
      bytes: _b,
      chunkNumber: _n,
      chunkSize: _c,
      currentChunkSize: _s,
      totalChunks: _t,
      ...m
    } = plan.fields(1);
    return wire<{ file: Item & { size: number } }>('POST', '/merge', query(m));
  }

  it('uploads a file in chunks, the server hashing it, and merges without chunkSize', async () => {
    const content = randomBytes(3 * 1024 + 500);
    const merged = await send('hello 3.bin', content, 1024);
    expect(merged.body.code, merged.body.message).toBe(0);
    const file = merged.body.data!.file;
    expect(file).toMatchObject({ name: 'hello 3.bin', path: '/Docs/', size: content.length });
    expect(file.hash).toBe(createHash('sha256').update(content).digest('hex'));
    const bytes = await t.app.inject({
      method: 'GET',
      url: `/api/file/${ADMIN.username}/Docs/${once('hello 3.bin')}`,
      headers: { 'nimbus-token': admin.token },
    });
    expect(bytes.rawPayload.equals(content)).toBe(true);
  });

  it('never completes at once from a name: the same file again is sent again', async () => {
    const content = Buffer.from('hello, the original client here, with 57 bytes of text!!');
    expect((await send('hello.txt', content, 1024 * 1024)).body.code).toBe(0);
    // the same name, size and identifier (57-hellotxt) for other bytes: no instant upload
    const other = Buffer.from('HELLO, THE ORIGINAL CLIENT HERE, WITH 57 BYTES OF TEXT!!');
    const merged = await send('hello.txt', other, 1024 * 1024);
    expect(merged.body.code, merged.body.message).toBe(0);
    expect(merged.body.data!.file.hash).toBe(createHash('sha256').update(other).digest('hex'));
  });

  it('refuses an identifier that is neither a hash nor the original form, naming it', async () => {
    const { bytes, ...fields } = original('x.txt', Buffer.from('x'), 1024).fields(1);
    const res = await wire('POST', '/upload', '', {
      ...(await form({
        ...fields,
        identifier: '1-x.txt',
        file: new Blob([new Uint8Array(bytes)]),
      })),
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/identifier/);
  });
});
