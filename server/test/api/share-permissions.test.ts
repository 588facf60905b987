import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  SHARE_VISITOR_OPERATOR,
  type HistoryVersion,
  type MountView,
  type PublicFileView,
  type ShareFacts,
} from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, publicUpload, raw, unlock, visitor } from '../share-fixtures.ts';
import { uploadFile } from '../upload-client.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const disk = (...parts: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...parts);
const used = async () =>
  (await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token: admin.token })).body
    .data!.takeUpSpace;

const { t, admin, renew } = useAdminApp();

/** A private shared folder `/drop` holding `keep.txt`, with these visitor operations. */
async function dropBox(operationPermissionList: string[]) {
  const folder = await makeFolder(t, admin.token, '/', 'drop');
  const keep = await putFile(t, owner(), '/drop', 'keep.txt', 'keep me');
  const share = await makeShare(t, admin.token, {
    fileId: folder,
    isPrivacy: true,
    operationPermissionList,
  });
  const token = await unlock(t, share.shortId, share.extractionCode!);
  return { folder, keep, share, headers: visitor(share.shareId, token) };
}

describe('visitor permissions', () => {
  it('refuses every upload and change into a read-only share', async () => {
    const { keep, headers } = await dropBox([]);
    const up = await publicUpload(t, headers, { name: 'new.txt', content: Buffer.from('x') });
    expect(up.failed?.status).toBe(403);
    expect(up.failed?.body).toMatchObject({
      code: 8,
      message: 'This share does not allow uploading',
    });
    const check = await call(t.app, 'POST', '/public/checkExist', {
      headers,
      body: { filenames: ['a'], currentDirectory: '/' },
    });
    expect(check.body.code).toBe(8);
    const folder = await call(t.app, 'POST', '/public/new_folder', {
      headers,
      query: { filename: 'made' },
    });
    expect(folder.body.code).toBe(8);
    const del = await call(t.app, 'DELETE', '/public/delete', {
      headers,
      query: { fileIds: keep },
    });
    expect(del.body).toMatchObject({ code: 8, message: 'This share does not allow deleting' });
    const ren = await call(t.app, 'GET', '/public/rename', {
      headers,
      query: { fileId: keep, newFileName: 'x.txt' },
    });
    expect(ren.body).toMatchObject({ code: 8, message: 'This share does not allow editing' });
    expect(fs.readdirSync(disk('drop'))).toEqual(['keep.txt']);
  });

  it('uploads into an upload share with the same protocol, counted against the owner’s quota', async () => {
    const { headers } = await dropBox(['UPLOAD']);
    const before = await used();
    const content = Buffer.alloc(3000, 7);
    const up = await publicUpload(t, headers, {
      name: 'report.bin',
      content,
      chunkSize: 1024,
      relativePath: 'in/report.bin',
      currentDirectory: '/',
    });
    expect(up.failed).toBeNull();
    expect(up.merged!.body.data!.file).toMatchObject({ name: 'report.bin', path: '/in/' });
    expect(fs.readFileSync(disk('drop', 'in', 'report.bin')).equals(content)).toBe(true);
    expect((await used()) - before).toBe(3000);

    // the visitor lists what arrived; the owner sees it in the drive
    const listing = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      headers,
    });
    expect(listing.body.data!.map((f) => f.name)).toEqual(['in', 'keep.txt']);
    const ownerList = await call<{ name: string }[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/drop/in' },
    });
    expect(ownerList.body.data!.map((f) => f.name)).toEqual(['report.bin']);
  });

  it('stops a visitor upload at the owner’s quota', async () => {
    const bob = await makeUser(t.app, admin.token, { quota: 0.000001 }); // about 1 KB
    const folder = await makeFolder(t, bob.token, '/', 'inbox');
    const share = await makeShare(t, bob.token, {
      fileId: folder,
      isPrivacy: true,
      operationPermissionList: ['UPLOAD'],
    });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    const up = await publicUpload(t, visitor(share.shareId, token), {
      name: 'big.bin',
      content: Buffer.alloc(4096, 1),
    });
    expect(up.failed?.body.code).toBe(20);
  });

  it('replaces a same-named file only with the edit permission', async () => {
    const { headers } = await dropBox(['UPLOAD']);
    const clash = await publicUpload(t, headers, {
      name: 'keep.txt',
      content: Buffer.from('over'),
    });
    expect(clash.failed?.body.code).toBe(4);
    expect(fs.readFileSync(disk('drop', 'keep.txt'), 'utf8')).toBe('keep me');
    const exist = await call<{ exist: boolean; replace: boolean }>(
      t.app,
      'POST',
      '/public/checkExist',
      {
        headers,
        body: { filenames: ['keep.txt'], currentDirectory: '/' },
      },
    );
    expect(exist.body.data).toMatchObject({ exist: true, replace: false });

    await renew();
    const edit = await dropBox(['UPLOAD', 'PUT']);
    const replaced = await publicUpload(t, edit.headers, {
      name: 'keep.txt',
      content: Buffer.from('over'),
    });
    expect(replaced.failed).toBeNull();
    expect(fs.readFileSync(disk('drop', 'keep.txt'), 'utf8')).toBe('over');
    // the replaced text is kept as a version of the same file, nothing lost
    const versions = await call<HistoryVersion[]>(t.app, 'GET', '/history/list', {
      token: admin.token,
      query: { fileId: edit.keep },
    });
    expect(versions.body.count).toBe(1);
    // it names who replaced it: a visitor without an account, through this link
    expect(versions.body.data![0]!.metadata.operator).toBe(
      `${SHARE_VISITOR_OPERATOR}${edit.share.shortId}`,
    );
    const was = await call<{ contentText: string }>(t.app, 'GET', '/history/preview/text', {
      token: admin.token,
      query: { id: versions.body.data![0]!.id },
    });
    expect(was.body.data!.contentText).toBe('keep me');
  });

  it('deletes only with the delete permission, never the shared folder itself', async () => {
    const { folder, keep, headers } = await dropBox(['DELETE']);
    const root = await call(t.app, 'DELETE', '/public/delete', {
      headers,
      query: { fileIds: folder },
    });
    expect(root.body.code).toBe(8);
    const del = await call(t.app, 'DELETE', '/public/delete', {
      headers,
      query: { fileIds: keep },
    });
    expect(del.body.code).toBe(0);
    expect(fs.existsSync(disk('drop', 'keep.txt'))).toBe(false);
    const trash = await call<{ name: string }[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { queryFileType: 'trash' },
    });
    expect(trash.body.data!.map((f) => f.name)).toEqual(['keep.txt']);
    // delete does not grant upload
    const up = await publicUpload(t, headers, { name: 'n.txt', content: Buffer.from('n') });
    expect(up.failed?.body.code).toBe(8);
  });

  it('renames with the edit permission', async () => {
    const { keep, headers } = await dropBox(['PUT']);
    const ren = await call<PublicFileView>(t.app, 'GET', '/public/rename', {
      headers,
      query: { fileId: keep, newFileName: 'kept.txt' },
    });
    expect(ren.body.data).toMatchObject({ name: 'kept.txt', path: '/' });
    const escape = await call(t.app, 'GET', '/public/rename', {
      headers,
      query: { fileId: keep, newFileName: '../kept.txt' },
    });
    expect(escape.body.code).toBe(10);
  });

  it('gives public shares and file shares no visitor operations', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'open');
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isPrivacy: false,
      operationPermissionList: ['UPLOAD', 'PUT', 'DELETE'],
    });
    expect(share.operationPermissionList).toEqual([]);
    const up = await publicUpload(t, visitor(share.shareId), {
      name: 'x.txt',
      content: Buffer.from('x'),
    });
    expect(up.failed?.body.code).toBe(8);
  });
});

describe('mounts', () => {
  async function sharedFolder(operationPermissionList: string[] = [], allowDownload = true) {
    const folder = await makeFolder(t, admin.token, '/', 'team');
    await makeFolder(t, admin.token, '/team', 'docs');
    const file = await putFile(t, owner(), '/team/docs', 'guide.md', '# guide');
    const outside = await putFile(t, owner(), '/', 'private.txt', 'mine only');
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isPrivacy: true,
      operationPermissionList,
      allowDownload,
    });
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    return { folder, file, outside, share, bob, token };
  }

  it('mounts a shared folder into the mounter’s drive: not one’s own share, not twice, not over a name', async () => {
    const { share, bob, token, file, outside } = await sharedFolder();
    const own = await call(t.app, 'PUT', '/share/mount-folder', {
      token: admin.token,
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(own.body.code).toBe(10);
    // a private share is mounted with its code (the share token)
    const noCode = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(noCode.body.code).toBe(21);
    await makeFolder(t, bob.token, '/', 'team');
    const clash = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(clash.body.code).toBe(4);
    const target = await makeFolder(t, bob.token, '/', 'shared-with-me');
    const mounted = await call<MountView>(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: target },
    });
    expect(mounted.body.data).toMatchObject({
      name: 'team',
      path: '/shared-with-me/',
      fileUsername: 'admin',
      isMount: true,
    });
    const twice = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0', name: 'again' },
    });
    expect(twice.body.code).toBe(4);

    const list = await call<MountView[]>(t.app, 'GET', '/mount/list', { token: bob.token });
    expect(list.body.data!.map((m) => m.name)).toEqual(['team']);

    // browsing the mount needs no token any more: the mount holds the share open
    const browse = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      token: bob.token,
      query: { share: share.shareId },
    });
    expect(browse.body.data!.map((f) => f.name)).toEqual(['docs']);
    expect(browse.body.props).toMatchObject({ share: { mounted: true } });

    // mounted files open through /pre-file; nothing else of the owner's does
    const bytes = await raw(t, `/pre-file/${file}/guide.md`, { 'nimbus-token': bob.token });
    expect(bytes.status).toBe(200);
    expect(bytes.body).toBe('# guide');
    const other = await raw(t, `/pre-file/${outside}/private.txt`, { 'nimbus-token': bob.token });
    expect(other.status).toBe(404);
    expect(other.body).not.toContain('mine only');

    const where = await call<{ path: string; folder: string }>(t.app, 'GET', '/mount/file_info', {
      token: bob.token,
      query: { fileId: file },
    });
    expect(where.body.data!.path).toBe('/shared-with-me/team/docs/');
    const folderId = await call<string>(t.app, 'GET', '/mount/folder/id', {
      token: bob.token,
      query: { otherFileId: share.fileId, path: '/docs' },
    });
    expect(folderId.body.data).toBe(where.body.data!.folder);
    const climb = await call(t.app, 'GET', '/mount/folder/id', {
      token: bob.token,
      query: { otherFileId: share.fileId, path: '/docs/../..' },
    });
    expect(climb.body.code).toBe(10);
  });

  it('gives mounters the share’s permissions, and cancelling the share removes the access', async () => {
    const { share, bob, token, file } = await sharedFolder(['UPLOAD'], false);
    await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0' },
    });
    const asBob = { 'nimbus-token': bob.token, shareid: share.shareId };
    const up = await publicUpload(t, asBob, { name: 'from-bob.txt', content: Buffer.from('hi') });
    expect(up.failed).toBeNull();
    expect(fs.readFileSync(disk('team', 'from-bob.txt'), 'utf8')).toBe('hi');
    const del = await call(t.app, 'DELETE', '/public/delete', {
      headers: asBob,
      query: { fileIds: file },
    });
    expect(del.body.code).toBe(8);
    // the share forbids downloads: the mount does too (viewing stays possible)
    const download = await raw(t, `/pre-file/${file}/guide.md?o=download`, {
      'nimbus-token': bob.token,
    });
    expect(download.status).toBe(403);
    expect((await raw(t, `/pre-file/${file}/guide.md`, { 'nimbus-token': bob.token })).status).toBe(
      200,
    );

    await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: share.shareId },
    });
    const list = await call<MountView[]>(t.app, 'GET', '/mount/list', { token: bob.token });
    expect(list.body.data).toEqual([]);
    const after = await raw(t, `/pre-file/${file}/guide.md`, { 'nimbus-token': bob.token });
    expect(after.status).toBe(404);
    const browse = await call(t.app, 'GET', '/public/access-share', {
      token: bob.token,
      query: { share: share.shareId },
    });
    expect(browse.status).toBe(404);
  });

  it("keeps a mount's name in its folder: nothing else takes it there", async () => {
    const { share, bob, token } = await sharedFolder();
    const bobOwner = { userId: bob.userId, username: bob.username };
    // a file of that name in the trash, restored after the mount came
    const trashed = await putFile(t, bobOwner, '/', 'team', 'old');
    await call(t.app, 'DELETE', '/delete', { token: bob.token, query: { fileIds: trashed } });
    const mounted = await call<MountView>(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0', name: 'team' },
    });
    expect(mounted.body.code, mounted.body.message).toBe(0);
    const refused = (res: { body: { code: number; message: string } }, what: string) => {
      expect(res.body.code, what).toBe(ErrorCode.EXISTS);
      expect(res.body.message, what).toContain('mounted share');
    };
    refused(
      await call(t.app, 'POST', '/new_folder', {
        token: bob.token,
        query: { filename: 'team', currentDirectory: '/' },
      }),
      'a new folder',
    );
    refused(
      await call(t.app, 'POST', '/addfile', {
        token: bob.token,
        query: { fileName: 'team', parentPath: '/' },
      }),
      'a new file',
    );
    const fileId = await putFile(t, bobOwner, '/', 'notes.txt', 'notes');
    refused(
      await call(t.app, 'GET', '/rename', {
        token: bob.token,
        query: { id: fileId, newFileName: 'team' },
      }),
      'a rename',
    );
    const upload = await uploadFile(t.app, bob.token, { name: 'team', content: Buffer.from('x') });
    refused(upload.merged!, 'an upload');
    // moving an item of that name in is refused, even with override (a mount has no trash)
    await makeFolder(t, bob.token, '/', 'box');
    const inside = await putFile(t, bobOwner, '/box', 'team', 'x');
    const moved = await call<Array<{ code: number; msg: string }>>(t.app, 'GET', '/move', {
      token: bob.token,
      query: { froms: [inside], to: '0', isOverride: 'true' },
    });
    expect(moved.body.data![0]!.code).toBe(-1);
    expect(moved.body.data![0]!.msg).toContain('mounted share');
    // a restored item whose name the mount holds gets a free name
    const restored = await call(t.app, 'POST', '/restore', {
      token: bob.token,
      query: { fileIds: trashed },
    });
    expect(restored.body.code, restored.body.message).toBe(0);
    const names = (
      await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
        token: bob.token,
        query: { currentDirectory: '/', pageSize: 50 },
      })
    ).body.data!.map((i) => i.name);
    expect(names).toContain('team(1)');
    expect(names.filter((n) => n === 'team')).toHaveLength(1);
    expect(fs.existsSync(path.join(t.dataDir, 'files', 'bob', 'box', 'team'))).toBe(true);
  });

  it('lists a mount among the folders of the folder it was placed in, sorted and paged by the database', async () => {
    const { share, bob, token } = await sharedFolder();
    const bobOwner = { userId: bob.userId, username: bob.username };
    const target = await makeFolder(t, bob.token, '/', 'work');
    for (const name of ['alpha', 'tango', 'zulu']) await makeFolder(t, bob.token, '/work', name);
    await putFile(t, bobOwner, '/work', 'a-notes.txt', 'notes');
    await putFile(t, bobOwner, '/work', 'big.bin', Buffer.alloc(5000));
    const mounted = await call<MountView>(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: target, name: 'team' },
    });
    expect(mounted.body.code, mounted.body.message).toBe(0);

    type Entry = { id: string; name: string; isFolder: boolean; mount?: Record<string, string> };
    const list = async (query: Record<string, string | number>, who = bob.token) => {
      const res = await call<Entry[]>(t.app, 'GET', '/list', {
        token: who,
        query: { currentDirectory: '/work', ...query },
      });
      expect(res.body.code, res.body.message).toBe(0);
      return {
        names: res.body.data!.map((i) => i.name),
        data: res.body.data!,
        count: res.body.count,
      };
    };
    const all = await list({ pageSize: 50 });
    expect(all.names).toEqual(['alpha', 'tango', 'team', 'zulu', 'a-notes.txt', 'big.bin']);
    expect(all.count).toBe(6);
    const entry = all.data.find((i) => i.name === 'team')!;
    expect(entry).toMatchObject({
      id: mounted.body.data!.mountId,
      isFolder: true,
      path: '/work/',
      mount: {
        mountId: mounted.body.data!.mountId,
        shareId: share.shareId,
        fileId: share.fileId,
        fileUsername: 'admin',
      },
    });

    // pages of two in every order join up to the whole listing, the mount among the folders
    for (const sortableProp of ['name', 'size', 'updateDate', 'uploadDate']) {
      for (const order of ['ascending', 'descending']) {
        const whole = await list({ sortableProp, order, pageSize: 50 });
        const paged: string[] = [];
        for (let pageIndex = 1; pageIndex <= 3; pageIndex++) {
          const page = await list({ sortableProp, order, pageIndex, pageSize: 2 });
          expect(page.count).toBe(6);
          paged.push(...page.names);
        }
        expect(paged, `${sortableProp} ${order}`).toEqual(whole.names);
        expect(new Set(whole.names.slice(0, 4))).toEqual(
          new Set(['alpha', 'team', 'tango', 'zulu']),
        );
      }
    }
    expect((await list({ order: 'descending', pageSize: 50 })).names).toEqual([
      'zulu',
      'team',
      'tango',
      'alpha',
      'big.bin',
      'a-notes.txt',
    ]);
    // the folders alone, and the second page where folders end and files begin
    expect((await list({ isFolder: 'true', pageSize: 50 })).count).toBe(4);
    expect((await list({ pageIndex: 2, pageSize: 3 })).names).toEqual([
      'zulu',
      'a-notes.txt',
      'big.bin',
    ]);

    // only where it was placed, and only for the mounter
    const root = await call<Entry[]>(t.app, 'GET', '/list', {
      token: bob.token,
      query: { currentDirectory: '/' },
    });
    expect(root.body.data!.map((i) => i.name)).toEqual(['work']);
    const other = await makeUser(t.app, admin.token, { username: 'carol' });
    await makeFolder(t, other.token, '/', 'work');
    expect((await list({}, other.token)).names).toEqual([]);

    // the shared folder in the owner's trash: the mount is gone from the listing and the count
    const trash = await call(t.app, 'DELETE', '/delete', {
      token: admin.token,
      query: { fileIds: share.fileId },
    });
    expect(trash.body.code).toBe(0);
    const hidden = await list({ pageSize: 50 });
    expect(hidden.names).not.toContain('team');
    expect(hidden.count).toBe(5);
    await call(t.app, 'POST', '/restore', { token: admin.token, query: { fileIds: share.fileId } });
    expect((await list({ pageSize: 50 })).names).toContain('team');

    // removing the mount (or cancelling the share) takes it out
    await call(t.app, 'DELETE', '/mount/remove', {
      token: bob.token,
      query: { mountId: mounted.body.data!.mountId },
    });
    const after = await list({ pageSize: 50 });
    expect(after.names).toEqual(['alpha', 'tango', 'zulu', 'a-notes.txt', 'big.bin']);
    expect(after.count).toBe(5);
  });

  it('shows signed-in visitors whether they can mount', async () => {
    const { share, bob, token } = await sharedFolder();
    const facts = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      token: bob.token,
      headers: { 'share-token': token },
      query: { share: share.shortId },
    });
    expect((facts.body.props as { share: ShareFacts }).share).toMatchObject({
      canMount: true,
      mounted: false,
    });
    const mine = await call(t.app, 'GET', '/public/access-share', {
      token: admin.token,
      query: { share: share.shortId },
    });
    expect((mine.body.props as { share: ShareFacts }).share).toMatchObject({ canMount: false });
  });
});
