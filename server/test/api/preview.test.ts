import { createGzip } from 'node:zlib';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import tar from 'tar-stream';
import { describe, expect, it } from 'vitest';
import {
  ErrorCode,
  TEXT_PREVIEW_MAX_BYTES,
  type ArchiveListing,
  type PreviewConfig,
  type TextDocument,
} from '@nimbus/contract';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { zipStream } from '../../src/lib/zip.ts';
import { makeFolder, makeShare, raw, unlock, visitor } from '../share-fixtures.ts';

const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const own = (token: string) => ({ 'nimbus-token': token });

const { t, admin } = useAdminApp();

// a line of Chinese in GBK (a part of GB18030), as older Windows editors save it
const CHINESE =
  '这是一个用来测试字符集检测的中文文本文件。它包含了足够多的常用汉字，以便检测器能够做出可靠的判断。';
const GBK = Buffer.from(
  'd5e2cac7d2bbb8f6d3c3c0b4b2e2cad4d7d6b7fbbcafbcecb2e2b5c4d6d0cec4cec4b1becec4bcfea1a3' +
    'cbfcb0fcbaacc1cbd7e3b9bbb6e0b5c4b3a3d3c3babad7d6a3acd2d4b1e3bcecb2e2c6f7c4dcb9bbd7f6b3f6bfc9bfbfb5c4c5d0b6cfa1a3',
  'hex',
);

async function zipOf(entries: Record<string, string>): Promise<Buffer> {
  const mtime = new Date();
  const parts: Buffer[] = [];
  const list = Object.entries(entries).map(([name, content]) => ({
    name,
    isFolder: name.endsWith('/'),
    mtime,
    compress: true,
    open: () => Readable.from([Buffer.from(content)]),
  }));
  for await (const part of zipStream(list)) parts.push(part);
  return Buffer.concat(parts);
}

async function tgzOf(entries: Record<string, string>): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, content] of Object.entries(entries)) pack.entry({ name }, content);
  pack.finalize();
  return buffer((pack as unknown as Readable).pipe(createGzip()));
}

describe('text previews', () => {
  it('reads a GB18030 text in its charset, whole or streamed, by id and by path', async () => {
    const id = await putFile(
      t,
      owner(),
      '/',
      'notes.txt',
      Buffer.concat([GBK, Buffer.from('\n'), GBK]),
    );
    const doc = await call<TextDocument>(t.app, 'GET', '/preview/text', {
      token: admin.token,
      query: { id },
    });
    expect(doc.status).toBe(200);
    expect(doc.body.data).toMatchObject({
      id,
      name: 'notes.txt',
      path: '/',
      decoder: 'GB18030',
      contentText: `${CHINESE}\n${CHINESE}`,
      truncated: false,
    });

    const stream = await raw(t, `/preview/text/stream?id=${id}`, own(admin.token));
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(stream.headers['x-text-decoder']).toBe('GB18030');
    expect(stream.headers['x-content-type-options']).toBe('nosniff');
    expect(stream.body).toBe(`${CHINESE}\n${CHINESE}`);

    const byPath = await call<TextDocument>(t.app, 'GET', '/preview/path/text', {
      token: admin.token,
      query: { path: '/notes.txt', username: ADMIN.username },
    });
    expect(byPath.body.data?.contentText).toBe(`${CHINESE}\n${CHINESE}`);
    const streamedByPath = await raw(
      t,
      `/preview/path/text/stream?path=${encodeURIComponent('/')}&fileName=notes.txt`,
      own(admin.token),
    );
    expect(streamedByPath.body).toBe(`${CHINESE}\n${CHINESE}`);
  });

  it('answers the head of a big text and streams all of it', async () => {
    const line = 'the quick brown fox jumps over the lazy dog ✓\n';
    const big = line.repeat(Math.ceil((TEXT_PREVIEW_MAX_BYTES * 1.5) / Buffer.byteLength(line)));
    const id = await putFile(t, owner(), '/', 'big.log', big);
    const doc = await call<TextDocument>(t.app, 'GET', '/preview/text', {
      token: admin.token,
      query: { id },
    });
    expect(doc.body.data?.truncated).toBe(true);
    expect(doc.body.data?.decoder).toBe('UTF-8');
    expect(Buffer.byteLength(doc.body.data!.contentText)).toBeLessThanOrEqual(
      TEXT_PREVIEW_MAX_BYTES,
    );
    expect(big.startsWith(doc.body.data!.contentText)).toBe(true);
    const stream = await raw(t, `/preview/text/stream?id=${id}`, own(admin.token));
    expect(stream.body.length).toBe(big.length);
  });

  it('shows markup as text that runs nothing', async () => {
    const id = await putFile(t, owner(), '/', 'page.html', '<script>alert(1)</script>');
    const stream = await raw(t, `/preview/text/stream?id=${id}`, own(admin.token));
    expect(stream.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(String(stream.headers['content-security-policy'])).toMatch(/sandbox/);
    expect(stream.body).toBe('<script>alert(1)</script>');
  });

  it('never previews another user\u2019s file, by id or by path', async () => {
    const id = await putFile(t, owner(), '/', 'secret.txt', 'mine');
    const other = await makeUser(t.app, admin.token);
    for (const route of ['/preview/text', '/preview/archive']) {
      const res = await call(t.app, 'GET', route, { token: other.token, query: { id } });
      expect(res.status, route).toBe(404);
      expect(res.body.code, route).toBe(ErrorCode.FILE_NOT_FOUND);
    }
    const stream = await raw(t, `/preview/text/stream?id=${id}`, own(other.token));
    expect(stream.status).toBe(404);
    expect(stream.body).not.toContain('mine');
    const byPath = await call(t.app, 'GET', '/preview/path/text', {
      token: other.token,
      query: { path: '/secret.txt', username: ADMIN.username },
    });
    expect(byPath.status).toBe(403);
    const anonymous = await raw(t, `/preview/text/stream?id=${id}`);
    expect(anonymous.status).toBe(401);
  });
});

describe('archives', () => {
  it('lists a zip and a tar.gz without extracting them, implied folders included', async () => {
    const entries = { 'docs/': '', 'docs/a.txt': 'aaa', 'src/lib/b.ts': 'bb', 'top.md': '#' };
    const zip = await putFile(t, owner(), '/', 'bundle.zip', await zipOf(entries));
    const tgz = await putFile(t, owner(), '/', 'bundle.tar.gz', await tgzOf(entries));
    for (const [id, kind] of [
      [zip, 'zip'],
      [tgz, 'tgz'],
    ] as const) {
      const res = await call<ArchiveListing>(t.app, 'GET', '/preview/archive', {
        token: admin.token,
        query: { id },
      });
      expect(res.status, kind).toBe(200);
      expect(res.body.data?.kind).toBe(kind);
      expect(res.body.data?.truncated).toBe(false);
      expect(
        res.body.data?.entries.map((e) => [e.path, e.isFolder, e.size]),
        kind,
      ).toEqual([
        ['docs', true, 0],
        ['docs/a.txt', false, 3],
        ['src', true, 0],
        ['src/lib', true, 0],
        ['src/lib/b.ts', false, 2],
        ['top.md', false, 1],
      ]);
    }
    // nothing was extracted into the drive
    const list = await call<unknown[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/', pageIndex: 1, pageSize: 50 },
    });
    expect(list.body.data).toHaveLength(2);
  });

  it('refuses a damaged archive with its own error', async () => {
    const id = await putFile(t, owner(), '/', 'broken.zip', 'not a zip at all');
    const res = await call(t.app, 'GET', '/preview/archive', { token: admin.token, query: { id } });
    expect(res.body.code).toBe(ErrorCode.DECOMPRESS_FAILED);
  });
});

describe('shares', () => {
  it('previews text and archives for visitors, and nothing outside the share', async () => {
    await makeFolder(t, admin.token, '/', 'public');
    const inside = await putFile(t, owner(), '/public/', 'read.txt', GBK);
    const archive = await putFile(t, owner(), '/public/', 'a.zip', await zipOf({ 'x.txt': 'x' }));
    const outside = await putFile(t, owner(), '/', 'private.txt', 'private words');
    const folder = (await t.app.services.files.byPath(admin.userId, '/public')).id;
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isFolder: true,
      isPrivacy: true,
    });
    const token = await unlock(t, share.shareId, share.extractionCode!);
    const headers = visitor(share.shareId, token);
    const q = `shareId=${share.shareId}`;

    const stream = await raw(t, `/public/s/preview/text/stream?${q}&id=${inside}`, headers);
    expect(stream.status).toBe(200);
    expect(stream.body).toBe(CHINESE);
    const whole = await raw(t, `/public/s/preview/text?${q}&id=${inside}`, headers);
    expect((whole.json?.data as { contentText: string }).contentText).toBe(CHINESE);
    const listing = await raw(t, `/public/s/preview/archive?${q}&id=${archive}`, headers);
    expect((listing.json?.data as ArchiveListing).entries.map((e) => e.path)).toEqual(['x.txt']);

    for (const route of ['/public/s/preview/text/stream', '/public/s/preview/archive']) {
      const refused = await raw(t, `${route}?${q}&id=${outside}`, headers);
      expect(refused.status, route).toBeGreaterThanOrEqual(400);
      expect(refused.body, route).not.toContain('private words');
      // without the code, nothing either
      const locked = await raw(t, `${route}?${q}&id=${inside}`);
      expect(locked.status, route).toBeGreaterThanOrEqual(400);
    }
  });

  it('keeps a share without downloads to what is text', async () => {
    await makeFolder(t, admin.token, '/', 'view-only');
    const text = await putFile(t, owner(), '/view-only/', 'read.txt', 'words');
    const binary = await putFile(
      t,
      owner(),
      '/view-only/',
      'data.bin',
      Buffer.from([0, 1, 2, 0, 3]),
    );
    const folder = (await t.app.services.files.byPath(admin.userId, '/view-only')).id;
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isFolder: true,
      isPrivacy: false,
      allowDownload: false,
    });
    const headers = visitor(share.shareId);
    const q = `shareId=${share.shareId}`;
    expect((await raw(t, `/public/s/preview/text/stream?${q}&id=${text}`, headers)).body).toBe(
      'words',
    );
    const refused = await raw(t, `/public/s/preview/text/stream?${q}&id=${binary}`, headers);
    expect(refused.status).toBeGreaterThanOrEqual(400);
  });
});

describe('the Preview Config', () => {
  it('is the admin\u2019s, delivered in user info, and frames only site paths or http(s) addresses', async () => {
    const start = await call<PreviewConfig>(t.app, 'GET', '/cloud/setting/preview/config', {
      token: admin.token,
    });
    expect(JSON.parse(start.body.data!.iframe)).toHaveProperty('pdf');

    const iframe = `{
      // JSON5: comments and trailing commas
      "pdf,ofd": { "My viewer": "/viewer.html?file=$e_url", },
      txt: { "External": "https://viewer.example/?u=$e_url" },
    }`;
    const saved = await call<PreviewConfig>(t.app, 'PUT', '/cloud/setting/preview/config', {
      token: admin.token,
      body: { iframe },
    });
    expect(saved.body.code).toBe(0);
    const info = await call<{ iframe: string }>(t.app, 'GET', '/user/info', { token: admin.token });
    expect(info.body.data?.iframe).toBe(iframe);

    for (const address of ['javascript:alert(1)', '//evil.example/x', 'data:text/html,x']) {
      const bad = await call(t.app, 'PUT', '/cloud/setting/preview/config', {
        token: admin.token,
        body: { iframe: JSON.stringify({ pdf: { x: address } }) },
      });
      expect(bad.body.code, address).toBe(ErrorCode.BAD_PARAMETER);
    }
    const notJson = await call(t.app, 'PUT', '/cloud/setting/preview/config', {
      token: admin.token,
      body: { iframe: '{oops' },
    });
    expect(notJson.body.code).toBe(ErrorCode.BAD_PARAMETER);

    const user = await makeUser(t.app, admin.token);
    const refused = await call(t.app, 'PUT', '/cloud/setting/preview/config', {
      token: user.token,
      body: { iframe: '{}' },
    });
    expect(refused.status).toBe(403);
  });
});
