import { describe, expect, it } from 'vitest';
import { ErrorCode, type MountView, type ShareFacts, type ShareView } from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, raw, unlock, visitor } from '../share-fixtures.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

describe('share expiry dates', () => {
  it('refuses impossible dates with code 2 and takes every real form', async () => {
    const fileId = await putFile(t, owner(), '/', 'a.txt', 'a');
    for (const expireDate of [
      '2999-02-30 00:00:00',
      '2999-02-29 12:00:00',
      '2999-01-01 25:61:61',
      '2999-01-01 24:00:00',
      '2999-01-01 23:60:00',
      '2999-01-01 23:59:60',
      '2999-13-01 00:00:00',
      '2999-00-10 00:00:00',
      '2999-04-31',
      '2999-12-31T23:59:00+25:00',
      '+275760-09-13T00:00:00Z',
      'Dec 25 2999',
      'soon',
      '',
      ' ',
      8640000000000001,
      -8640000000000001,
      8640000000000000,
      new Date(10000, 0, 1).getTime(), // beyond yyyy
    ]) {
      if (expireDate === '') continue; // empty is "forever"
      const res = await call(t.app, 'POST', '/share/generate', {
        token: admin.token,
        body: { fileId, expireDate },
      });
      expect(res.status, String(expireDate)).toBe(422);
      expect(res.body.code, String(expireDate)).toBe(ErrorCode.BAD_DATE);
    }
    const huge = await call(t.app, 'POST', '/share/generate', {
      token: admin.token,
      body: { fileId, expireDate: 1e300 },
    });
    expect(huge.status).toBe(422);

    const accepted: Array<[string | number, string]> = [
      ['2999-12-31 23:59:00', '2999-12-31 23:59:00'],
      ['2999-12-31 23:59', '2999-12-31 23:59:00'],
      ['2999-12-31T23:59:59', '2999-12-31 23:59:59'],
      ['2996-02-29 08:00:00', '2996-02-29 08:00:00'],
      ['2999-06-30', '2999-06-30 00:00:00'],
      [new Date(2999, 5, 1, 10, 20, 30).getTime(), '2999-06-01 10:20:30'],
    ];
    for (const [expireDate, shown] of accepted) {
      const share = await makeShare(t, admin.token, { fileId, expireDate });
      expect(share.expireDate, String(expireDate)).toBe(shown);
    }
    const zoned = await makeShare(t, admin.token, {
      fileId,
      expireDate: '2999-12-31T20:00:00.500Z',
    });
    expect(zoned.expiresAt).toBe(Date.UTC(2999, 11, 31, 20, 0, 0, 500));
    // nothing stored is shown as NaN
    const list = await call<ShareView[]>(t.app, 'GET', '/share/list', { token: admin.token });
    for (const s of list.body.data!) expect(s.expireDate ?? '').not.toMatch(/NaN/);
  });
});

describe('downloads not allowed', () => {
  async function noDownloads() {
    const folder = await makeFolder(t, admin.token, '/', 'box');
    const put = (name: string, bytes: Buffer | string) => putFile(t, owner(), '/box', name, bytes);
    const ids = {
      png: await put('pic.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])),
      mp4: await put('clip.mp4', Buffer.from([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70])),
      pdf: await put('paper.pdf', '%PDF-1.4 …'),
      txt: await put('note.txt', 'a note'),
      big: await put('big.log', 'x'.repeat(2 * 1024 * 1024 + 10)),
      zip: await put('all.zip', Buffer.from([0x50, 0x4b, 3, 4, 0, 0])),
      docx: await put('report.docx', Buffer.from([0x50, 0x4b, 3, 4, 1, 1])),
      html: await put('page.html', '<html><script>1</script></html>'),
      exe: await put('tool.exe', Buffer.from([0x4d, 0x5a, 0, 0])),
    };
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isPrivacy: true,
      allowDownload: false,
    });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    return { folder, ids, share, token };
  }

  it('previews only previewable types, inline, on every byte route; the rest is refused', async () => {
    const { ids, share, token } = await noDownloads();
    const q = `shareId=${share.shareId}&share-token=${token}`;
    const routes = (id: string, name: string) => [
      `/public/s/preview/${name}?${q}&fileId=${id}`,
      `/share-file/${id}/${token}/${name}`,
      `/share-file/${id}/${name}?${q}`,
    ];
    const shown: Array<[string, string]> = [
      [ids.png, 'pic.png'],
      [ids.mp4, 'clip.mp4'],
      [ids.pdf, 'paper.pdf'],
      [ids.txt, 'note.txt'],
    ];
    for (const [id, name] of shown)
      for (const url of routes(id, name)) {
        const res = await raw(t, url);
        expect(res.status, url).toBe(200);
        // a PDF is read by the bundled viewer, never shown by the browser's own
        expect(String(res.headers['content-disposition']), url).toMatch(
          name === 'paper.pdf' ? /^attachment;/ : /^inline;/,
        );
        // asking for a download is refused, never answered with an attachment
        const asked = await raw(t, `${url}${url.includes('?') ? '&' : '?'}o=download`);
        expect(asked.status, `${url} o=download`).toBe(403);
        expect(asked.json?.code).toBe(ErrorCode.PERMISSION_DENIED);
      }
    const refused: Array<[string, string]> = [
      [ids.zip, 'all.zip'],
      [ids.docx, 'report.docx'],
      [ids.html, 'page.html'],
      [ids.exe, 'tool.exe'],
      [ids.big, 'big.log'],
    ];
    for (const [id, name] of refused)
      for (const url of routes(id, name)) {
        const res = await raw(t, url);
        expect(res.status, url).toBe(403);
        expect(res.json?.code, url).toBe(ErrorCode.PERMISSION_DENIED);
        expect(res.body).not.toContain('script');
      }
    // a long text previews its beginning, not more
    const head = await raw(t, `/public/s/preview/big.log?${q}&fileId=${ids.big}`, {
      range: 'bytes=0-1023',
    });
    expect(head.status).toBe(206);
    expect(head.body).toBe('x'.repeat(1024));
    expect(String(head.headers['content-disposition'])).toMatch(/^inline;/);
    const tail = await raw(t, `/public/s/preview/big.log?${q}&fileId=${ids.big}`, {
      range: `bytes=${2 * 1024 * 1024}-`,
    });
    expect(tail.status).toBe(403);
    // a thumbnail is a preview too (images.test.ts); this broken picture has none
    const thumb = await raw(t, `/public/s/view/thumbnail?${q}&id=${ids.png}`);
    expect([thumb.status, thumb.json?.code]).toEqual([404, ErrorCode.FILE_NOT_FOUND]);
    // the text preview shows text only
    const text = await call<{ contentText: string }>(t.app, 'GET', '/public/s/preview/text', {
      headers: visitor(share.shareId, token),
      query: { fileId: ids.txt },
    });
    expect(text.body.data!.contentText).toBe('a note');
    for (const id of [ids.zip, ids.docx, ids.exe]) {
      const binary = await call(t.app, 'GET', '/public/s/preview/text', {
        headers: visitor(share.shareId, token),
        query: { fileId: id },
      });
      expect(binary.status).toBe(403);
      expect(binary.body.code).toBe(ErrorCode.PERMISSION_DENIED);
    }
  });

  it('holds for a mounter reading through /pre-file as well', async () => {
    const { ids, share, token } = await noDownloads();
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const mounted = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(mounted.body.code, mounted.body.message).toBe(0);
    const asBob = { 'nimbus-token': bob.token };
    expect((await raw(t, `/pre-file/${ids.png}/pic.png`, asBob)).status).toBe(200);
    expect((await raw(t, `/pre-file/${ids.txt}/note.txt`, asBob)).status).toBe(200);
    for (const [id, name] of [
      [ids.zip, 'all.zip'],
      [ids.docx, 'report.docx'],
      [ids.big, 'big.log'],
    ] as const) {
      const res = await raw(t, `/pre-file/${id}/${name}`, asBob);
      expect(res.status, name).toBe(403);
      expect(res.json?.code).toBe(ErrorCode.PERMISSION_DENIED);
    }
    // the owner's own files are theirs to download
    const own = await raw(t, `/pre-file/${ids.zip}/all.zip`, { 'nimbus-token': admin.token });
    expect(own.status).toBe(200);
  });

  it('serves everything when downloads are allowed', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'open');
    const zip = await putFile(t, owner(), '/open', 'all.zip', Buffer.from([0x50, 0x4b, 3, 4]));
    const share = await makeShare(t, admin.token, { fileId: folder });
    const res = await raw(t, `/public/s/preview/all.zip?shareId=${share.shareId}&fileId=${zip}`);
    expect(res.status).toBe(200);
    expect(String(res.headers['content-disposition'])).toMatch(/^attachment;/);
  });
});

describe('mounts follow the share code', () => {
  async function mounted() {
    const folder = await makeFolder(t, admin.token, '/', 'team');
    const file = await putFile(t, owner(), '/team', 'plan.txt', 'the plan');
    const share = await makeShare(t, admin.token, { fileId: folder, isPrivacy: true });
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    const res = await call<MountView>(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    return { folder, file, share, bob };
  }

  const mountsOf = async (token: string) =>
    (await call<MountView[]>(t.app, 'GET', '/mount/list', { token })).body.data!;

  async function expectGone(
    bob: { token: string },
    share: ShareView,
    folder: string,
    file: string,
  ) {
    expect(await mountsOf(bob.token)).toEqual([]);
    const bytes = await raw(t, `/pre-file/${file}/plan.txt`, { 'nimbus-token': bob.token });
    expect(bytes.status).toBe(404);
    expect(bytes.body).not.toContain('the plan');
    // asked for the code, like any visitor
    const open = await call<ShareFacts>(t.app, 'GET', '/public/access-share', {
      token: bob.token,
      query: { share: share.shareId },
    });
    expect(open.body.data).toMatchObject({ needCode: true });
    const listing = await call(t.app, 'GET', '/public/access-share/open', {
      token: bob.token,
      query: { share: share.shareId },
    });
    expect(listing.body.code).toBe(ErrorCode.LOCKED);
    // and cannot mint a token for the new code
    const minted = await call(t.app, 'GET', '/share/generate/share-token', {
      token: bob.token,
      query: { fileId: folder },
    });
    expect(minted.body.code).not.toBe(0);
    const listed = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: bob.token,
    });
    expect(listed.body.data!.map((i) => i.name)).not.toContain('team');
  }

  it('keeps mounts while the code stays and drops them when it changes', async () => {
    const { folder, file, share, bob } = await mounted();
    // other settings change, the code stays: the mount stays
    await makeShare(t, admin.token, { fileId: folder, isPrivacy: true, allowDownload: false });
    expect((await mountsOf(bob.token)).map((m) => m.name)).toEqual(['team']);
    // public for a while: still there (anyone may read it)
    await makeShare(t, admin.token, { fileId: folder, isPrivacy: false });
    expect((await mountsOf(bob.token)).map((m) => m.name)).toEqual(['team']);
    // private again, with a new code: gone
    const again = await makeShare(t, admin.token, { fileId: folder, isPrivacy: true });
    expect(again.extractionCode).not.toBe(share.extractionCode);
    await expectGone(bob, share, folder, file);
  });

  it('drops the mounts of a public share that becomes private', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'team');
    const file = await putFile(t, owner(), '/team', 'plan.txt', 'the plan');
    const share = await makeShare(t, admin.token, { fileId: folder });
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const res = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      body: { shareId: share.shareId, fileId: '0' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    await makeShare(t, admin.token, { fileId: folder, isPrivacy: true });
    await expectGone(bob, share, folder, file);
  });

  it('drops the mounts of shares inside a folder whose code changes', async () => {
    const outer = await makeFolder(t, admin.token, '/', 'all');
    const inner = await makeFolder(t, admin.token, '/all', 'team');
    const file = await putFile(t, owner(), '/all/team', 'plan.txt', 'the plan');
    const outerShare = await makeShare(t, admin.token, { fileId: outer, isPrivacy: true });
    const innerShare = await makeShare(t, admin.token, { fileId: inner });
    expect(innerShare.subShare).toBe(true);
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const token = await unlock(t, innerShare.shortId, outerShare.extractionCode!);
    const res = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      headers: { 'share-token': token },
      body: { shareId: innerShare.shareId, fileId: '0' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    await makeShare(t, admin.token, { fileId: outer, isPrivacy: false });
    expect((await mountsOf(bob.token)).length).toBe(1);
    await makeShare(t, admin.token, { fileId: outer, isPrivacy: true });
    await expectGone(bob, innerShare, inner, file);
  });

  it('drops the mounts of an inner share whose own code applies once the folder share is cancelled', async () => {
    const outer = await makeFolder(t, admin.token, '/', 'all');
    const inner = await makeFolder(t, admin.token, '/all', 'team');
    const file = await putFile(t, owner(), '/all/team', 'plan.txt', 'the plan');
    // the inner share stands alone first, privately, then the folder around it is shared
    await makeShare(t, admin.token, { fileId: inner, isPrivacy: true });
    const outerShare = await makeShare(t, admin.token, { fileId: outer, isPrivacy: false });
    const innerShare = (
      await call<ShareView>(t.app, 'GET', '/get/share/by/fileId', {
        token: admin.token,
        query: { fileId: inner },
      })
    ).body.data!;
    expect(innerShare).toMatchObject({ subShare: true, isPrivacy: false });
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const res = await call(t.app, 'PUT', '/share/mount-folder', {
      token: bob.token,
      body: { shareId: innerShare.shareId, fileId: '0' },
    });
    expect(res.body.code, res.body.message).toBe(0);
    await call(t.app, 'DELETE', '/share/cancel', {
      token: admin.token,
      query: { shareId: outerShare.shareId },
    });
    await expectGone(bob, innerShare, inner, file);
  });
});

describe('expiry dates stored before the check', () => {
  it('are brought into the range a date can show', async () => {
    const { up } = await import('../../src/db/migrations/010-share-hardening.ts');
    const far = await makeShare(t, admin.token, {
      fileId: await putFile(t, owner(), '/', 'far.txt', 'f'),
    });
    const early = await makeShare(t, admin.token, {
      fileId: await putFile(t, owner(), '/', 'early.txt', 'e'),
    });
    const db = t.database.db;
    for (const [id, expiresAt] of [
      [far.shareId, 8640000000000001],
      [early.shareId, -8640000000000001],
    ] as const)
      await db.updateTable('share').set({ expiresAt }).where('id', '=', id).execute();
    await up(db as unknown as Parameters<typeof up>[0]);
    const list = await call<ShareView[]>(t.app, 'GET', '/share/list', { token: admin.token });
    const byId = new Map(list.body.data!.map((s) => [s.shareId, s]));
    expect(byId.get(far.shareId)).toMatchObject({
      expireDate: '9999-12-31 23:59:59',
      expired: false,
    });
    expect(byId.get(early.shareId)!.expireDate).toMatch(/^19(69|70)-/);
    expect(byId.get(early.shareId)!.expired).toBe(true);
  });
});
