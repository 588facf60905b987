import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { call, makeUser, putFile, useAdminApp } from '../harness.ts';
import { chunkPlan, sendChunk, uploadFile } from '../upload-client.ts';

// The quota counts files, the space reserved by uploads under way and the space held by
// operations in flight, in one calculation; every way of adding bytes honours it, the merge
// checks it again, and two requests at once cannot both pass a check meant for one.

let bob: { token: string; userId: string; username: string };
const QUOTA_GB = 0.00001; // 10,737 bytes
const QUOTA = Math.floor(QUOTA_GB * 1024 ** 3);

const used = async () =>
  (await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token: bob.token })).body.data!
    .takeUpSpace;
/** A one-item copy: 0 when done, 20 when refused for space (as a whole or as its item). */
const copyCode = (res: { body: { code: number; data?: unknown } }) => {
  if (res.body.code !== 0) return res.body.code;
  const item = (res.body.data as Array<{ code: number; msg: string }>)[0]!;
  return item.code === 0 ? 0 : /space/.test(item.msg) ? 20 : item.code;
};
const listing = async () =>
  (await call<Array<{ id: string; name: string }>>(t.app, 'GET', '/list', { token: bob.token }))
    .body.data!;

const { t, admin } = useAdminApp();
beforeEach(async () => {
  bob = await makeUser(t.app, admin.token, { username: 'bob', quota: QUOTA_GB });
});

/** An upload of `size` bytes under way: its first chunk sent, so its space is reserved. */
async function startUpload(name: string, size: number) {
  const content = randomBytes(size);
  const { base, chunks } = chunkPlan({ name, content, chunkSize: 1000 });
  const first = await sendChunk(
    t.app,
    bob.token,
    { ...base, chunkNumber: 1, currentChunkSize: chunks[0]!.currentChunkSize },
    chunks[0]!.bytes,
  );
  return { base, chunks, first };
}

async function finishUpload(u: Awaited<ReturnType<typeof startUpload>>) {
  for (const c of u.chunks.slice(1)) {
    const r = await sendChunk(
      t.app,
      bob.token,
      { ...u.base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
      c.bytes,
    );
    if (r.body.code !== 0) return r;
  }
  return call(t.app, 'POST', '/merge', { token: bob.token, query: u.base });
}

describe('the quota counts uploads under way', () => {
  it('copy, duplicate and unzip leave room for the uploads in progress', async () => {
    const fileId = await putFile(t, bob, '/', 'four.bin', randomBytes(4000));
    const zip = await zipToBuffer([{ name: 'inside.bin', content: Buffer.alloc(3000, 1) }]);
    const zipId = await putFile(t, bob, '/', 'small.zip', zip);
    const upload = await startUpload('six.bin', 6000 - zip.length);
    expect(upload.first.body.code, upload.first.body.message).toBe(0);
    const copy = await call(t.app, 'GET', '/copy', {
      token: bob.token,
      query: { froms: fileId, to: '0' },
    });
    expect(copyCode(copy), JSON.stringify(copy.body)).toBe(20);
    const duplicate = await call(t.app, 'GET', '/duplicate', {
      token: bob.token,
      query: { fileId },
    });
    expect(duplicate.status).toBe(413);
    expect(duplicate.body.code).toBe(20);
    const unzip = await call(t.app, 'GET', '/unzip', {
      token: bob.token,
      query: { fileId: zipId },
    });
    expect(unzip.body.code, unzip.body.message).toBe(20);
    // the upload still completes, and the drive is never above its quota
    const merged = await finishUpload(upload);
    expect(merged.body.code, merged.body.message).toBe(0);
    expect(await used()).toBeLessThanOrEqual(QUOTA);
    expect((await listing()).map((i) => i.name).sort()).toEqual([
      'four.bin',
      'six.bin',
      'small.zip',
    ]);
  });

  it('the merge checks the quota again', async () => {
    const upload = await startUpload('late.bin', 6000);
    expect(upload.first.body.code).toBe(0);
    for (const c of upload.chunks.slice(1)) {
      const r = await sendChunk(
        t.app,
        bob.token,
        { ...upload.base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
      expect(r.body.code).toBe(0);
    }
    // the administrator lowers the quota once every chunk has arrived
    const lowered = await call(t.app, 'PUT', '/user/update', {
      token: admin.token,
      body: { id: bob.userId, quota: 0.000004 },
    });
    expect(lowered.body.code, lowered.body.message).toBe(0);
    const merged = await call(t.app, 'POST', '/merge', { token: bob.token, query: upload.base });
    expect(merged.status).toBe(413);
    expect(merged.body.code).toBe(20);
    expect(await used()).toBe(0);
    expect(await listing()).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'files', 'bob'))).toEqual([]);
  });

  it('two uploads at once cannot both take the last free space', async () => {
    const a = chunkPlan({ name: 'a.bin', content: randomBytes(6000), chunkSize: 1000 });
    const b = chunkPlan({ name: 'b.bin', content: randomBytes(6000), chunkSize: 1000 });
    const [ra, rb] = await Promise.all(
      [a, b].map((u) =>
        sendChunk(
          t.app,
          bob.token,
          { ...u.base, chunkNumber: 1, currentChunkSize: 1000 },
          u.chunks[0]!.bytes,
        ),
      ),
    );
    expect([ra!.body.code, rb!.body.code].sort()).toEqual([0, 20]);
  });

  it('a copy and an upload at once cannot both take the last free space', async () => {
    const fileId = await putFile(t, bob, '/', 'four.bin', randomBytes(4000));
    const u = chunkPlan({ name: 'six.bin', content: randomBytes(6000), chunkSize: 1000 });
    const [copy, chunk] = await Promise.all([
      call<Array<{ code: number }>>(t.app, 'GET', '/copy', {
        token: bob.token,
        query: { froms: fileId, to: '0' },
      }),
      sendChunk(
        t.app,
        bob.token,
        { ...u.base, chunkNumber: 1, currentChunkSize: 1000 },
        u.chunks[0]!.bytes,
      ),
    ]);
    const codes = [copyCode(copy), chunk.body.code].sort();
    expect(codes).toEqual([0, 20]);
    expect(await used()).toBeLessThanOrEqual(QUOTA);
  });

  it('two copies at once cannot both pass', async () => {
    const fileId = await putFile(t, bob, '/', 'four.bin', randomBytes(4000));
    const [x, y] = await Promise.all(
      [0, 1].map(() =>
        call<Array<{ code: number }>>(t.app, 'GET', '/copy', {
          token: bob.token,
          query: { froms: fileId, to: '0' },
        }),
      ),
    );
    const codes = [copyCode(x!), copyCode(y!)].sort();
    expect(codes).toEqual([0, 20]);
    expect(await used()).toBe(8000);
  });

  it('an instant upload counts against the quota too', async () => {
    const content = randomBytes(4000);
    await uploadFile(t.app, bob.token, { name: 'one.bin', content, chunkSize: 1000 });
    const upload = await startUpload('other.bin', 3000);
    expect(upload.first.body.code).toBe(0);
    const again = await uploadFile(t.app, bob.token, {
      name: 'two.bin',
      content,
      chunkSize: 1000,
    });
    expect(again.test?.body.code ?? again.chunk?.body.code).toBe(20);
    expect(await used()).toBe(4000);
  });
});
