import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MountView } from '@nimbus/contract';
import {
  ADMIN,
  call,
  makeTestApp,
  makeUser,
  putFile,
  setupAdmin,
  type TestApp,
} from '../harness.ts';
import { makeFolder, makeShare, unlock } from '../share-fixtures.ts';

// A share mounted into a user's drive, as that user's WebDAV client sees it: a folder at the
// mount's place, read through the share's own gate, read-only, gone as soon as the share is.

let t: TestApp;
let base: string;
let admin: { token: string; userId: string };
let bob: { token: string; userId: string; username: string; password: string };
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

beforeAll(async () => {
  t = await makeTestApp();
  admin = await setupAdmin(t.app);
  bob = await makeUser(t.app, admin.token, { username: 'bob' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
});
afterAll(async () => {
  await t.close();
});

const basic = (user: string, secret: string) =>
  `Basic ${Buffer.from(`${user}:${secret}`).toString('base64')}`;

/** One WebDAV request as bob's client sends it. */
function dav(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; as?: [string, string] } = {},
) {
  const [user, secret] = options.as ?? [bob.username, bob.password];
  return fetch(`${base}${path}`, {
    method,
    headers: { authorization: basic(user, secret), ...options.headers },
    body: options.body,
  });
}

/** The decoded hrefs of a PROPFIND answer. */
async function hrefs(res: Response): Promise<string[]> {
  const xml = await res.text();
  return [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]!));
}

/** The admin's folder `/<name>` holding `docs/guide.md` and `top.txt`, shared and mounted by bob. */
async function mounted(
  name: string,
  share: { allowDownload?: boolean; operationPermissionList?: string[] } = {},
  mountIn = '0',
) {
  const folder = await makeFolder(t, admin.token, '/', name);
  await makeFolder(t, admin.token, `/${name}`, 'docs');
  await putFile(t, owner(), `/${name}/docs`, 'guide.md', '# guide');
  await putFile(t, owner(), `/${name}`, 'top.txt', 'top');
  const made = await makeShare(t, admin.token, {
    fileId: folder,
    isPrivacy: true,
    allowDownload: share.allowDownload ?? true,
    operationPermissionList: share.operationPermissionList ?? [],
  });
  const token = await unlock(t, made.shortId, made.extractionCode!);
  const res = await call<MountView>(t.app, 'PUT', '/share/mount-folder', {
    token: bob.token,
    headers: { 'share-token': token },
    body: { shareId: made.shareId, fileId: mountIn, name: `m-${name}` },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return { share: made, mount: res.body.data! };
}

describe('WebDAV: mounted shares', () => {
  it('shows a mount as a folder at its place, and reads inside it, subfolders too', async () => {
    await mounted('team');
    const root = await dav('PROPFIND', '/', { headers: { depth: '1' } });
    expect(root.status).toBe(207);
    expect(await hrefs(root)).toContain('/webdav/m-team/');
    const self = await dav('PROPFIND', '/m-team', { headers: { depth: '0' } });
    expect(self.status).toBe(207);
    const selfXml = await self.text();
    expect(selfXml).toContain('<D:displayname>m-team</D:displayname>');
    expect(selfXml).toContain('<D:collection/>');
    const inside = await dav('PROPFIND', '/m-team/', { headers: { depth: '1' } });
    expect((await hrefs(inside)).sort()).toEqual([
      '/webdav/m-team/',
      '/webdav/m-team/docs/',
      '/webdav/m-team/top.txt',
    ]);
    const deeper = await dav('PROPFIND', '/m-team/docs', { headers: { depth: '1' } });
    expect(await hrefs(deeper)).toContain('/webdav/m-team/docs/guide.md');
    const get = await dav('GET', '/m-team/docs/guide.md');
    expect(get.status).toBe(200);
    expect(await get.text()).toBe('# guide');
    const head = await dav('HEAD', '/m-team/top.txt');
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('3');
    // the owner's tree outside the share stays out of reach
    expect((await dav('GET', '/m-team/../team/top.txt')).status).toBe(404);
  });

  it('lists a mount placed in a subfolder in that folder only', async () => {
    const inbox = await call<{ id: string }>(t.app, 'POST', '/new_folder', {
      token: bob.token,
      query: { filename: 'inbox', currentDirectory: '/' },
    });
    expect(inbox.body.code, inbox.body.message).toBe(0);
    await mounted('placed', {}, inbox.body.data!.id);
    const root = await dav('PROPFIND', '/', { headers: { depth: '1' } });
    expect(await hrefs(root)).not.toContain('/webdav/m-placed/');
    const folder = await dav('PROPFIND', '/inbox', { headers: { depth: '1' } });
    expect(await hrefs(folder)).toContain('/webdav/inbox/m-placed/');
    const get = await dav('GET', '/inbox/m-placed/docs/guide.md');
    expect(await get.text()).toBe('# guide');
  });

  it('keeps paths inside the share: .., encoded slashes and other names are refused', async () => {
    await mounted('walls');
    await putFile(t, owner(), '/', 'secret.txt', 'the owner’s only');
    for (const path of [
      '/m-walls/..%2Fsecret.txt',
      '/m-walls/docs%2F..%2F..%2Fsecret.txt',
      '/m-walls/%2E%2E/%2E%2E/secret.txt',
    ]) {
      const res = await dav('GET', path);
      expect([400, 404], path).toContain(res.status);
      expect(await res.text(), path).not.toContain('only');
    }
    expect((await dav('GET', '/m-walls/nothing-here.txt')).status).toBe(404);
    expect((await dav('PROPFIND', '/m-walls/docs/none', { headers: { depth: '0' } })).status).toBe(
      404,
    );
  });

  it('answers a download the share forbids with 403, while listing and HEAD still work', async () => {
    await mounted('nodl', { allowDownload: false });
    expect((await dav('PROPFIND', '/m-nodl/', { headers: { depth: '1' } })).status).toBe(207);
    expect((await dav('HEAD', '/m-nodl/top.txt')).status).toBe(200);
    const get = await dav('GET', '/m-nodl/top.txt');
    expect(get.status).toBe(403);
    expect(await get.text()).toContain('does not allow downloads');
  });

  it('refuses every change aimed into a mount with 403, even where the share allows it', async () => {
    await mounted('rw', { operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'] });
    await dav('PUT', '/mine.txt', { body: 'mine' });
    const refusals: [string, string, Record<string, string>?, string?][] = [
      ['PUT', '/m-rw/new.txt', {}, 'x'],
      ['PUT', '/m-rw/top.txt', {}, 'x'],
      ['MKCOL', '/m-rw/made'],
      ['DELETE', '/m-rw/top.txt'],
      ['DELETE', '/m-rw'],
      ['MOVE', '/m-rw/top.txt', { destination: `${base}/m-rw/moved.txt` }],
      ['MOVE', '/m-rw/top.txt', { destination: `${base}/stolen.txt` }],
      ['MOVE', '/mine.txt', { destination: `${base}/m-rw/mine.txt` }],
      ['MOVE', '/m-rw', { destination: `${base}/renamed` }],
      ['COPY', '/m-rw/top.txt', { destination: `${base}/m-rw/copy.txt` }],
      ['COPY', '/mine.txt', { destination: `${base}/m-rw/docs/mine.txt` }],
      ['COPY', '/m-rw/top.txt', { destination: `${base}/copied.txt` }],
      [
        'PROPPATCH',
        '/m-rw/top.txt',
        {},
        '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:t">1</x></D:prop></D:set></D:propertyupdate>',
      ],
      [
        'LOCK',
        '/m-rw/top.txt',
        {},
        '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>',
      ],
    ];
    for (const [method, path, headers, body] of refusals) {
      const res = await dav(method, path, { headers, body });
      expect(res.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(await res.text()).toContain('read-only over WebDAV');
    }
    // nothing changed on either side
    const inside = await dav('PROPFIND', '/m-rw/', { headers: { depth: '1' } });
    expect((await hrefs(inside)).sort()).toEqual([
      '/webdav/m-rw/',
      '/webdav/m-rw/docs/',
      '/webdav/m-rw/top.txt',
    ]);
    expect(await (await dav('GET', '/m-rw/top.txt')).text()).toBe('top');
    expect((await dav('GET', '/mine.txt')).status).toBe(200);
    expect((await dav('GET', '/stolen.txt')).status).toBe(404);
  });

  it('shows nothing of a mount once the share is cancelled or expired, or the mount removed', async () => {
    const gone = await mounted('gone');
    const expiring = await mounted('expiring');
    const removed = await mounted('removed');
    for (const name of ['m-gone', 'm-expiring', 'm-removed'])
      expect((await dav('GET', `/${name}/top.txt`)).status, name).toBe(200);

    await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: gone.share.shareId },
    });
    await t.app.services.db
      .updateTable('share')
      .set({ expiresAt: Date.now() - 1000 })
      .where('id', '=', expiring.share.shareId)
      .execute();
    const unmounted = await call(t.app, 'DELETE', '/mount/remove', {
      token: bob.token,
      query: { mountId: removed.mount.mountId },
    });
    expect(unmounted.body.code, unmounted.body.message).toBe(0);

    const root = await hrefs(await dav('PROPFIND', '/', { headers: { depth: '1' } }));
    for (const name of ['m-gone', 'm-expiring', 'm-removed']) {
      expect(root, name).not.toContain(`/webdav/${name}/`);
      expect((await dav('GET', `/${name}/top.txt`)).status, name).toBe(404);
      expect((await dav('PROPFIND', `/${name}`, { headers: { depth: '0' } })).status, name).toBe(
        404,
      );
    }
  });

  it('keeps the mount to its mounter: the owner and others do not see it in their trees', async () => {
    await mounted('private-mount');
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    expect(
      (await dav('GET', '/m-private-mount/top.txt', { as: [carol.username, carol.password] }))
        .status,
    ).toBe(404);
    expect(
      (await dav('GET', '/m-private-mount/top.txt', { as: [ADMIN.username, ADMIN.password] }))
        .status,
    ).toBe(404);
  });
});
