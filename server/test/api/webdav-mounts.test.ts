import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MountView } from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, unlock } from '../share-fixtures.ts';

// A share mounted into a user's drive, as that user's WebDAV client sees it: a folder at the
// mount's place, read and changed through the share's own gate and grants (the same rules as
// the web app's), gone as soon as the share is.

let base: string;
let bob: { token: string; userId: string; username: string; password: string };
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp({ once: true });
beforeAll(async () => {
  bob = await makeUser(t.app, admin.token, { username: 'bob' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webdav`;
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

const asOwner: [string, string] = [ADMIN.username, ADMIN.password];

const LOCKINFO =
  '<?xml version="1.0"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';
const PROPSET =
  '<?xml version="1.0"?><D:propertyupdate xmlns:D="DAV:"><D:set><D:prop><x xmlns="urn:t">1</x></D:prop></D:set></D:propertyupdate>';

/** A file's text in the owner's own tree, or null when nothing is there. */
async function ownerText(path: string): Promise<string | null> {
  const res = await dav('GET', path, { as: asOwner });
  return res.status === 200 ? res.text() : null;
}

/** What the owner sees in one of their folders, sorted. */
async function ownerList(path: string): Promise<string[]> {
  return (
    await hrefs(await dav('PROPFIND', path, { headers: { depth: '1' }, as: asOwner }))
  ).sort();
}

/** The names in the owner's trash. */
async function ownerTrash(): Promise<string[]> {
  const trash = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { queryFileType: 'trash' },
  });
  return trash.body.data!.map((f) => f.name);
}

/** The versions the owner's file keeps: what each held and who replaced it. */
async function versionsOf(folder: string, name: string): Promise<{ text: string; by: string }[]> {
  const row = await t.app.services.fileRows.liveAt(admin.userId, folder, name);
  const list = await call<Array<{ id: string; metadata: { operator: string } }>>(
    t.app,
    'GET',
    '/history/list',
    { token: admin.token, query: { fileId: row!.id } },
  );
  const out: { text: string; by: string }[] = [];
  for (const v of list.body.data ?? []) {
    const was = await call<{ contentText: string }>(t.app, 'GET', '/history/preview/text', {
      token: admin.token,
      query: { id: v.id },
    });
    out.push({ text: was.body.data!.contentText, by: v.metadata.operator });
  }
  return out;
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

  it('lets a share with every grant be changed through the mount, as its owner then sees', async () => {
    await mounted('rw', { operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'] });
    expect((await dav('PUT', '/m-rw/new.txt', { body: 'fresh' })).status).toBe(201);
    expect(await ownerText('/rw/new.txt')).toBe('fresh');
    // an overwrite keeps what it replaced as a version, named after the mounter
    expect((await dav('PUT', '/m-rw/top.txt', { body: 'changed' })).status).toBe(204);
    expect(await ownerText('/rw/top.txt')).toBe('changed');
    const kept = await versionsOf('/rw/', 'top.txt');
    expect(kept.map((v) => v.text)).toEqual(['top']);
    expect(kept[0]!.by).toBe('bob');
    expect((await dav('MKCOL', '/m-rw/made')).status).toBe(201);
    expect((await dav('PUT', '/m-rw/made/inner.txt', { body: 'in' })).status).toBe(201);
    expect(await ownerText('/rw/made/inner.txt')).toBe('in');
    // a rename, then a move into a subfolder of the share
    const to = (path: string) => ({ destination: `${base}${path}` });
    expect((await dav('MOVE', '/m-rw/new.txt', { headers: to('/m-rw/renamed.txt') })).status).toBe(
      201,
    );
    expect(await ownerText('/rw/new.txt')).toBeNull();
    expect(
      (await dav('MOVE', '/m-rw/renamed.txt', { headers: to('/m-rw/docs/renamed.txt') })).status,
    ).toBe(201);
    expect(await ownerText('/rw/docs/renamed.txt')).toBe('fresh');
    expect((await dav('COPY', '/m-rw/docs', { headers: to('/m-rw/docs-copy') })).status).toBe(201);
    expect(await ownerText('/rw/docs-copy/guide.md')).toBe('# guide');
    expect(await ownerText('/rw/docs/guide.md')).toBe('# guide');
    const patched = await dav('PROPPATCH', '/m-rw/top.txt', { body: PROPSET });
    expect(patched.status).toBe(207);
    expect(await patched.text()).toContain('200 OK');
    const asked = await dav('PROPFIND', '/rw/top.txt', {
      headers: { depth: '0' },
      body: '<?xml version="1.0"?><D:propfind xmlns:D="DAV:"><D:prop><x xmlns="urn:t"/></D:prop></D:propfind>',
      as: asOwner,
    });
    expect(await asked.text()).toMatch(/<x xmlns="urn:t">1<\/x>/);
    // a lock held through the mount protects the file from the mounter's other clients
    const locked = await dav('LOCK', '/m-rw/top.txt', { body: LOCKINFO });
    expect(locked.status).toBe(200);
    const token = locked.headers.get('lock-token')!;
    expect((await dav('PUT', '/m-rw/top.txt', { body: 'no token' })).status).toBe(423);
    expect(
      (await dav('PUT', '/m-rw/top.txt', { body: 'with token', headers: { if: `(${token})` } }))
        .status,
    ).toBe(204);
    expect(
      (await dav('UNLOCK', '/m-rw/top.txt', { headers: { 'lock-token': token } })).status,
    ).toBe(204);
    expect(await ownerText('/rw/top.txt')).toBe('with token');
    // a lock the owner holds on their file refuses the mounter's write
    const owners = await dav('LOCK', '/rw/top.txt', { body: LOCKINFO, as: asOwner });
    expect(owners.status).toBe(200);
    expect((await dav('PUT', '/m-rw/top.txt', { body: 'blocked' })).status).toBe(423);
    const ownerToken = owners.headers.get('lock-token')!;
    expect(
      (
        await dav('UNLOCK', '/rw/top.txt', {
          headers: { 'lock-token': ownerToken },
          as: asOwner,
        })
      ).status,
    ).toBe(204);
    expect(await ownerText('/rw/top.txt')).toBe('with token');
    // a delete goes to the owner's trash
    expect((await dav('DELETE', '/m-rw/docs-copy')).status).toBe(204);
    expect(await ownerText('/rw/docs-copy/guide.md')).toBeNull();
    expect(await ownerTrash()).toContain('docs-copy');
  });

  it('refuses each change the share does not grant with 403 naming it, and changes nothing', async () => {
    await mounted('ro');
    const to = (path: string) => ({ destination: `${base}${path}` });
    const refusals: [string, string, string, Record<string, string>?, string?][] = [
      ['uploading', 'PUT', '/m-ro/new.txt', {}, 'x'],
      ['uploading', 'PUT', '/m-ro/top.txt', {}, 'x'],
      ['uploading', 'MKCOL', '/m-ro/made'],
      ['deleting', 'DELETE', '/m-ro/top.txt'],
      ['deleting', 'DELETE', '/m-ro/docs'],
      ['editing', 'MOVE', '/m-ro/top.txt', to('/m-ro/moved.txt')],
      ['editing', 'MOVE', '/m-ro/top.txt', to('/m-ro/docs/top.txt')],
      ['uploading', 'COPY', '/m-ro/top.txt', to('/m-ro/copy.txt')],
      ['uploading', 'COPY', '/mine.txt', to('/m-ro/mine.txt')],
      ['editing', 'PROPPATCH', '/m-ro/top.txt', {}, PROPSET],
      ['editing', 'LOCK', '/m-ro/top.txt', {}, LOCKINFO],
      ['uploading', 'LOCK', '/m-ro/new.txt', {}, LOCKINFO],
    ];
    expect((await dav('PUT', '/mine.txt', { body: 'mine' })).status).toBe(201);
    for (const [missing, method, path, headers, body] of refusals) {
      const res = await dav(method, path, { headers, body });
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(await res.text(), `${method} ${path}`).toContain(`does not allow ${missing}`);
    }
    expect(await ownerList('/ro')).toEqual([
      '/webdav/ro/',
      '/webdav/ro/docs/',
      '/webdav/ro/top.txt',
    ]);
    expect(await ownerText('/ro/top.txt')).toBe('top');
    expect(await versionsOf('/ro/', 'top.txt')).toEqual([]);
  });

  it('asks for the edit grant to replace a file and the upload grant to add one', async () => {
    await mounted('up', { operationPermissionList: ['UPLOAD'] });
    expect((await dav('PUT', '/m-up/added.txt', { body: 'a' })).status).toBe(201);
    const over = await dav('PUT', '/m-up/top.txt', { body: 'x' });
    expect(over.status).toBe(403);
    expect(await over.text()).toContain('does not allow editing');
    expect(await ownerText('/up/top.txt')).toBe('top');
    await mounted('ed', { operationPermissionList: ['PUT'] });
    const add = await dav('PUT', '/m-ed/added.txt', { body: 'a' });
    expect(add.status).toBe(403);
    expect(await add.text()).toContain('does not allow uploading');
    expect(
      (await dav('MOVE', '/m-ed/top.txt', { headers: { destination: `${base}/m-ed/top2.txt` } }))
        .status,
    ).toBe(201);
    expect(await ownerText('/ed/top2.txt')).toBe('top');
  });

  it('treats the mount itself as the mounter’s: removed by DELETE, never renamed or overwritten', async () => {
    await mounted('self', { operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'] });
    expect((await dav('PUT', '/mine-self.txt', { body: 'mine' })).status).toBe(201);
    const renamed = await dav('MOVE', '/m-self', { headers: { destination: `${base}/renamed` } });
    expect(renamed.status).toBe(403);
    const over = await dav('MOVE', '/mine-self.txt', {
      headers: { destination: `${base}/m-self` },
    });
    expect(over.status).toBe(403);
    expect((await dav('PUT', '/m-self', { body: 'x' })).status).toBe(405);
    expect((await dav('GET', '/m-self/top.txt')).status).toBe(200);
    expect((await dav('GET', '/mine-self.txt')).status).toBe(200);
    expect((await dav('DELETE', '/m-self')).status).toBe(204);
    expect((await dav('PROPFIND', '/m-self', { headers: { depth: '0' } })).status).toBe(404);
    const mounts = await call<MountView[]>(t.app, 'GET', '/mount/list', { token: bob.token });
    expect(mounts.body.data!.map((m) => m.name)).not.toContain('m-self');
    // the owner's folder is untouched, and not in any trash
    expect(await ownerText('/self/top.txt')).toBe('top');
    expect(await ownerTrash()).not.toContain('self');
  });

  it('copies a file between a mount and the mounter’s drive by the share’s grants; moves none', async () => {
    await mounted('across', { operationPermissionList: ['UPLOAD'] });
    await mounted('across-nodl', { allowDownload: false, operationPermissionList: ['UPLOAD'] });
    const to = (path: string) => ({ destination: `${base}${path}` });
    expect((await dav('PUT', '/mine-across.txt', { body: 'mine' })).status).toBe(201);
    expect((await dav('COPY', '/m-across/top.txt', { headers: to('/top-copy.txt') })).status).toBe(
      201,
    );
    expect(await (await dav('GET', '/top-copy.txt')).text()).toBe('top');
    expect(
      (await dav('COPY', '/mine-across.txt', { headers: to('/m-across/docs/mine.txt') })).status,
    ).toBe(201);
    expect(await ownerText('/across/docs/mine.txt')).toBe('mine');
    // between two mounts: the download grant of one, the upload grant of the other
    expect(
      (await dav('COPY', '/m-across/top.txt', { headers: to('/m-across-nodl/from-other.txt') }))
        .status,
    ).toBe(201);
    expect(await ownerText('/across-nodl/from-other.txt')).toBe('top');
    const nodl = await dav('COPY', '/m-across-nodl/top.txt', { headers: to('/stolen.txt') });
    expect(nodl.status).toBe(403);
    expect(await nodl.text()).toContain('does not allow downloads');
    expect((await dav('GET', '/stolen.txt')).status).toBe(404);
    for (const [from, dest] of [
      ['/m-across/top.txt', '/moved-out.txt'],
      ['/mine-across.txt', '/m-across/moved-in.txt'],
      ['/m-across/top.txt', '/m-across-nodl/moved.txt'],
    ] as const) {
      const res = await dav('MOVE', from, { headers: to(dest) });
      expect(res.status, `${from} → ${dest}`).toBe(502);
    }
    const folder = await dav('COPY', '/m-across/docs', { headers: to('/docs-out') });
    expect(folder.status).toBe(502);
    expect(await ownerText('/across/top.txt')).toBe('top');
    expect((await dav('GET', '/mine-across.txt')).status).toBe(200);
    for (const gone of ['/moved-out.txt', '/docs-out'])
      expect((await dav('PROPFIND', gone, { headers: { depth: '0' } })).status).toBe(404);
    expect(await ownerText('/across/moved-in.txt')).toBeNull();
  });

  it('counts what a mounter writes against the owner’s quota: 507 when it is full', async () => {
    const olga = await makeUser(t.app, admin.token, { username: 'olga', quota: 1 });
    const folder = await makeFolder(t, olga.token, '/', 'full');
    const made = await makeShare(t, olga.token, {
      fileId: folder,
      isPrivacy: true,
      allowDownload: true,
      operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'],
    });
    const token = await unlock(t, made.shortId, made.extractionCode!);
    const res = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: made.shareId, fileId: '0', name: 'm-full' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    const usedOf = async (userId: string) =>
      Number(
        (
          await t.app.services.db
            .selectFrom('user')
            .select('usedBytes')
            .where('id', '=', userId)
            .executeTakeFirstOrThrow()
        ).usedBytes,
      );
    await t.app.services.db
      .updateTable('user')
      .set({ usedBytes: 1024 ** 3 - 4 })
      .where('id', '=', olga.userId)
      .execute();
    const bobBefore = await usedOf(bob.userId);
    const full = await dav('PUT', '/m-full/big.txt', { body: 'ten bytes!' });
    expect(full.status).toBe(507);
    expect((await dav('GET', '/m-full/big.txt')).status).toBe(404);
    expect((await dav('PUT', '/m-full/small.txt', { body: 'ab' })).status).toBe(201);
    expect(await usedOf(olga.userId)).toBe(1024 ** 3 - 2);
    expect(await usedOf(bob.userId)).toBe(bobBefore);
  });

  it('writes nothing once the share is cancelled or expired mid-session', async () => {
    const cancelled = await mounted('cancelled', {
      operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'],
    });
    const lapsed = await mounted('lapsed', {
      operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'],
    });
    expect((await dav('PROPFIND', '/m-lapsed/', { headers: { depth: '1' } })).status).toBe(207);
    await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: cancelled.share.shareId },
    });
    await t.app.services.db
      .updateTable('share')
      .set({ expiresAt: Date.now() - 1000 })
      .where('id', '=', lapsed.share.shareId)
      .execute();
    const to = (path: string) => ({ destination: `${base}${path}` });
    for (const name of ['m-cancelled', 'm-lapsed']) {
      const attempts: [string, string, Record<string, string>?, string?][] = [
        ['PUT', `/${name}/new.txt`, {}, 'x'],
        ['PUT', `/${name}/top.txt`, {}, 'x'],
        ['MKCOL', `/${name}/made`],
        ['DELETE', `/${name}/top.txt`],
        ['MOVE', `/${name}/top.txt`, to(`/${name}/moved.txt`)],
        ['COPY', `/${name}/top.txt`, to('/copied-out.txt')],
      ];
      for (const [method, path, headers, body] of attempts) {
        const res = await dav(method, path, { headers, body });
        expect([403, 404, 409], `${method} ${path}`).toContain(res.status);
      }
    }
    const expired = await dav('PUT', '/m-lapsed/new.txt', { body: 'x' });
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('expired');
    for (const folder of ['/cancelled', '/lapsed'])
      expect(await ownerList(folder)).toEqual([
        `/webdav${folder}/`,
        `/webdav${folder}/docs/`,
        `/webdav${folder}/top.txt`,
      ]);
    expect(await ownerText('/lapsed/top.txt')).toBe('top');
    expect((await dav('GET', '/copied-out.txt')).status).toBe(404);
  });

  it('keeps writes inside the share and to the names allowed everywhere', async () => {
    await mounted('fence', { operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'] });
    const attempts: [string, string, Record<string, string>?][] = [
      ['PUT', '/m-fence/..%2Fevil.txt'],
      ['PUT', '/m-fence/docs/..%2F..%2Fevil.txt'],
      ['PUT', '/m-fence/%2E%2E%2Fevil.txt'],
      ['MKCOL', '/m-fence/docs%2F..%2F..%2Fevil'],
      ['MOVE', '/m-fence/top.txt', { destination: `${base}/m-fence/../evil.txt` }],
      ['MOVE', '/m-fence/top.txt', { destination: `${base}/m-fence/%2E%2E/evil.txt` }],
      ['COPY', '/m-fence/top.txt', { destination: `${base}/m-fence/docs/%2E%2E%2F..%2Fevil.txt` }],
      ['PUT', '/m-fence/bad%01name.txt'],
      ['PUT', '/m-fence/%E2%80%AEtxt.exe'],
      ['PUT', `/m-fence/${'n'.repeat(300)}.txt`],
      ['MKCOL', '/m-fence/con'],
    ];
    for (const [method, path, headers] of attempts) {
      const res = await dav(method, path, { headers, body: method === 'PUT' ? 'evil' : undefined });
      // a destination outside the mount is in another tree: not moved (502)
      expect([400, 403, 404, 409, 502], `${method} ${path}`).toContain(res.status);
    }
    expect(await ownerList('/fence')).toEqual([
      '/webdav/fence/',
      '/webdav/fence/docs/',
      '/webdav/fence/top.txt',
    ]);
    const home = await ownerList('/');
    expect(home.filter((h) => h.includes('evil'))).toEqual([]);
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
