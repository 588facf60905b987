import { describe, expect, it } from 'vitest';
import type { PublicFileView, ShareFacts, ShareView, Sharer } from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, raw, unlock, visitor } from '../share-fixtures.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

describe('sharing as an owner', () => {
  it('shares a file publicly with a generated address; one share per file, settings updated', async () => {
    const fileId = await putFile(t, owner(), '/', 'notes.txt', 'hello');
    const first = await makeShare(t, admin.token, { fileId, expireDays: 30 });
    expect(first).toMatchObject({
      fileId,
      fileName: 'notes.txt',
      isPrivacy: false,
      extractionCode: null,
      allowDownload: true,
      shareBase: true,
      subShare: false,
      operationPermissionList: [],
    });
    expect(first.shortId).toMatch(/^[A-Za-z0-9]{8}$/);
    expect(first.expiresAt! - Date.now()).toBeGreaterThan(29.9 * 86400_000);

    // sharing again changes the same share
    const again = await makeShare(t, admin.token, {
      fileId,
      isPrivacy: true,
      expireDate: null,
      allowDownload: false,
    });
    expect(again.shareId).toBe(first.shareId);
    expect(again.shortId).toBe(first.shortId);
    expect(again).toMatchObject({ isPrivacy: true, expireDate: null, allowDownload: false });
    expect(again.extractionCode).toMatch(/^[a-z2-9]{6}$/);
    // operations are for private folders only
    expect(again.operationPermissionList).toEqual([]);

    const byFile = await call<ShareView>(t.app, 'GET', '/get/share/by/fileId', {
      token: admin.token,
      query: { fileId },
    });
    expect(byFile.body.data!.shareId).toBe(first.shareId);
    const list = await call<ShareView[]>(t.app, 'GET', '/share/list', { token: admin.token });
    expect(list.body.count).toBe(1);
  });

  it('validates custom addresses: characters, reserved shapes and uniqueness', async () => {
    const a = await putFile(t, owner(), '/', 'a.txt', 'a');
    const b = await putFile(t, owner(), '/', 'b.txt', 'b');
    const ok = await makeShare(t, admin.token, { fileId: a, shortId: '季度_report-1' });
    expect(ok.shortId).toBe('季度_report-1');
    for (const shortId of [
      'a/b',
      '../x',
      'a b',
      'x?y',
      '%2e',
      '0a4f2b1c-1111-2222-3333-444455556666',
    ]) {
      const bad = await call(t.app, 'POST', '/share/generate', {
        token: admin.token,
        body: { fileId: b, shortId },
      });
      expect(bad.body.code, shortId).toBe(10);
    }
    const taken = await call(t.app, 'POST', '/share/generate', {
      token: admin.token,
      body: { fileId: b, shortId: '季度_report-1' },
    });
    expect(taken.body.code).toBe(4);
    expect(taken.body.message).toMatch(/already in use/);
    // the address opens the share
    const open = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      query: { share: '季度_report-1' },
    });
    expect(open.body.data![0]!.name).toBe('a.txt');
  });

  it('refuses expiry dates in the past and unreadable ones', async () => {
    const fileId = await putFile(t, owner(), '/', 'a.txt', 'a');
    const past = await call(t.app, 'POST', '/share/generate', {
      token: admin.token,
      body: { fileId, expireDate: '2001-01-01 00:00:00' },
    });
    expect(past.body.code).toBe(10);
    const bad = await call(t.app, 'POST', '/share/generate', {
      token: admin.token,
      body: { fileId, expireDate: 'soon' },
    });
    expect(bad.body.code).toBe(2);
    const date = await makeShare(t, admin.token, { fileId, expireDate: '2999-12-31 23:59:00' });
    expect(date.expireDate).toBe('2999-12-31 23:59:00');
  });

  it('makes shares inside a shared folder sub-shares that take its settings', async () => {
    const docs = await makeFolder(t, admin.token, '/', 'docs');
    await makeFolder(t, admin.token, '/docs', 'inner');
    const inner = await putFile(t, owner(), '/docs/inner', 'x.txt', 'x');
    // an earlier share inside the folder: sharing the folder asks first
    const early = await makeShare(t, admin.token, { fileId: inner, isPrivacy: false });
    const has = await call<boolean>(t.app, 'GET', '/share/folder-sub-share', {
      token: admin.token,
      query: { fileId: docs },
    });
    expect(has.body.data).toBe(true);

    const base = await makeShare(t, admin.token, {
      fileId: docs,
      isPrivacy: true,
      expireDays: 7,
      operationPermissionList: ['UPLOAD', 'DELETE'],
    });
    expect(base).toMatchObject({ shareBase: true, operationPermissionList: ['UPLOAD', 'DELETE'] });
    const hasSub = await call<boolean>(t.app, 'GET', '/share/has-sub-share', {
      token: admin.token,
      query: { shareIds: base.shareId },
    });
    expect(hasSub.body.data).toBe(true);

    // the earlier share now follows the folder's settings
    const now = await call<ShareView>(t.app, 'GET', '/get/share', {
      token: admin.token,
      query: { shareId: early.shareId },
    });
    expect(now.body.data).toMatchObject({
      subShare: true,
      parentShareId: base.shareId,
      isPrivacy: true,
      extractionCode: base.extractionCode,
      expiresAt: base.expiresAt,
    });

    // a new share inside takes them whatever it asks for
    const sub = await makeShare(t, admin.token, {
      fileId: await makeFolder(t, admin.token, '/docs', 'more'),
      isPrivacy: false,
      expireDate: null,
    });
    expect(sub).toMatchObject({ subShare: true, isPrivacy: true, expiresAt: base.expiresAt });

    // an unshared item inside reports the folder it would inherit from
    const plain = await putFile(t, owner(), '/docs', 'plain.txt', 'p');
    const byFile = await call<ShareView | null>(t.app, 'GET', '/get/share/by/fileId', {
      token: admin.token,
      query: { fileId: plain },
    });
    expect(byFile.body.data).toBeNull();
    expect(byFile.body.props).toMatchObject({ parent: { shareId: base.shareId } });

    // the folder's code opens the sub-share too; cancelling the folder frees the sub-share
    const token = await unlock(t, early.shortId, base.extractionCode!);
    const opened = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      query: { share: early.shortId },
      headers: visitor(early.shareId, token),
    });
    expect(opened.body.data![0]!.name).toBe('x.txt');
    await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: base.shareId },
    });
    const alone = await call<ShareView>(t.app, 'GET', '/get/share', {
      token: admin.token,
      query: { shareId: early.shareId },
    });
    expect(alone.body.data).toMatchObject({ subShare: false, isPrivacy: false });
  });

  it('lists shares with views and downloads, and cancels them', async () => {
    const fileId = await putFile(t, owner(), '/', 'song.mp3', 'la la la');
    const share = await makeShare(t, admin.token, { fileId });
    await call(t.app, 'GET', '/public/access-share', { query: { share: share.shortId } });
    await call(t.app, 'GET', '/public/access-share', { query: { share: share.shortId } });
    const dl = await raw(
      t,
      `/public/s/download/song.mp3?shareId=${share.shareId}&fileId=${fileId}`,
    );
    expect(dl.status).toBe(200);
    expect(dl.body).toBe('la la la');
    // a resumed range is the same download
    await raw(t, `/public/s/download/song.mp3?shareId=${share.shareId}&fileId=${fileId}`, {
      range: 'bytes=3-',
    });
    const list = await call<ShareView[]>(t.app, 'GET', '/share/list', { token: admin.token });
    expect(list.body.data![0]).toMatchObject({ views: 2, downloads: 1, fileName: 'song.mp3' });

    // someone else cannot cancel it
    const bob = await makeUser(t.app, admin.token);
    const theirs = await call(t.app, 'DELETE', '/share/cancel', {
      token: bob.token,
      query: { shareId: share.shareId },
    });
    expect(theirs.body.code).toBe(23);
    const cancel = await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: share.shareId },
    });
    expect(cancel.body.code).toBe(0);
    const gone = await call(t.app, 'GET', '/public/access-share', {
      query: { share: share.shortId },
    });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toMatch(/does not exist or has been cancelled/);
  });

  it('only shares what the user owns, with the share authority', async () => {
    const bob = await makeUser(t.app, admin.token);
    const fileId = await putFile(t, owner(), '/', 'mine.txt', 'm');
    const steal = await call(t.app, 'POST', '/share/generate', {
      token: bob.token,
      body: { fileId },
    });
    expect(steal.body.code).toBe(7);
    const anonymous = await call(t.app, 'POST', '/share/generate', { body: { fileId } });
    expect(anonymous.body.code).toBe(5);
  });

  it('names a wrong page field in words, on the owner’s list and a visitor’s', async () => {
    const list = await call(t.app, 'GET', '/share/list', {
      token: admin.token,
      query: { pageIndex: 'first', pageSize: 0 },
    });
    expect(list.status).toBe(422);
    expect(list.body.message).toBe('pageIndex: must be a number; pageSize: at least 1');
    const open = await call(t.app, 'GET', '/public/access-share', {
      query: { share: 'x', pageSize: 'many' },
    });
    expect(open.status).toBe(422);
    expect(open.body.message).toBe('pageSize: must be a number');
  });
});

describe('visiting a share', () => {
  it('lists a public folder with paging, opens sub-folders and tells who shared', async () => {
    const photos = await makeFolder(t, admin.token, '/', 'photos');
    const trip = await makeFolder(t, admin.token, '/photos', 'trip');
    for (let i = 0; i < 5; i++) await putFile(t, owner(), '/photos', `p${i}.jpg`, `img${i}`);
    await putFile(t, owner(), '/photos/trip', 'beach.jpg', 'sand');
    const share = await makeShare(t, admin.token, { fileId: photos });
    const page = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      query: { share: share.shortId, pageIndex: 1, pageSize: 3 },
    });
    expect(page.body.count).toBe(6);
    expect(page.body.data!.map((f) => f.name)).toEqual(['trip', 'p0.jpg', 'p1.jpg']);
    expect(page.body.data![0]!.path).toBe('/');
    expect(page.body.props).toMatchObject({ share: { needCode: false, fileName: 'photos' } });
    // nothing of the owner's own tree leaks into the views
    expect(JSON.stringify(page.body)).not.toMatch(/"userId"|"hash"|\/photos\//);

    const inside = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share/open', {
      query: { share: share.shareId, fileId: trip },
    });
    expect(inside.body.data!.map((f) => [f.name, f.path])).toEqual([['beach.jpg', '/trip/']]);
    const byPath = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share/open', {
      query: { share: share.shareId, path: '/trip' },
    });
    expect(byPath.body.count).toBe(1);

    const sharer = await call<Sharer>(t.app, 'GET', '/public/get/sharer', {
      query: { shareId: share.shareId },
    });
    expect(sharer.body.data).toMatchObject({ username: 'admin', netdiskName: 'Nimbus' });
  });

  it('opens a private share only with its code, and the token goes with the share', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'private');
    const file = await putFile(t, owner(), '/private', 'plan.md', '# plan');
    const share = await makeShare(t, admin.token, { fileId: folder, isPrivacy: true });

    const locked = await call<ShareFacts>(t.app, 'GET', '/public/access-share', {
      query: { share: share.shortId },
    });
    expect(locked.body.code).toBe(0);
    expect(locked.body.data).toMatchObject({
      needCode: true,
      isPrivacy: true,
      fileName: 'private',
      sharer: { username: 'admin' },
    });
    expect(JSON.stringify(locked.body)).not.toContain('plan.md');
    expect(JSON.stringify(locked.body)).not.toContain(share.extractionCode!);

    const wrong = await call(t.app, 'POST', '/public/valid-share-code', {
      body: { shareId: share.shortId, shareCode: 'nope12' },
    });
    expect(wrong.body.code).toBe(6);
    const token = await unlock(t, share.shortId, share.extractionCode!.toUpperCase());
    const open = await call<PublicFileView[]>(t.app, 'GET', '/public/access-share', {
      query: { share: share.shortId },
      headers: visitor(share.shareId, token),
    });
    expect(open.body.data!.map((f) => f.name)).toEqual(['plan.md']);
    const text = await call<PublicFileView>(t.app, 'GET', '/public/s/preview/text', {
      query: { shareId: share.shareId, fileId: file },
      headers: visitor(share.shareId, token),
    });
    expect(text.body.data!.contentText).toBe('# plan');

    // the token works in file URLs: query and path forms
    const inline = await raw(
      t,
      `/public/s/preview/plan.md?shareId=${share.shareId}&fileId=${file}&share-token=${token}`,
    );
    expect(inline.status).toBe(200);
    expect(inline.headers['content-disposition']).toMatch(/^inline/);
    const byPath = await raw(t, `/share-file/${file}/${token}/plan.md`);
    expect(byPath.body).toBe('# plan');

    // a new code voids the tokens of the old one
    await makeShare(t, admin.token, { fileId: folder, isPrivacy: false });
    await makeShare(t, admin.token, { fileId: folder, isPrivacy: true });
    const stale = await call(t.app, 'GET', '/public/access-share/open', {
      query: { share: share.shareId, fileId: folder },
      headers: visitor(share.shareId, token),
    });
    expect(stale.body.code).toBe(21);
  });

  it('checks allow-download before sending bytes; previews still work', async () => {
    const fileId = await putFile(t, owner(), '/', 'pic.png', 'not really a png');
    const share = await makeShare(t, admin.token, { fileId, allowDownload: false });
    const q = `shareId=${share.shareId}&fileId=${fileId}`;
    const dl = await raw(t, `/public/s/download/pic.png?${q}`);
    expect(dl.status).toBe(403);
    expect(dl.json!.message).toBe('The sharer does not allow downloads');
    const zip = await raw(t, `/public/s/packageDownload?${q.replace('fileId', 'fileIds')}`);
    expect(zip.status).toBe(403);
    const fileUrl = await raw(
      t,
      `/share-file/${fileId}/pic.png?shareId=${share.shareId}&o=download`,
    );
    expect(fileUrl.status).toBe(403);
    const preview = await raw(t, `/public/s/preview/pic.png?${q}`);
    expect(preview.status).toBe(200);
    // no picture in it: no thumbnail (images.test.ts shows a real one in such a share)
    const thumb = await raw(t, `/public/s/view/thumbnail?${q}`);
    expect(thumb.status).toBe(404);
  });

  it('zips a selection of a shared folder', async () => {
    const set = await makeFolder(t, admin.token, '/', 'set');
    const deep = await makeFolder(t, admin.token, '/set', 'deep');
    const a = await putFile(t, owner(), '/set', 'a.txt', 'A');
    await putFile(t, owner(), '/set/deep', 'b.txt', 'B');
    const share = await makeShare(t, admin.token, { fileId: set });
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/public/s/packageDownload?shareId=${share.shareId}&fileIds=${a}&fileIds=${deep}`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const body = res.rawPayload;
    expect(body.subarray(0, 4).toString('hex')).toBe('504b0304');
    expect(body.includes(Buffer.from('deep/b.txt'))).toBe(true);
    expect(body.includes(Buffer.from('a.txt'))).toBe(true);
  });
});

describe('restarts', () => {
  it('keeps shares and share tokens across a restart (the key lives in the database)', async () => {
    const fileId = await putFile(t, owner(), '/', 'kept.txt', 'still here');
    const share = await makeShare(t, admin.token, { fileId, isPrivacy: true });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    await t.restart();
    const after = await raw(t, `/share-file/${fileId}/${token}/kept.txt`);
    expect(after.status).toBe(200);
    expect(after.body).toBe('still here');
    const info = await call<PublicFileView>(t.app, 'GET', '/public/file_info', {
      query: { shareId: share.shareId, fileId },
      headers: visitor(share.shareId, token),
    });
    expect(info.body.data!.name).toBe('kept.txt');
    // and a token minted after the restart is accepted the same way
    const again = await unlock(t, share.shortId, share.extractionCode!);
    expect((await raw(t, `/share-file/${fileId}/${again}/kept.txt`)).status).toBe(200);
  });
});

describe('logs', () => {
  it('never write a share token, in the query or in a /share-file path', async () => {
    const { redactUrl } = await import('../../src/app.ts');
    expect(redactUrl('/api/share-file/f1/SECRET.TOKEN/a.txt?o=download')).toBe(
      '/api/share-file/f1/***/a.txt?o=download',
    );
    expect(redactUrl('/api/public/s/download/a.txt?shareId=s&share-token=SECRET')).not.toContain(
      'SECRET',
    );
    // the public form carries no token and stays readable
    expect(redactUrl('/api/share-file/f1/a.txt?shareId=s')).toBe(
      '/api/share-file/f1/a.txt?shareId=s',
    );
  });
});
