import type { AddressInfo } from 'node:net';
import { MAX_PATH_BYTES } from '@nimbus/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { ADMIN, call, makeTestApp, putFile, setupAdmin, type TestApp } from '../harness.ts';
import { makeFolder, makeShare, publicUpload, unlock, visitor } from '../share-fixtures.ts';
import { uploadFile } from '../upload-client.ts';

// A name that disguises what a file is (text-direction marks) or that Windows takes for a device
// (`CON`, `nul.txt`) is refused on every path that gives an item a name; a path or a body too
// long or too deep for the disk or the parser is the client's mistake, a 422, never a 500.

let t: TestApp;
let admin: { token: string; userId: string };
let base: string;
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

beforeAll(async () => {
  t = await makeTestApp();
  admin = await setupAdmin(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
});
afterAll(async () => {
  await t.close();
});

const BAD = [
  ['a reversed extension', 'invoice\u202Etxt.exe', /direction of text/],
  ['an isolate mark', 'a\u2067b.txt', /direction of text/],
  ['a device name', 'CON', /device/],
  ['a device name with an extension', 'nul.txt', /device/],
  ['a device name in another case, trailing dot', 'Com1.', /device/],
  ['a printer port with spaces', 'lpt9 .log', /device/],
] as const;

const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
      ...headers,
    },
    body,
  });

async function names(directory = '/') {
  const res = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { currentDirectory: directory, pageSize: 1000 },
  });
  return res.body.data!.map((i) => i.name);
}

describe('names that disguise a file or name a device', () => {
  for (const [label, name, message] of BAD) {
    it(`refuses ${label} on every path that names an item`, async () => {
      const token = admin.token;
      const expectRefused = (res: { status: number; body: { code: number; message: string } }) => {
        expect(res.status, res.body.message).toBe(422);
        expect(res.body.message).toMatch(message);
      };
      expectRefused(
        await call(t.app, 'POST', '/new_folder', {
          token,
          query: { currentDirectory: '/', filename: name },
        }),
      );
      expectRefused(
        await call(t.app, 'POST', '/addfile', {
          token,
          query: { parentPath: '/', fileName: name },
        }),
      );
      const file = await putFile(t, owner(), '/', `plain-${label.length}.txt`, 'x');
      expectRefused(
        await call(t.app, 'GET', '/rename', { token, query: { id: file, newFileName: name } }),
      );
      expectRefused(
        await call(t.app, 'GET', '/duplicate', {
          token,
          query: { fileId: file, newFilename: name },
        }),
      );
      const upload = await uploadFile(t.app, token, { name, content: Buffer.from('up') });
      expectRefused(upload.test!);
      // a folder upload: a folder of the relative path, and the folder itself
      const nested = await uploadFile(t.app, token, {
        name: 'inner.txt',
        relativePath: `${name}/inner.txt`,
        content: Buffer.from('nested'),
      });
      expectRefused(nested.test!);
      expectRefused(
        await call(t.app, 'POST', '/upload-folder', {
          token,
          query: { currentDirectory: '/', folderPath: '', filename: name },
        }),
      );
      expectRefused(
        await call(t.app, 'POST', '/upload-folder', {
          token,
          query: { currentDirectory: '/', folderPath: name, filename: 'ok' },
        }),
      );
      // WebDAV
      const enc = encodeURIComponent(name);
      expect((await dav('PUT', `/${enc}`, {}, 'x')).status).toBe(400);
      expect((await dav('MKCOL', `/${enc}`)).status).toBe(400);
      const src = `/dav-src-${label.length}.txt`;
      expect((await dav('PUT', src, {}, 'x')).status).toBe(201);
      expect((await dav('MOVE', src, { destination: `${base}/${enc}` })).status).toBe(400);
      expect((await dav('COPY', src, { destination: `${base}/${enc}` })).status).toBe(400);
      // a visitor of a drop box
      const folder = await makeFolder(t, token, '/', `drop-${label.length}`);
      const share = await makeShare(t, token, {
        fileId: folder,
        isPrivacy: true,
        operationPermissionList: ['UPLOAD', 'PUT'],
      });
      const headers = visitor(share.shareId, await unlock(t, share.shortId, share.extractionCode!));
      const visit = await publicUpload(t, headers, { name, content: Buffer.from('v') });
      expect(visit.failed?.status).toBe(422);
      expect(visit.failed?.body.message).toMatch(message);
      const ownName = await call(t.app, 'POST', '/public/new_folder', {
        headers,
        query: { currentDirectory: '/', filename: name },
      });
      expectRefused(ownName);
      // an archive entry of that name is never written
      const zip = await putFile(
        t,
        owner(),
        '/',
        `entries-${label.length}.zip`,
        await zipToBuffer([
          { name: 'fine.txt', content: 'fine' },
          { name: `sub/${name}`, content: 'bad' },
        ]),
      );
      const unzip = await call(t.app, 'GET', '/unzip', { token, query: { fileId: zip } });
      expect(unzip.status).toBe(422);
      expect(unzip.body.message).toMatch(message);
      expect(await names()).not.toContain(name);
      expect(await names()).not.toContain(`entries-${label.length}`);
    });
  }

  it('keeps accepting names that only look alike', async () => {
    for (const name of ['console.txt', 'CONFIG', 'com10', 'a.nul', 'نص.txt']) {
      const res = await call(t.app, 'POST', '/new_folder', {
        token: admin.token,
        query: { currentDirectory: '/', filename: name },
      });
      expect(res.body.code, `${name}: ${res.body.message}`).toBe(0);
    }
  });
});

describe('limits of paths and bodies', () => {
  const longPath = (bytes: number) =>
    Array.from({ length: Math.ceil(bytes / 201) }, (_, i) => `${i}`.padEnd(200, 'p')).join('/');

  it('refuses an archive entry path longer than a disk holds with 422', async () => {
    const zip = await putFile(
      t,
      owner(),
      '/',
      'deep.zip',
      await zipToBuffer([{ name: `${longPath(5000)}/x.txt`, content: 'deep' }]),
    );
    const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: zip } });
    expect(res.status, res.body.message).toBe(422);
    expect(res.body.message).toMatch(/entry path is too long/);
  });

  it('refuses an entry that fits alone but not below the folder it is extracted into', async () => {
    const entry = `${longPath(MAX_PATH_BYTES - 700)}/x.txt`;
    let folder = '';
    for (const part of longPath(900).split('/')) {
      await makeFolder(t, admin.token, folder || '/', part);
      folder = `${folder}/${part}`;
    }
    const zip = await putFile(
      t,
      owner(),
      folder,
      'fits.zip',
      await zipToBuffer([{ name: entry, content: 'deep' }]),
    );
    const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: zip } });
    expect(res.status, res.body.message).toBe(422);
    expect(res.body.message).toMatch(/path is too long/);
    expect(await names(folder)).toEqual(['fits.zip']);
  });

  it('refuses an upload whose relative path is longer than a disk holds with 422', async () => {
    const relativePath = `${longPath(3900)}/x.txt`;
    const res = await uploadFile(t.app, admin.token, {
      name: 'x.txt',
      relativePath,
      content: Buffer.from('deep'),
    });
    expect(res.test!.status, res.test!.body.message).toBe(422);
    expect(res.test!.body.message).toMatch(/relative path is too long/);
    const merge = await call(t.app, 'POST', '/merge', {
      token: admin.token,
      query: {
        filename: 'x.txt',
        relativePath,
        identifier: 'a'.repeat(64),
        totalSize: 4,
        chunkSize: 1048576,
        totalChunks: 1,
        currentDirectory: '/',
      },
    });
    expect(merge.status, merge.body.message).toBe(422);
    const folder = await call(t.app, 'POST', '/upload-folder', {
      token: admin.token,
      query: { currentDirectory: '/', folderPath: longPath(3900), filename: 'x' },
    });
    expect(folder.status, folder.body.message).toBe(422);
  });

  it('refuses a JSON body nested deeper than the limit with 422, on any route', async () => {
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`;
    for (const url of ['/office/signature', '/move', '/login']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api${url}`,
        headers: { 'content-type': 'application/json', 'nimbus-token': admin.token },
        payload: deep,
      });
      expect(res.statusCode, url).toBe(422);
      expect(res.json<{ message: string }>().message).toMatch(/JSON body nests deeper than 64/);
    }
    // a body of ordinary depth still reaches the route
    const fine = await call(t.app, 'POST', '/office/signature', {
      token: admin.token,
      body: { document: { key: 'k', title: 'a.docx', url: 'http://127.0.0.1/x' } },
    });
    expect(fine.status).not.toBe(422);
  });

  it('refuses over-long WebDAV paths with 4xx', async () => {
    const res = await dav('MKCOL', `/${longPath(5000)}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    const put = await dav('PUT', `/${longPath(5000)}/x.txt`, {}, 'x');
    expect(put.status).toBeGreaterThanOrEqual(400);
    expect(put.status).toBeLessThan(500);
  });
});
