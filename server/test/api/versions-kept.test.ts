import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { beforeEach, describe, expect, it } from 'vitest';
import type { HistoryVersion, SavedContent } from '@nimbus/contract';
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, publicUpload, unlock, visitor } from '../share-fixtures.ts';
import { uploadFile } from '../upload-client.ts';

// A content a person put as a whole (an upload, a WebDAV PUT, a copy or move over a file, a save,
// a restore) is never lost: it stays a version of the file or goes to the trash. These tests run
// with the server's own settings, nothing shortened or switched off.

let base: string;
const owner = () => ({ userId: admin.userId, username: ADMIN.username });
const disk = (...names: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...names);
const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const { t, admin } = useAdminApp();
beforeEach(async () => {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});

const upload = async (name: string, content: string, currentDirectory = '/') => {
  const done = await uploadFile(t.app, admin.token, {
    name,
    content: Buffer.from(content),
    currentDirectory,
  });
  const answer = done.merged ?? done.test;
  expect(answer?.body.code, answer?.body.message).toBe(0);
  return done;
};

const dav = (method: string, at: string, options: { body?: string; headers?: object } = {}) =>
  fetch(`${base}/webdav${at}`, {
    method,
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
      ...options.headers,
    },
    body: options.body,
  });

const fileId = async (folder: string, name: string) => {
  const listing = await call<{ id: string; name: string }[]>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { currentDirectory: folder },
  });
  const row = listing.body.data!.find((f) => f.name === name);
  expect(row, `${folder} holds ${name}`).toBeDefined();
  return row!.id;
};

/** The contents of every version of a file, newest first. */
async function versionTexts(id: string): Promise<string[]> {
  const list = await call<HistoryVersion[]>(t.app, 'GET', '/history/list', {
    token: admin.token,
    query: { fileId: id, pageSize: 100 },
  });
  expect(list.body.code, list.body.message).toBe(0);
  const texts: string[] = [];
  for (const v of list.body.data!) {
    const raw = await t.app.inject({
      method: 'GET',
      url: `/api/history/preview/file?id=${v.id}&fileId=${id}`,
      headers: { 'nimbus-token': admin.token },
    });
    expect(raw.statusCode).toBe(200);
    texts.push(raw.body);
  }
  return texts;
}

/** The contents of the trash's items named `name`. */
async function trashed(name: string): Promise<string[]> {
  const listing = await call<{ id: string; name: string }[]>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { queryFileType: 'trash', pageSize: 100 },
  });
  const { blobs } = t.app.services;
  const rows = listing.body.data!.filter((f) => f.name === name);
  return Promise.all(
    rows.map(async (r) =>
      (await buffer(blobs.read(blobs.trashed(ADMIN.username, r.id)))).toString('utf8'),
    ),
  );
}

describe('replacing a file keeps what it held', () => {
  it('keeps every upload of seq.txt: A, B and C one after the other', async () => {
    await upload('seq.txt', 'A');
    const id = await fileId('/', 'seq.txt');
    await upload('seq.txt', 'B');
    await upload('seq.txt', 'C');
    expect(fs.readFileSync(disk('seq.txt'), 'utf8')).toBe('C');
    expect(await fileId('/', 'seq.txt')).toBe(id);
    expect(await versionTexts(id)).toEqual(['B', 'A']);
  });

  it('keeps each of 20 uploads in a row: a version for a text, the trash for other kinds', async () => {
    const contents = Array.from({ length: 20 }, (_, i) => `content ${i + 1}`);
    for (const content of contents) await upload('burst.txt', content);
    for (const content of contents) await upload('burst.bin', content);

    const id = await fileId('/', 'burst.txt');
    const kept = [fs.readFileSync(disk('burst.txt'), 'utf8'), ...(await versionTexts(id))];
    expect(kept).toEqual([...contents].reverse());

    const binaries = [fs.readFileSync(disk('burst.bin'), 'utf8'), ...(await trashed('burst.bin'))];
    expect(binaries.sort()).toEqual([...contents].sort());
  });

  it('keeps what an instant upload (bytes already in the drive) replaces', async () => {
    await putFile(t, owner(), '/', 'elsewhere.txt', 'Z');
    const id = await putFile(t, owner(), '/', 'x.txt', 'A');
    await upload('x.txt', 'B');
    const instant = await upload('x.txt', 'Z');
    expect(instant.instant).toBe(true);
    expect(fs.readFileSync(disk('x.txt'), 'utf8')).toBe('Z');
    expect(await versionTexts(id)).toEqual(['B', 'A']);
  });

  it('places an upload again over the same file after it was changed meanwhile', async () => {
    await upload('again.txt', 'A');
    const id = await fileId('/', 'again.txt');
    await upload('again.txt', 'B');
    // A once more: the upload of A finished before, but the file holds B now
    await upload('again.txt', 'A');
    expect(fs.readFileSync(disk('again.txt'), 'utf8')).toBe('A');
    expect(await versionTexts(id)).toEqual(['B', 'A']);
  });

  it('keeps every WebDAV PUT', async () => {
    for (const body of ['one', 'two', 'three'])
      expect([201, 204]).toContain((await dav('PUT', '/put.md', { body })).status);
    const id = await fileId('/', 'put.md');
    expect(fs.readFileSync(disk('put.md'), 'utf8')).toBe('three');
    expect(await versionTexts(id)).toEqual(['two', 'one']);
  });

  it('puts what a WebDAV COPY or MOVE with Overwrite: T replaces in the trash', async () => {
    await dav('PUT', '/target.txt', { body: 'first' });
    await dav('PUT', '/target.txt', { body: 'second' });
    await dav('PUT', '/source.txt', { body: 'copied' });
    const copy = await dav('COPY', '/source.txt', {
      headers: { destination: `${base}/webdav/target.txt`, overwrite: 'T' },
    });
    expect(copy.status).toBe(204);
    expect(fs.readFileSync(disk('target.txt'), 'utf8')).toBe('copied');
    expect(await trashed('target.txt')).toEqual(['second']);

    await dav('PUT', '/mover.txt', { body: 'moved' });
    const move = await dav('MOVE', '/mover.txt', {
      headers: { destination: `${base}/webdav/target.txt`, overwrite: 'T' },
    });
    expect(move.status).toBe(204);
    expect(fs.readFileSync(disk('target.txt'), 'utf8')).toBe('moved');
    expect((await trashed('target.txt')).sort()).toEqual(['copied', 'second']);
  });

  it('puts what a copy or a move over a file replaces in the trash', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'into');
    await putFile(t, owner(), '/into', 'same.txt', 'old');
    const a = await putFile(t, owner(), '/', 'same.txt', 'copied over');
    const copied = await call(t.app, 'POST', '/copy', {
      token: admin.token,
      body: { froms: [a], to: folder, isOverride: true },
    });
    expect(copied.body.code, copied.body.message).toBe(0);
    expect(fs.readFileSync(disk('into', 'same.txt'), 'utf8')).toBe('copied over');
    await dav('PUT', '/same.txt', { body: 'moved over' });
    const moved = await call(t.app, 'POST', '/move', {
      token: admin.token,
      body: { froms: [a], to: folder, isOverride: true },
    });
    expect(moved.body.code, moved.body.message).toBe(0);
    expect(fs.readFileSync(disk('into', 'same.txt'), 'utf8')).toBe('moved over');
    expect((await trashed('same.txt')).sort()).toEqual(['copied over', 'old']);
  });

  it('keeps one version per explicit save of a document, three saves in a row', async () => {
    const id = await putFile(t, owner(), '/', 'notes.md', '# 0');
    for (const contentText of ['# 1', '# 2', '# 3']) {
      const saved = await call<SavedContent>(t.app, 'POST', '/markdown/edit', {
        token: admin.token,
        body: { fileId: id, contentText },
      });
      expect(saved.body.code, saved.body.message).toBe(0);
    }
    expect(await versionTexts(id)).toEqual(['# 2', '# 1', '# 0']);
    // drafts are no versions: typing kept aside touches neither the file nor its history
    await call(t.app, 'POST', '/markdown/edit', {
      token: admin.token,
      body: { fileId: id, contentText: '# typing', draft: true },
    });
    expect(await versionTexts(id)).toEqual(['# 2', '# 1', '# 0']);
  });

  it('keeps what a restore replaces, and the restore itself when saved over', async () => {
    const id = await putFile(t, owner(), '/', 'r.txt', 'one');
    await upload('r.txt', 'two');
    const [two] = (
      await call<HistoryVersion[]>(t.app, 'GET', '/history/list', {
        token: admin.token,
        query: { fileId: id },
      })
    ).body.data!;
    const back = await call(t.app, 'PUT', '/history/recovery', {
      token: admin.token,
      query: { id: two!.id, fileId: id },
    });
    expect(back.body.code, back.body.message).toBe(0);
    await upload('r.txt', 'three');
    expect(fs.readFileSync(disk('r.txt'), 'utf8')).toBe('three');
    expect(await versionTexts(id)).toEqual(['one', 'two', 'one']);
  });

  it('keeps every upload a share visitor puts over a file', async () => {
    const folder = await makeFolder(t, admin.token, '/', 'drop');
    const keep = await putFile(t, owner(), '/drop', 'keep.txt', 'owner');
    const share = await makeShare(t, admin.token, {
      fileId: folder,
      isPrivacy: true,
      operationPermissionList: ['UPLOAD', 'PUT'],
    });
    const token = await unlock(t, share.shortId, share.extractionCode!);
    for (const text of ['visitor 1', 'visitor 2']) {
      const up = await publicUpload(t, visitor(share.shareId, token), {
        name: 'keep.txt',
        content: Buffer.from(text),
      });
      expect(up.failed).toBeNull();
    }
    expect(fs.readFileSync(disk('drop', 'keep.txt'), 'utf8')).toBe('visitor 2');
    expect(await versionTexts(keep)).toEqual(['visitor 1', 'owner']);
  });

  it('keeps what each way of replacing put, one after the other by one person', async () => {
    const id = await putFile(t, owner(), '/', 'mixed.txt', 'put');
    await upload('mixed.txt', 'uploaded');
    await dav('PUT', '/mixed.txt', { body: 'dav' });
    await call(t.app, 'POST', '/markdown/edit', {
      token: admin.token,
      body: { fileId: id, contentText: 'saved' },
    });
    await upload('mixed.txt', 'last');
    expect(await versionTexts(id)).toEqual(['saved', 'dav', 'uploaded', 'put']);
    expect(sha(fs.readFileSync(disk('mixed.txt')))).toBe(sha('last'));
  });
});
