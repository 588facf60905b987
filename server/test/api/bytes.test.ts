import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import tar from 'tar-stream';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers: { 'nimbus-token': admin.token, ...headers } });

function readZip(buffer: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName.endsWith('/')) {
          out.set(entry.fileName, '');
          zip.readEntry();
          return;
        }
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('file bytes', () => {
  it('serves a file by path and by id with type, ETag and an RFC 5987 name', async () => {
    const id = await putFile(t, owner(), '/', '报告 final.txt', 'hello world');
    const byPath = await get(`/api/file/admin/${encodeURIComponent('报告 final.txt')}?o=download`);
    expect(byPath.statusCode).toBe(200);
    expect(byPath.body).toBe('hello world');
    expect(byPath.headers['content-type']).toMatch(/^text\/plain/);
    expect(byPath.headers['content-disposition']).toBe(
      `attachment; filename="__ final.txt"; filename*=UTF-8''${encodeURIComponent('报告 final.txt')}`,
    );
    const etag = String(byPath.headers.etag);
    const cached = await get(`/api/pre-file/${id}/x.txt`, { 'if-none-match': etag });
    expect(cached.statusCode).toBe(304);
    const inline = await get(`/api/pre-file/${id}/x.txt`);
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
  });

  it('answers ranges with 206 and impossible ranges with 416', async () => {
    const id = await putFile(t, owner(), '/', 'digits.txt', '0123456789');
    const part = await get(`/api/pre-file/${id}/digits.txt`, { range: 'bytes=2-5' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('2345');
    expect(part.headers['content-range']).toBe('bytes 2-5/10');
    expect(part.headers['content-length']).toBe('4');
    const tail = await get(`/api/pre-file/${id}/digits.txt`, { range: 'bytes=-3' });
    expect(tail.body).toBe('789');
    const open = await get(`/api/pre-file/${id}/digits.txt`, { range: 'bytes=7-' });
    expect(open.body).toBe('789');
    const bad = await get(`/api/pre-file/${id}/digits.txt`, { range: 'bytes=10-20' });
    expect(bad.statusCode).toBe(416);
    expect(bad.headers['content-range']).toBe('bytes */10');
  });

  it('never serves active content inline', async () => {
    const id = await putFile(t, owner(), '/', 'page.html', '<script>alert(1)</script>');
    const res = await get(`/api/pre-file/${id}/page.html`);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toMatch(/^attachment/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('accepts the token in the query for GET (links opened by the browser)', async () => {
    const id = await putFile(t, owner(), '/', 'a.txt', 'a');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/pre-file/${id}/a.txt?nimbus-token=${admin.token}`,
    });
    expect(res.body).toBe('a');
    const none = await t.app.inject({ method: 'GET', url: `/api/pre-file/${id}/a.txt` });
    expect(none.statusCode).toBe(401);
  });
});

describe('zip download', () => {
  it('streams a zip of files and whole folders that a reader opens', async () => {
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: '相册', currentDirectory: '/' },
    });
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'inner', currentDirectory: '/相册' },
    });
    await putFile(t, owner(), '/相册/inner', 'deep.txt', 'deep text');
    await putFile(t, owner(), '/相册', 'pic.jpg', 'jpegbytes');
    const one = await putFile(t, owner(), '/', 'one.txt', 'one '.repeat(1000));
    const folder = (
      await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', { token: admin.token })
    ).body.data!.find((i) => i.name === '相册')!;

    const allowed = await call<{ allowDownload: boolean }>(
      t.app,
      'GET',
      '/isAllowPackageDownload',
      { token: admin.token, query: { fileIds: [one, folder.id] } },
    );
    expect(allowed.body.data!.allowDownload).toBe(true);

    const res = await get(`/api/packageDownload?fileIds=${one},${folder.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    // chosen at the top of the tree: named after its owner
    expect(res.headers['content-disposition']).toContain(`${ADMIN.username}.zip`);
    const entries = await readZip(res.rawPayload);
    expect([...entries.keys()].sort()).toEqual(
      ['one.txt', '相册/', '相册/inner/', '相册/inner/deep.txt', '相册/pic.jpg'].sort(),
    );
    expect(entries.get('相册/inner/deep.txt')).toBe('deep text');
    expect(entries.get('one.txt')).toBe('one '.repeat(1000));
  });

  it('names a zip after the folder its items were chosen in, or the one item', async () => {
    await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'Trip 2026', currentDirectory: '/' },
    });
    const a = await putFile(t, owner(), '/Trip 2026', 'a.txt', 'a');
    const b = await putFile(t, owner(), '/Trip 2026', 'b.txt', 'b');
    const disposition = async (ids: string[]) =>
      (await get(`/api/packageDownload?fileIds=${ids.join(',')}`)).headers['content-disposition'];
    expect(await disposition([a, b])).toContain(`filename*=UTF-8''Trip%202026.zip`);
    expect(await disposition([a])).toContain(`filename*=UTF-8''a.txt.zip`);
  });

  it("refuses another user's ids", async () => {
    const bob = await makeUser(t.app, admin.token);
    const id = await putFile(t, owner(), '/', 'mine.txt', 'm');
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/packageDownload?fileIds=${id}`,
      headers: { 'nimbus-token': bob.token },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('archives', () => {
  const upload = (name: string, bytes: Buffer) => putFile(t, owner(), '/', name, bytes);

  it('extracts a zip into a folder named after it, indexed and counted', async () => {
    const zip = await zipToBuffer([
      { name: 'docs/readme.md', content: '# hi' },
      { name: 'docs/中文.txt', content: '你好' },
      { name: 'top.txt', content: 'top' },
    ]);
    const id = await upload('bundle.zip', zip);
    const res = await call<{ name: string }>(t.app, 'GET', '/unzip', {
      token: admin.token,
      query: { fileId: id },
    });
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data!.name).toBe('bundle');
    const docs = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/bundle/docs' },
    });
    expect(docs.body.data!.map((i) => i.name).sort()).toEqual(['readme.md', '中文.txt']);
    expect(
      fs.readFileSync(path.join(t.dataDir, 'files', 'admin', 'bundle', 'docs', '中文.txt'), 'utf8'),
    ).toBe('你好');
    const info = await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', {
      token: admin.token,
    });
    expect(info.body.data!.takeUpSpace).toBe(zip.length + 4 + 6 + 3);
  });

  it('extracts a tar.gz', async () => {
    const pack = tar.pack();
    pack.entry({ name: 'a/b.txt' }, 'bee');
    pack.entry({ name: 'link', type: 'symlink', linkname: '/etc/passwd' });
    pack.finalize();
    const chunks: Buffer[] = [];
    for await (const c of pack) chunks.push(c as Buffer);
    const id = await upload('t.tar.gz', gzipSync(Buffer.concat(chunks)));
    const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: id } });
    expect(res.body.code, res.body.message).toBe(0);
    expect(fs.readFileSync(path.join(t.dataDir, 'files', 'admin', 't', 'a', 'b.txt'), 'utf8')).toBe(
      'bee',
    );
    // links are never created
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'admin', 't', 'link'))).toBe(false);
  });

  it('refuses zip-slip entries and leaves nothing behind', async () => {
    for (const evil of ['../escape.txt', '/abs.txt', 'ok/../../x.txt', 'C:/win.txt']) {
      const id = await upload(
        `evil-${Math.random().toString(36).slice(2)}.zip`,
        await zipToBuffer([
          { name: 'fine.txt', content: 'fine' },
          { name: evil, content: 'pwned' },
        ]),
      );
      const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: id } });
      expect(res.body.code, evil).toBe(14);
      expect(res.body.message).toMatch(/outside its folder/);
    }
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'escape.txt'))).toBe(false);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'admin', 'escape.txt'))).toBe(false);
    const listing = await call<Array<{ isFolder: boolean }>>(t.app, 'GET', '/list', {
      token: admin.token,
    });
    expect(listing.body.data!.filter((i) => i.isFolder)).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('refuses an archive that expands far beyond its size', async () => {
    const bomb = await zipToBuffer([
      { name: 'zeros.bin', content: Buffer.alloc(64 * 1024 * 1024) },
    ]);
    expect(bomb.length).toBeLessThan(200 * 1024);
    const id = await upload('bomb.zip', bomb);
    const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: id } });
    expect(res.body.code).toBe(14);
    expect(res.body.message).toMatch(/zip bomb|allowed size/);
    expect(fs.readdirSync(path.join(t.dataDir, 'tmp'))).toEqual([]);
  });

  it('refuses what is not an archive', async () => {
    const id = await upload('notes.txt', Buffer.from('x'));
    const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: id } });
    expect(res.body.code).toBe(15);
  });
});

describe('index rebuild', () => {
  it('picks up files added, changed and removed on disk outside Nimbus', async () => {
    const gone = await putFile(t, owner(), '/', 'gone.txt', 'bye');
    await putFile(t, owner(), '/', 'changed.txt', 'v1');
    const root = path.join(t.dataDir, 'files', 'admin');
    fs.rmSync(path.join(root, 'gone.txt'));
    fs.writeFileSync(path.join(root, 'changed.txt'), 'version two');
    fs.utimesSync(path.join(root, 'changed.txt'), new Date(), new Date(Date.now() + 5000));
    fs.mkdirSync(path.join(root, 'outside', 'deeper'), { recursive: true });
    fs.writeFileSync(path.join(root, 'outside', 'deeper', 'new.txt'), 'new!');

    const stats = await t.app.services.indexer.sync(
      owner() ? { id: admin.userId, username: 'admin' } : { id: '', username: '' },
      { id: '0', prefix: '/' },
    );
    expect(stats).toMatchObject({ added: 3, updated: 1, removed: 1 });
    const listing = await call<Array<{ name: string; size: number }>>(t.app, 'GET', '/list', {
      token: admin.token,
    });
    expect(listing.body.data!.map((i) => i.name)).toEqual(['outside', 'changed.txt']);
    expect(listing.body.data!.find((i) => i.name === 'changed.txt')!.size).toBe(11);
    const deep = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/outside/deeper' },
    });
    expect(deep.body.data!.map((i) => i.name)).toEqual(['new.txt']);
    expect(
      (await call(t.app, 'GET', '/file_info', { token: admin.token, query: { id: gone } })).body
        .code,
    ).toBe(7);
    const info = await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', {
      token: admin.token,
    });
    expect(info.body.data!.takeUpSpace).toBe(11 + 4);
  });
});
