import type { AddressInfo } from 'node:net';
import { ErrorCode, MAX_PATH_BYTES, MAX_PATH_DEPTH } from '@nimbus/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, publicUpload, unlock, visitor } from '../share-fixtures.ts';
import { uploadFile } from '../upload-client.ts';

// A name that disguises what a file is (text-direction marks) or that Windows takes for a device
// (`CON`, `nul.txt`) is refused on every path that gives an item a name; a path or a body too
// long or too deep for the disk or the parser is the client's mistake, a 422, never a 500.

let base: string;
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
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

  describe('a folder whose deepest item would no longer fit', () => {
    const me = () => ({ id: admin.userId, username: ADMIN.username });
    /** Folders below `/top`, created where missing; the id of the last one. */
    const folders = (segments: string[]) =>
      t.app.services.files.withLock(
        admin.userId,
        async () => (await t.app.services.files.ensureFolders(me(), segments)).id,
      );
    const idOf = async (directory: string, name: string) => {
      const res = await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', {
        token: admin.token,
        query: { currentDirectory: directory, pageSize: 1000 },
      });
      return res.body.data!.find((i) => i.name === name)!.id;
    };
    /** `/top/…/file.txt` exactly `room` bytes short of MAX_PATH_BYTES; the id of `top`. */
    async function longTree(top: string, room: number): Promise<string> {
      const segments = [top, ...Array.from({ length: 14 }, (_, i) => `${i}`.padEnd(200, 's'))];
      await folders(segments);
      const folderPath = `/${segments.join('/')}`;
      const used = Buffer.byteLength(`${folderPath}/`);
      await putFile(t, owner(), folderPath, 'f'.repeat(MAX_PATH_BYTES - room - used), 'deep');
      return idOf('/', top);
    }
    /** `/top/d/…/f.txt`: MAX_PATH_DEPTH segments in all; the id of `top`. */
    async function deepTree(top: string): Promise<string> {
      const segments = [top, ...Array.from({ length: MAX_PATH_DEPTH - 2 }, () => 'd')];
      await folders(segments);
      await putFile(t, owner(), `/${segments.join('/')}`, 'f.txt', 'deep');
      return idOf('/', top);
    }
    const refused = (
      res: { status: number; body: { code: number; message: string; data?: unknown } },
      field: string,
      why: RegExp,
    ) => {
      expect(res.status, res.body.message).toBe(422);
      expect(res.body.code).toBe(ErrorCode.BAD_PARAMETER);
      expect(res.body.message).toMatch(why);
      expect(res.body.data).toEqual({ field });
    };

    it('refuses a rename that makes the longest path too long, and takes one that fits', async () => {
      const id = await longTree('long', 3);
      const tooLong = await call(t.app, 'GET', '/rename', {
        token: admin.token,
        query: { id, newFileName: 'longer-name' },
      });
      refused(tooLong, 'newFileName', /new name would make the path .* too long \(at most 3000/);
      expect(await names('/')).toContain('long');
      const fits = await call(t.app, 'GET', '/rename', {
        token: admin.token,
        query: { id, newFileName: 'lon12' },
      });
      expect(fits.body.code, fits.body.message).toBe(0);
    });

    it('refuses a move or a copy that puts the deepest item too deep, over the API and WebDAV', async () => {
      const id = await deepTree('deep');
      const box = await folders(['box']);
      const move = await call(t.app, 'POST', '/move', {
        token: admin.token,
        body: { froms: [id], to: box, isOverride: false },
      });
      refused(move, 'to', /would put an item inside the folder too deep \(at most 100 folders\)/);
      const copy = await call(t.app, 'POST', '/copy', {
        token: admin.token,
        body: { froms: [id], to: box, isOverride: false },
      });
      refused(copy, 'to', /too deep/);
      expect(await names('/box')).toEqual([]);
      expect(await names('/')).toContain('deep');

      for (const method of ['MOVE', 'COPY']) {
        const res = await dav(method, '/deep', { destination: `${base}/box/deep` });
        expect(res.status, method).toBe(400);
        expect(await res.text()).toMatch(/too deep/);
      }
      expect(await names('/box')).toEqual([]);
      // one level less below it, and the same move fits
      const d = await idOf('/deep', 'd');
      const folded = await call(t.app, 'DELETE', '/delete', {
        token: admin.token,
        query: { fileIds: [d] },
      });
      expect(folded.body.code, folded.body.message).toBe(0);
      const fine = await call(t.app, 'POST', '/move', {
        token: admin.token,
        body: { froms: [id], to: box, isOverride: false },
      });
      expect(fine.body.code, fine.body.message).toBe(0);
      expect(await names('/box')).toEqual(['deep']);
    });

    it('refuses a WebDAV rename that makes the longest path too long', async () => {
      await longTree('davlong', 2);
      const res = await dav('MOVE', '/davlong', { destination: `${base}/davlong-renamed` });
      expect(res.status).toBe(400);
      expect(await res.text()).toMatch(/too long/);
      expect(await names('/')).toContain('davlong');
    });

    it('restores a folder under a numbered name only when what is below it still fits', async () => {
      const id = await longTree('kept', 1);
      const trashed = await call(t.app, 'DELETE', '/delete', {
        token: admin.token,
        query: { fileIds: [id] },
      });
      expect(trashed.body.code, trashed.body.message).toBe(0);
      await folders(['kept']);
      const restored = await call<Array<{ code: number; msg: string }>>(t.app, 'POST', '/restore', {
        token: admin.token,
        query: { fileIds: [id] },
      });
      // like every item a restore cannot bring back: a failed result of its own, the rest goes on
      expect(restored.body.data![0], restored.body.data![0]!.msg).toMatchObject({ code: -1 });
      expect(restored.body.data![0]!.msg).toMatch(
        /"kept\(1\)" restored would make the path .* too long/,
      );
      expect(await names('/')).not.toContain('kept(1)');
    });
  });
});
