import type { AddressInfo } from 'node:net';
import { ErrorCode } from '@nimbus/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { ADMIN, call, putFile, type CallResult, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, publicUpload, unlock, visitor } from '../share-fixtures.ts';
import { chunkPlan, sendChunk, uploadFile } from '../upload-client.ts';

// A lock taken over WebDAV holds on every path that changes the item: the web API, a share's
// visitors and WebDAV clients without the lock's token are all refused with 423, naming who holds
// the lock and until when; the lock's owner (WebDAV with the token) still writes; after UNLOCK or
// expiry everything works again.

let base: string;
const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const token = () => admin.token;

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
});

const dav = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
      ...headers,
    },
    body,
  });

const LOCK_BODY = `<?xml version="1.0" encoding="utf-8"?>
<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope>
<D:locktype><D:write/></D:locktype><D:owner>Alice's laptop</D:owner></D:lockinfo>`;

/** Lock a path over WebDAV; its token. */
async function lock(path: string, depth: '0' | 'infinity' = 'infinity'): Promise<string> {
  const res = await dav(
    'LOCK',
    path,
    { depth, timeout: 'Second-3600', 'content-type': 'application/xml' },
    LOCK_BODY,
  );
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return res.headers.get('lock-token')!.replace(/[<>]/g, '');
}

async function unlockDav(path: string, lockToken: string) {
  expect((await dav('UNLOCK', path, { 'lock-token': `<${lockToken}>` })).status).toBe(204);
}

/** A 423 with the new code, naming the holder and the time the lock ends. */
function expectLocked(res: Pick<CallResult, 'status' | 'body'>, path: string) {
  expect(res.status, res.body.message).toBe(423);
  expect(res.body.code).toBe(ErrorCode.ITEM_LOCKED);
  expect(res.body.message).toContain(`"${path}" is locked by Alice's laptop over WebDAV until 20`);
  expect(res.body.data).toMatchObject({ path, holder: "Alice's laptop" });
}

async function names(directory = '/') {
  const res = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
    token: token(),
    query: { currentDirectory: directory, pageSize: 1000 },
  });
  return res.body.data!.map((i) => i.name).sort();
}

describe('a WebDAV lock holds against the web API', () => {
  it('refuses rename, move, copy over, delete, overwrite and saves of a locked file', async () => {
    const dir = await makeFolder(t, token(), '/', 'one');
    const other = await makeFolder(t, token(), '/', 'other');
    const id = await putFile(t, owner(), '/one', 'a.md', 'first');
    const spare = await putFile(t, owner(), '/other', 'a.md', 'spare');
    // a version to restore, made before the lock
    const save = await call(t.app, 'POST', '/markdown/edit', {
      token: token(),
      body: { fileId: id, contentText: 'second', force: true },
    });
    expect(save.body.code, save.body.message).toBe(0);
    const lockToken = await lock('/one/a.md', '0');

    expectLocked(
      await call(t.app, 'GET', '/rename', { token: token(), query: { id, newFileName: 'b.md' } }),
      '/one/a.md',
    );
    expectLocked(
      await call(t.app, 'POST', '/move', { token: token(), body: { froms: [id], to: other } }),
      '/one/a.md',
    );
    // the copy of the other folder's a.md over the locked one
    expectLocked(
      await call(t.app, 'POST', '/copy', {
        token: token(),
        body: { froms: [spare], to: dir, isOverride: true },
      }),
      '/one/a.md',
    );
    expectLocked(
      await call(t.app, 'DELETE', '/delete', { token: token(), query: { fileIds: [id] } }),
      '/one/a.md',
    );
    const upload = await uploadFile(t.app, token(), {
      name: 'a.md',
      currentDirectory: '/one',
      content: Buffer.from('uploaded over'),
    });
    // refused at the chunk test, before any chunk is sent
    expect(upload.sent).toBe(0);
    expectLocked(upload.test!, '/one/a.md');
    // and a first chunk sent without the test
    const { base, chunks } = chunkPlan({
      name: 'a.md',
      currentDirectory: '/one',
      content: Buffer.from('uploaded over'),
    });
    const first = chunks[0]!;
    const chunk = await sendChunk(
      t.app,
      token(),
      { ...base, chunkNumber: 1, currentChunkSize: first.currentChunkSize },
      first.bytes,
    );
    expectLocked({ status: chunk.status, body: chunk.body }, '/one/a.md');
    expectLocked(
      await call(t.app, 'POST', '/markdown/edit', {
        token: token(),
        body: { fileId: id, contentText: 'third', force: true },
      }),
      '/one/a.md',
    );
    const versions = await call<Array<{ id: string }>>(t.app, 'GET', '/history/list', {
      token: token(),
      query: { fileId: id },
    });
    expect(versions.body.data!.length).toBeGreaterThan(0);
    expectLocked(
      await call(t.app, 'PUT', '/history/recovery', {
        token: token(),
        query: { id: versions.body.data![0]!.id, fileId: id },
      }),
      '/one/a.md',
    );
    // WebDAV without the token, too
    expect((await dav('PUT', '/one/a.md', {}, 'no token')).status).toBe(423);
    expect((await dav('DELETE', '/one/a.md')).status).toBe(423);
    expect(await (await dav('GET', '/one/a.md')).text()).toBe('second');

    // tags and favourites are not the file's content: a lock leaves them
    const fav = await call(t.app, 'POST', '/favorite', { token: token(), body: { fileIds: [id] } });
    expect(fav.body.code, fav.body.message).toBe(0);

    // the lock's owner writes with the token
    const put = await dav('PUT', '/one/a.md', { if: `(<${lockToken}>)` }, 'with the token');
    expect(put.status).toBe(204);
    expect(await (await dav('GET', '/one/a.md')).text()).toBe('with the token');

    await unlockDav('/one/a.md', lockToken);
    const renamed = await call(t.app, 'GET', '/rename', {
      token: token(),
      query: { id, newFileName: 'b.md' },
    });
    expect(renamed.body.code, renamed.body.message).toBe(0);
    expect(await names('/one')).toEqual(['b.md']);
  });

  it('holds a folder locked with depth infinity, and every folder holding a locked file', async () => {
    const top = await makeFolder(t, token(), '/', 'top');
    const inner = await makeFolder(t, token(), '/top', 'inner');
    const file = await putFile(t, owner(), '/top/inner', 'x.txt', 'x');
    const lockToken = await lock('/top/inner/x.txt', '0');
    // moving or deleting a folder that holds a locked file is refused
    expectLocked(
      await call(t.app, 'DELETE', '/delete', { token: token(), query: { fileIds: [top] } }),
      '/top/inner/x.txt',
    );
    expectLocked(
      await call(t.app, 'GET', '/rename', {
        token: token(),
        query: { id: top, newFileName: 't2' },
      }),
      '/top/inner/x.txt',
    );
    expectLocked(
      await call(t.app, 'POST', '/move', { token: token(), body: { froms: [inner], to: '0' } }),
      '/top/inner/x.txt',
    );
    expect(await names('/top/inner')).toEqual(['x.txt']);
    await unlockDav('/top/inner/x.txt', lockToken);

    // a folder lock of depth infinity covers what is in it and what comes into it
    const deep = await lock('/top/inner');
    expectLocked(
      await call(t.app, 'GET', '/rename', {
        token: token(),
        query: { id: file, newFileName: 'y' },
      }),
      '/top/inner',
    );
    expectLocked(
      await call(t.app, 'POST', '/new_folder', {
        token: token(),
        query: { currentDirectory: '/top/inner', filename: 'new' },
      }),
      '/top/inner',
    );
    expectLocked(
      await call(t.app, 'POST', '/addfile', {
        token: token(),
        query: { parentPath: '/top/inner', fileName: 'new.txt' },
      }),
      '/top/inner',
    );
    const up = await uploadFile(t.app, token(), {
      name: 'new.txt',
      currentDirectory: '/top/inner',
      content: Buffer.from('new'),
    });
    expect(up.sent).toBe(0);
    expectLocked(up.test!, '/top/inner');
    // a share's visitor with every permission
    const share = await makeShare(t, token(), {
      fileId: top,
      isPrivacy: true,
      operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'],
    });
    const headers = visitor(share.shareId, await unlock(t, share.shortId, share.extractionCode!));
    const visit = await publicUpload(t, headers, {
      name: 'drop.txt',
      currentDirectory: '/inner',
      content: Buffer.from('v'),
    });
    expectLocked(visit.failed!, '/top/inner');
    const { base: visitBase, chunks: visitChunks } = chunkPlan({
      name: 'drop.txt',
      currentDirectory: '/inner',
      content: Buffer.from('v'),
    });
    expectLocked(
      await call(t.app, 'GET', '/public/upload', {
        headers,
        query: { ...visitBase, chunkNumber: 1, currentChunkSize: visitChunks[0]!.currentChunkSize },
      }),
      '/top/inner',
    );
    expectLocked(
      await call(t.app, 'GET', '/public/rename', {
        headers,
        query: { fileId: file, newFileName: 'v.txt' },
      }),
      '/top/inner',
    );
    expectLocked(
      await call(t.app, 'DELETE', '/public/delete', { headers, query: { fileIds: [file] } }),
      '/top/inner',
    );
    expect(await names('/top/inner')).toEqual(['x.txt']);

    // expired: the API works again
    await t.database.db
      .updateTable('davLock')
      .set({ expiresAt: Date.now() - 1 })
      .where('token', '=', deep)
      .execute();
    const after = await call(t.app, 'GET', '/rename', {
      token: token(),
      query: { id: file, newFileName: 'y.txt' },
    });
    expect(after.body.code, after.body.message).toBe(0);
  });

  it('refuses unzipping into a locked folder', async () => {
    await makeFolder(t, token(), '/', 'arch');
    const zip = await putFile(
      t,
      owner(),
      '/arch',
      'z.zip',
      await zipToBuffer([{ name: 'in.txt', content: 'in' }]),
    );
    const lockToken = await lock('/arch');
    expectLocked(
      await call(t.app, 'GET', '/unzip', { token: token(), query: { fileId: zip } }),
      '/arch',
    );
    expect(await names('/arch')).toEqual(['z.zip']);
    await unlockDav('/arch', lockToken);
    const ok = await call(t.app, 'GET', '/unzip', { token: token(), query: { fileId: zip } });
    expect(ok.body.code, ok.body.message).toBe(0);
  });
});
