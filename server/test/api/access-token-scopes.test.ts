import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AccessTokenView } from '@nimbus/contract';
import * as scopeMigration from '../../src/db/migrations/020-access-token-scope.ts';
import { sha256 } from '../../src/lib/ids.ts';
import { call, useAdminApp } from '../harness.ts';

// one app on a real listening server for the file: WebDAV is reached over HTTP
let base: string;

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
});

let made = 0;
async function makeToken(query: Record<string, string | number> = {}) {
  const res = await call<string>(t.app, 'PUT', '/user/setting/generateAccessToken', {
    token: admin.token,
    query: { tokenName: `token ${++made}`, ...query },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!;
}
const list = async () =>
  (
    await call<AccessTokenView[]>(t.app, 'GET', '/user/setting/accessTokenList', {
      token: admin.token,
    })
  ).body.data!;

const dav = (method: string, path: string, secret: string, body?: string) =>
  fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`admin:${secret}`).toString('base64')}`,
      ...(method === 'PROPFIND' ? { depth: '1' } : {}),
    },
    body,
  });

describe('access token scopes', () => {
  it('a read-only token reads the API and WebDAV and is refused every write, GETs that write too', async () => {
    const token = await makeToken({ scope: 'read' });
    expect((await call(t.app, 'GET', '/list', { token })).body.code).toBe(0);
    expect((await call(t.app, 'GET', '/user/info', { token })).body.code).toBe(0);
    // a POST that only checks is a read
    const check = await call(t.app, 'POST', '/check-move-copy', {
      token,
      body: { froms: [], to: '/' },
    });
    expect(check.status, check.body.message).not.toBe(403);

    const writes = [
      await call(t.app, 'POST', '/new_folder', {
        token,
        query: { currentDirectory: '/', filename: 'nope' },
      }),
      await call(t.app, 'GET', '/rename', { token, query: { id: 'x', newFileName: 'y' } }),
      await call(t.app, 'GET', '/move', { token, query: { froms: 'x', to: '/' } }),
      await call(t.app, 'GET', '/copy', { token, query: { froms: 'x', to: '/' } }),
      await call(t.app, 'GET', '/unzip', { token, query: { fileId: 'x' } }),
      await call(t.app, 'GET', '/cloud/setting/recalculateFolderSize', { token }),
      await call(t.app, 'DELETE', '/clear-trash', { token }),
    ];
    for (const res of writes) {
      expect(res.status, res.body.message).toBe(403);
      expect(res.body.message).toBe('This access token only reads');
    }

    expect((await dav('PROPFIND', '/', token)).status).toBe(207);
    expect((await dav('PUT', '/made-by-a-reader.txt', token, 'x')).status).toBe(403);
    expect((await dav('MKCOL', '/reader-folder', token)).status).toBe(403);
    expect((await dav('GET', '/made-by-a-reader.txt', token)).status).toBe(404);
  });

  it('a WebDAV-only token works over WebDAV alone', async () => {
    const token = await makeToken({ scope: 'webdav' });
    const api = await call(t.app, 'GET', '/list', { token });
    expect(api.status).toBe(403);
    expect(api.body.message).toMatch(/WebDAV only/);
    expect((await dav('PUT', '/by-webdav.txt', token, 'hello')).status).toBe(201);
    expect(await (await dav('GET', '/by-webdav.txt', token)).text()).toBe('hello');
  });

  it('a token without a scope reads and writes; the list shows scope, expiry and last use', async () => {
    const token = await makeToken();
    const folder = await call(t.app, 'POST', '/new_folder', {
      token,
      query: { currentDirectory: '/', filename: 'by-a-writer' },
    });
    expect(folder.status, folder.body.message).not.toBe(403);
    const row = (await list()).find((r) => r.name === `token ${made}`)!;
    expect(row).toMatchObject({ scope: 'readWrite', expireTime: '', expiresAt: null });
    expect(row.lastActiveTime).not.toBe('');
  });

  it('an expired token is refused; an expiry must be in the future, a scope one of three', async () => {
    const expiresAt = Date.now() + 3600_000;
    const token = await makeToken({ scope: 'read', expiresAt });
    expect((await call(t.app, 'GET', '/list', { token })).body.code).toBe(0);
    const row = (await list()).find((r) => r.name === `token ${made}`)!;
    expect(row).toMatchObject({ scope: 'read', expiresAt, expired: false });
    expect(row.expireTime).not.toBe('');

    await t.database.db
      .updateTable('accessToken')
      .set({ expiresAt: Date.now() - 1 })
      .where('tokenHash', '=', sha256(token))
      .execute();
    expect((await call(t.app, 'GET', '/list', { token })).status).toBe(401);
    expect((await dav('PROPFIND', '/', token)).status).toBe(401);
    expect((await list()).find((r) => r.name === `token ${made}`)!.expired).toBe(true);

    const past = await call(t.app, 'PUT', '/user/setting/generateAccessToken', {
      token: admin.token,
      query: { tokenName: 'late', expiresAt: Date.now() - 1000 },
    });
    expect(past.status).toBe(422);
    expect(past.body.message).toMatch(/expiresAt/);
    const odd = await call(t.app, 'PUT', '/user/setting/generateAccessToken', {
      token: admin.token,
      query: { tokenName: 'odd', scope: 'admin' },
    });
    expect(odd.status).toBe(422);
    expect(odd.body.message).toMatch(/scope/);
  });

  it('tokens made before scopes read and write and never expire after the upgrade', async () => {
    const db = t.database.db as unknown as Kysely<unknown>;
    const token = await makeToken({ scope: 'read' });
    // the table as it was, with this token in it, then the upgrade
    await scopeMigration.down(db);
    await scopeMigration.up(db);
    const row = await t.database.db
      .selectFrom('accessToken')
      .select(['scope', 'expiresAt'])
      .where('tokenHash', '=', sha256(token))
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ scope: 'readWrite', expiresAt: null });
    const folder = await call(t.app, 'POST', '/new_folder', {
      token,
      query: { currentDirectory: '/', filename: 'after-the-upgrade' },
    });
    expect(folder.status, folder.body.message).not.toBe(403);
  });
});
