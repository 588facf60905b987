import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, makeUser, useAdminApp } from '../harness.ts';
import { makeFolder, makeShare, unlock, visitor } from '../share-fixtures.ts';
import { chunkPlan, multipartBody, sendChunk } from '../upload-client.ts';

// A share visitor's uploads reserve bounded space (per share and address: a count and a size,
// and visitors of a share together at most half of the owner's free space); their reservations
// lapse after an hour without a chunk; and the owner lists and cancels uploads under way.

let bob: { token: string; userId: string; username: string };
let headers: Record<string, string>;
let shareId: string;
const GiB = 1024 ** 3;
const uploadsLeft = () => fs.readdirSync(path.join(t.dataDir, 'uploads'));
const spaceLeft = () => t.app.services.files.spaceLeft(bob.userId);

interface SessionView {
  id: string;
  filename: string;
  targetPath: string;
  totalSize: number;
  receivedBytes: number;
  state: string;
  startedBy: 'owner' | 'visitor';
  share?: { id: string; name: string | null };
  visitorAddress?: string;
  createdAt: string;
  lastActivity: string;
}

async function dropBox(quotaGb: number) {
  bob = await makeUser(t.app, admin.token, { username: 'bob', quota: quotaGb });
  const folder = await makeFolder(t, bob.token, '/', 'inbox');
  const share = await makeShare(t, bob.token, {
    fileId: folder,
    isPrivacy: true,
    operationPermissionList: ['UPLOAD'],
  });
  const token = await unlock(t, share.shortId, share.extractionCode!);
  headers = visitor(share.shareId, token);
  shareId = share.shareId;
}

/** A visitor's first chunk, a few bytes, of a file that announces `totalSize` bytes. */
async function visitorClaims(name: string, totalSize: number, address = '127.0.0.1') {
  const chunkSize = Math.ceil(totalSize / 1_000_000);
  const fields = {
    chunkSize,
    totalSize,
    totalChunks: Math.max(1, Math.floor(totalSize / chunkSize)),
    identifier: 'a'.repeat(64),
    filename: name,
    relativePath: name,
    currentDirectory: '/',
    chunkNumber: 1,
    currentChunkSize: chunkSize,
  };
  const { payload, contentType } = multipartBody(fields, Buffer.alloc(chunkSize, 1), name);
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/public/upload',
    payload,
    remoteAddress: address,
    headers: { ...headers, 'content-type': contentType },
  });
  return { status: res.statusCode, body: res.json<{ code: number; message: string }>() };
}

const { t, admin } = useAdminApp();

describe("a share visitor's reservations are bounded", () => {
  it('one byte cannot reserve the owner’s whole free space', async () => {
    await dropBox(100);
    const before = await spaceLeft();
    const huge = await visitorClaims('huge.bin', 30 * GiB);
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe(20);
    expect(await spaceLeft()).toBe(before);
    // within the visitor's limit it is accepted
    const fine = await visitorClaims('fine.bin', 5 * GiB);
    expect(fine.body.code, fine.body.message).toBe(0);
  });

  it('visitors of a share together reserve at most half of the owner’s free space', async () => {
    await dropBox(10);
    const first = await visitorClaims('a.bin', 4 * GiB, '10.0.0.1');
    expect(first.body.code, first.body.message).toBe(0);
    const second = await visitorClaims('b.bin', 2 * GiB, '10.0.0.2');
    expect(second.body.code).toBe(20);
    expect(second.body.message).toMatch(/free space/);
    // the owner's own upload still finds the rest
    const mine = chunkPlan({ name: 'mine.bin', content: randomBytes(10), chunkSize: 10 });
    const own = await call(t.app, 'GET', '/upload', {
      token: bob.token,
      query: { ...mine.base, chunkNumber: 1, currentChunkSize: 10 },
    });
    expect(own.body.code).toBe(0);
    expect(await spaceLeft()).toBeGreaterThan(5 * GiB);
  });

  it('one visitor has at most 10 uploads under way in a share; another address has its own', async () => {
    await dropBox(100);
    for (let i = 0; i < 10; i++) {
      const r = await visitorClaims(`f${i}.bin`, 100);
      expect(r.body.code, r.body.message).toBe(0);
    }
    const eleventh = await visitorClaims('f10.bin', 100);
    expect(eleventh.status).toBe(429);
    expect(eleventh.body.code).toBe(22);
    const elsewhere = await visitorClaims('f10.bin', 100, '10.9.9.9');
    expect(elsewhere.body.code).toBe(0);
  });

  it('a visitor’s reservation lapses after an hour without a chunk; the owner’s after three days', async () => {
    await dropBox(100);
    await visitorClaims('idle.bin', 5 * GiB);
    const mine = chunkPlan({ name: 'mine.bin', content: randomBytes(2000), chunkSize: 1000 });
    const own = await sendChunk(
      t.app,
      bob.token,
      { ...mine.base, chunkNumber: 1, currentChunkSize: 1000 },
      mine.chunks[0]!.bytes,
    );
    expect(own.body.code).toBe(0);
    const { files, uploads } = t.app.services;
    const now = Date.now();
    const quota = 100 * GiB;
    expect(await files.spaceLeft(bob.userId, { now })).toBe(quota - 5 * GiB - 2000);
    expect(await files.spaceLeft(bob.userId, { now: now + 3600_000 + 1000 })).toBe(quota - 2000);
    expect(await uploads.cleanUp(now + 3600_000 + 1000)).toBe(1);
    expect(uploadsLeft()).toHaveLength(1);
  });
});

describe('the owner sees and cancels uploads under way', () => {
  it('lists own and visitors’ uploads with their progress, and cancelling frees their space', async () => {
    await dropBox(100);
    const content = randomBytes(3000);
    const theirs = chunkPlan({ name: 'from-visitor.bin', content, chunkSize: 1000 });
    const fields = { ...theirs.base, chunkNumber: 1, currentChunkSize: 1000 };
    const { payload, contentType } = multipartBody(
      fields,
      theirs.chunks[0]!.bytes,
      'from-visitor.bin',
    );
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/public/upload',
      payload,
      remoteAddress: '10.1.2.3',
      headers: { ...headers, 'content-type': contentType },
    });
    expect(sent.json().code).toBe(0);
    const mine = chunkPlan({ name: 'mine.bin', content: randomBytes(2500), chunkSize: 1000 });
    for (const c of mine.chunks)
      await sendChunk(
        t.app,
        bob.token,
        { ...mine.base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
    const list = await call<SessionView[]>(t.app, 'GET', '/upload/sessions', { token: bob.token });
    expect(list.status).toBe(200);
    expect(list.body.count).toBe(2);
    const byName = new Map(list.body.data!.map((s) => [s.filename, s]));
    expect(byName.get('mine.bin')).toMatchObject({
      targetPath: '/',
      totalSize: 2500,
      receivedBytes: 2500,
      state: 'uploading',
      startedBy: 'owner',
    });
    const visiting = byName.get('from-visitor.bin')!;
    expect(visiting).toMatchObject({
      targetPath: '/inbox/',
      totalSize: 3000,
      receivedBytes: 1000,
      startedBy: 'visitor',
      share: { id: shareId, name: 'inbox' },
      visitorAddress: '10.1.2.3',
    });
    expect(visiting.lastActivity).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    // nobody else sees them or cancels them
    const carol = await makeUser(t.app, admin.token, { username: 'carol' });
    const theirList = await call<SessionView[]>(t.app, 'GET', '/upload/sessions', {
      token: carol.token,
    });
    expect(theirList.body.data).toEqual([]);
    const notTheirs = await call(t.app, 'DELETE', `/upload/sessions/${visiting.id}`, {
      token: carol.token,
    });
    expect(notTheirs.status).toBe(404);
    const before = await spaceLeft();
    const cancelled = await call(t.app, 'DELETE', `/upload/sessions/${visiting.id}`, {
      token: bob.token,
    });
    expect(cancelled.body.code, cancelled.body.message).toBe(0);
    expect(await spaceLeft()).toBe(before + 3000);
    expect(uploadsLeft()).toHaveLength(1);
    const after = await call<SessionView[]>(t.app, 'GET', '/upload/sessions', { token: bob.token });
    expect(after.body.data!.map((s) => s.filename)).toEqual(['mine.bin']);
    // the visitor starts again from nothing
    const test = await call<{ resume: number[] }>(t.app, 'GET', '/public/upload', {
      headers,
      query: fields,
    });
    expect(test.body.data!.resume).toEqual([]);
    const again = await call(t.app, 'DELETE', `/upload/sessions/${visiting.id}`, {
      token: bob.token,
    });
    expect(again.status).toBe(404);
  });
});
