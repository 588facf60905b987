import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN, call, makeUser, useAdminApp } from '../harness.ts';

// WebDAV at /webdav/ on a real listening server: the litmus suites a class-2 server must pass,
// names that need encoding, quotas, sign-in and one user's tree kept from another's.

const run = promisify(execFile);

let base: string;
let bob: { token: string; userId: string; username: string; password: string };

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  bob = await makeUser(t.app, admin.token, { username: 'bob', quota: 0.00001 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
});

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** One WebDAV request as a client sends it. */
function dav(
  method: string,
  path: string,
  options: {
    as?: [string, string];
    headers?: Record<string, string>;
    body?: string | Uint8Array;
  } = {},
) {
  const [user, secret] = options.as ?? [ADMIN.username, ADMIN.password];
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: basic(user, secret), ...options.headers },
    body: options.body as BodyInit | undefined,
  });
}

const enc = (name: string) => encodeURIComponent(name);

describe('WebDAV', () => {
  it('passes every litmus suite: basic, copymove, props, locks, http', async () => {
    const { stdout } = await run('litmus', ['-k', `${base}/`, ADMIN.username, ADMIN.password], {
      env: { ...process.env, TESTS: 'basic copymove props locks http' },
      timeout: 240_000,
    }).catch((err: { stdout?: string; message: string }) => ({
      stdout: err.stdout ?? err.message,
    }));
    const summaries = [
      ...stdout.matchAll(/summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g),
    ];
    expect(summaries.map((m) => m[1])).toEqual(['basic', 'copymove', 'props', 'locks', 'http']);
    for (const [line, , total, passed, failed] of summaries) {
      expect(failed, line).toBe('0');
      expect(passed, line).toBe(total);
    }
  }, 240_000);

  it('round-trips names with Chinese, emoji, spaces, #, % and +', async () => {
    const names = ['中文 文件.txt', 'emoji 😀🎉.md', 'a #1 50% 1+1=2.txt', '  两个 空格  .log'];
    expect((await dav('MKCOL', `/${enc('目录 #%+ 😀')}`)).status).toBe(201);
    for (const name of names) {
      const res = await dav('PUT', `/${enc('目录 #%+ 😀')}/${enc(name)}`, {
        body: `bytes of ${name}`,
      });
      expect(res.status, name).toBe(201);
    }
    const listing = await dav('PROPFIND', `/${enc('目录 #%+ 😀')}/`, { headers: { depth: '1' } });
    expect(listing.status).toBe(207);
    const xml = await listing.text();
    const hrefs = [...xml.matchAll(/<D:href>([^<]+)<\/D:href>/g)].map((m) =>
      decodeURIComponent(m[1]!.replace(/&amp;/g, '&')),
    );
    for (const name of names) expect(hrefs).toContain(`/webdav/目录 #%+ 😀/${name}`);
    for (const name of names) {
      const res = await dav('GET', `/${enc('目录 #%+ 😀')}/${enc(name)}`);
      expect(await res.text()).toBe(`bytes of ${name}`);
    }
    // the web API sees the same names
    const api = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/目录 #%+ 😀' },
    });
    expect(api.body.data!.map((f) => f.name).sort()).toEqual([...names].sort());
  });

  it('sends the same ETag and Last-Modified as the API, and byte ranges', async () => {
    expect((await dav('PUT', '/range.txt', { body: '0123456789' })).status).toBe(201);
    const whole = await dav('GET', '/range.txt');
    const fromApi = await t.app.inject({
      method: 'GET',
      url: '/api/file/admin/range.txt',
      headers: { 'nimbus-token': admin.token },
    });
    expect(fromApi.statusCode).toBe(200);
    expect(whole.headers.get('etag')).toBe(fromApi.headers.etag);
    expect(whole.headers.get('last-modified')).toBe(fromApi.headers['last-modified']);
    const part = await dav('GET', '/range.txt', { headers: { range: 'bytes=2-4' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('234');
    const props = await (await dav('PROPFIND', '/range.txt', { headers: { depth: '0' } })).text();
    expect(props).toContain(
      `<D:getetag>${whole.headers.get('etag')!.replace(/"/g, '&quot;')}</D:getetag>`,
    );
  });

  it('refuses depth infinity, and gzips a listing when asked', async () => {
    expect((await dav('PROPFIND', '/', { headers: { depth: 'infinity' } })).status).toBe(403);
    const res = await dav('PROPFIND', '/', { headers: { depth: '1', 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(207);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(await res.text()).toContain('<D:multistatus');
  });

  it('refuses a PUT over the quota cleanly and keeps nothing of it', async () => {
    const as: [string, string] = [bob.username, bob.password];
    expect((await dav('PUT', '/small.txt', { as, body: 'x'.repeat(1000) })).status).toBe(201);
    const big = await dav('PUT', '/big.bin', { as, body: new Uint8Array(20_000).fill(1) });
    expect(big.status).toBe(507);
    expect((await dav('GET', '/big.bin', { as })).status).toBe(404);
    const info = await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', {
      token: bob.token,
    });
    expect(info.body.data!.takeUpSpace).toBe(1000);
  });

  it('stops a streamed PUT of unknown length as soon as it passes the space left', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request(`${base}/streamed.bin`, {
        method: 'PUT',
        headers: { authorization: basic(bob.username, bob.password) },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      // chunked, no length announced: 64 KiB pieces until the server answers
      const piece = Buffer.alloc(64 * 1024, 2);
      let sent = 0;
      const pump = () => {
        while (sent < 64 && !req.destroyed) {
          sent++;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(status).toBe(507);
    const as: [string, string] = [bob.username, bob.password];
    expect((await dav('GET', '/streamed.bin', { as })).status).toBe(404);
  });

  it('keeps each user to their own tree', async () => {
    expect((await dav('PUT', '/admin-only.txt', { body: 'secret' })).status).toBe(201);
    const as: [string, string] = [bob.username, bob.password];
    expect((await dav('GET', '/admin-only.txt', { as })).status).toBe(404);
    expect((await dav('DELETE', '/admin-only.txt', { as })).status).toBe(404);
    const listing = await (await dav('PROPFIND', '/', { as, headers: { depth: '1' } })).text();
    expect(listing).not.toContain('admin-only');
    expect((await dav('GET', '/admin-only.txt')).status).toBe(200);
    // a path cannot climb out of the tree
    expect((await dav('GET', '/..%2Fadmin%2Fadmin-only.txt', { as })).status).toBe(400);
  });

  it('asks for a sign-in, refuses wrong passwords and throttles them like the web login', async () => {
    const none = await fetch(`${base}/`, { method: 'PROPFIND', headers: { depth: '0' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic /);
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await dav('PROPFIND', '/', { as: ['carol', `wrong-${i}`], headers: { depth: '0' } }))
          .status,
      );
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses[5]).toBe(429);
    expect(carol.username).toBe('carol');
  });

  it("answers a stranger's large upload at once and closes, without reading its body", async () => {
    const { port } = new URL(base);
    const answer = await new Promise<{ status: number; connection: string | undefined }>(
      (resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port: Number(port),
          method: 'PUT',
          path: '/webdav/stranger.bin',
          headers: { 'content-length': String(50 * 1024 * 1024) },
        });
        req.on('response', (res) => {
          res.resume();
          // the server ends the connection itself, without waiting for the body
          req.socket?.once('close', () =>
            resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }),
          );
        });
        req.on('error', reject);
        // only the first kilobyte is ever sent: the answer must not wait for the rest
        req.write(Buffer.alloc(1024));
      },
    );
    expect(answer).toEqual({ status: 401, connection: 'close' });
  });

  it('opens an account with two factors with an access token, never with its password', async () => {
    const dave = await makeUser(t.app, admin.token, { username: 'dave' });
    const made = await call<string>(t.app, 'PUT', '/user/setting/generateAccessToken', {
      token: dave.token,
      query: { tokenName: 'webdav' },
    });
    const accessToken = made.body.data!;
    await t.app.services.db
      .updateTable('user')
      .set({ mfaEnabled: 1 })
      .where('id', '=', dave.userId)
      .execute();
    const byPassword = await dav('PROPFIND', '/', {
      as: ['dave', dave.password],
      headers: { depth: '0' },
    });
    expect(byPassword.status).toBe(401);
    const byToken = await dav('PROPFIND', '/', {
      as: ['dave', accessToken],
      headers: { depth: '0' },
    });
    expect(byToken.status).toBe(207);
    // someone else's token does not open this account
    const other = await dav('PROPFIND', '/', { as: ['bob', accessToken], headers: { depth: '0' } });
    expect(other.status).toBe(401);
  });

  it('tells an open browser about a PUT at once, keeps an overwritten text as a version and puts other overwritten files in the trash', async () => {
    const events: Array<{ url: string; body: unknown }> = [];
    const stop = t.app.services.events.subscribe(admin.userId, (m) => {
      events.push(m);
    });
    try {
      expect((await dav('PUT', '/live.txt', { body: 'one' })).status).toBe(201);
      // the bus delivers as soon as it has the user's usage: wait for it, no deadline of our own
      await vi.waitFor(
        () =>
          expect(
            events.some(
              (e) => e.url === 'createFile' && (e.body as { name: string }).name === 'live.txt',
            ),
          ).toBe(true),
        { timeout: 10_000 },
      );
      expect((await dav('PUT', '/live.txt', { body: 'two' })).status).toBe(204);
      expect(await (await dav('GET', '/live.txt')).text()).toBe('two');
      const home = await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', {
        token: admin.token,
        query: { currentDirectory: '/' },
      });
      const live = home.body.data!.find((f) => f.name === 'live.txt')!;
      const kept = await call<Array<{ id: string }>>(t.app, 'GET', '/history/list', {
        token: admin.token,
        query: { fileId: live.id },
      });
      expect(kept.body.count).toBe(1);
      const was = await call<{ contentText: string }>(t.app, 'GET', '/history/preview/text', {
        token: admin.token,
        query: { id: kept.body.data![0]!.id },
      });
      expect(was.body.data!.contentText).toBe('one');

      expect((await dav('PUT', '/blob.bin', { body: 'one' })).status).toBe(201);
      expect((await dav('PUT', '/blob.bin', { body: 'two' })).status).toBe(204);
      const trash = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
        token: admin.token,
        query: { queryFileType: 'trash' },
      });
      const trashed = trash.body.data!.map((f) => f.name);
      expect(trashed).toContain('blob.bin');
      expect(trashed).not.toContain('live.txt');
    } finally {
      stop();
    }
  });

  it('never overwrites a folder that holds the source of a COPY or MOVE', async () => {
    expect((await dav('MKCOL', '/outer')).status).toBe(201);
    expect((await dav('PUT', '/outer/inner.txt', { body: 'keep me' })).status).toBe(201);
    for (const method of ['COPY', 'MOVE'])
      expect(
        (await dav(method, '/outer/inner.txt', { headers: { destination: `${base}/outer` } }))
          .status,
      ).toBe(409);
    expect(await (await dav('GET', '/outer/inner.txt')).text()).toBe('keep me');
  });

  it('sets the date a client sends with X-OC-Mtime', async () => {
    const res = await dav('PUT', '/dated.txt', {
      body: 'x',
      headers: { 'x-oc-mtime': '1600000000' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-oc-mtime')).toBe('accepted');
    const got = await dav('GET', '/dated.txt');
    expect(got.headers.get('last-modified')).toBe(new Date(1600000000_000).toUTCString());
  });
});
