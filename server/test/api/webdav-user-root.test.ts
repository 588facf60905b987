import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, makeUser, useAdminApp } from '../harness.ts';

// WebDAV at the original client's address, `/webDAV/<username>/` (its sidebar shows it), beside
// `/webdav/`: the same drive, answered with addresses under the root the client asked at.

const run = promisify(execFile);

let origin: string;
let bob: { token: string; userId: string; username: string; password: string };

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  bob = await makeUser(t.app, admin.token, { username: 'bob', password: 'bob-secret-1' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

function dav(
  method: string,
  path: string,
  options: { as?: [string, string]; headers?: Record<string, string>; body?: string } = {},
) {
  const [user, secret] = options.as ?? [ADMIN.username, ADMIN.password];
  return fetch(`${origin}${path}`, {
    method,
    headers: { authorization: basic(user, secret), ...options.headers },
    body: options.body,
  });
}

const hrefs = (xml: string) => [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => m[1]);

describe('WebDAV at /webDAV/<username>/', () => {
  it('passes the litmus basic and copymove suites there', async () => {
    const root = `${origin}/webDAV/${ADMIN.username}/`;
    const { stdout } = await run('litmus', ['-k', root, ADMIN.username, ADMIN.password], {
      env: { ...process.env, TESTS: 'basic copymove' },
      timeout: 120_000,
    }).catch((err: { stdout?: string; message: string }) => ({
      stdout: err.stdout ?? err.message,
    }));
    const summaries = [
      ...stdout.matchAll(/summary for `(\w+)': of (\d+) tests run: (\d+) passed, (\d+) failed/g),
    ];
    expect(summaries.map((m) => m[1])).toEqual(['basic', 'copymove']);
    for (const [line, , total, passed] of summaries) expect(passed, line).toBe(total);
  });

  it('writes and reads the same drive as /webdav/, naming items under the root asked at', async () => {
    const put = await dav('PUT', `/webDAV/${ADMIN.username}/from-original.txt`, { body: 'hi' });
    expect(put.status).toBe(201);
    expect(await (await dav('GET', '/webdav/from-original.txt')).text()).toBe('hi');

    const listing = await dav('PROPFIND', `/webDAV/${ADMIN.username}/`, {
      headers: { depth: '1' },
    });
    expect(listing.status).toBe(207);
    const named = hrefs(await listing.text());
    expect(named).toContain(`/webDAV/${ADMIN.username}/`);
    expect(named).toContain(`/webDAV/${ADMIN.username}/from-original.txt`);
    expect(named.every((h) => h!.startsWith(`/webDAV/${ADMIN.username}/`))).toBe(true);
    // the other form still answers in its own
    const plain = hrefs(
      await (await dav('PROPFIND', '/webdav/', { headers: { depth: '1' } })).text(),
    );
    expect(plain).toContain('/webdav/from-original.txt');
  });

  it('moves to a destination written in either form', async () => {
    const user = `/webDAV/${ADMIN.username}`;
    await dav('PUT', `${user}/move-me.txt`, { body: 'm' });
    const first = await dav('MOVE', `${user}/move-me.txt`, {
      headers: { destination: `${origin}${user}/moved.txt` },
    });
    expect(first.status).toBe(201);
    const second = await dav('MOVE', `${user}/moved.txt`, {
      headers: { destination: `${origin}/webdav/moved-again.txt` },
    });
    expect(second.status).toBe(201);
    expect(await (await dav('GET', '/webdav/moved-again.txt')).text()).toBe('m');
  });

  it('keeps each drive its owner’s: another user’s address is refused', async () => {
    const other = await dav('PROPFIND', `/webDAV/${ADMIN.username}/`, {
      as: [bob.username, bob.password],
      headers: { depth: '0' },
    });
    expect(other.status).toBe(403);
    const written = await dav('PUT', `/webDAV/${ADMIN.username}/by-bob.txt`, {
      as: [bob.username, bob.password],
      body: 'x',
    });
    expect(written.status).toBe(403);
    expect((await dav('GET', '/webdav/by-bob.txt')).status).toBe(404);
    // nor can a move carry an item into another user's drive
    await dav('PUT', `/webDAV/${ADMIN.username}/stay.txt`, { body: 's' });
    const across = await dav('MOVE', `/webDAV/${ADMIN.username}/stay.txt`, {
      headers: { destination: `${origin}/webDAV/${bob.username}/stay.txt` },
    });
    expect(across.status).toBe(502);
    expect(await (await dav('GET', '/webdav/stay.txt')).text()).toBe('s');
    // a stranger is asked to sign in, as at /webdav/
    const stranger = await fetch(`${origin}/webDAV/${ADMIN.username}/`, { method: 'PROPFIND' });
    expect(stranger.status).toBe(401);
  });
});
