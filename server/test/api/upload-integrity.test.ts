import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ADMIN, call, useAdminApp } from '../harness.ts';
import { chunkPlan, multipartBody, sendChunk, uploadFile } from '../upload-client.ts';

// A chunk is written once: a second request for the same chunk never touches bytes already
// written, so the hash recorded for a file is always the hash of the bytes on disk, and an
// instant upload can never hand out other content.

const disk = (...parts: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...parts);
const uploadsLeft = () => fs.readdirSync(path.join(t.dataDir, 'uploads'));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const { t, admin } = useAdminApp();

/** A chunk request whose body stalls half-way until `finish()` is called. */
function slowChunk(fields: Record<string, string | number>, bytes: Buffer) {
  const { payload, contentType } = multipartBody(fields, bytes, String(fields.filename));
  const cut = payload.indexOf(bytes) + Math.floor(bytes.length / 2);
  const body = new PassThrough();
  const response = t.app.inject({
    method: 'POST',
    url: '/api/upload',
    payload: body,
    headers: { 'content-type': contentType, 'nimbus-token': admin.token },
  });
  body.write(payload.subarray(0, cut));
  return {
    async finish() {
      body.end(payload.subarray(cut));
      const res = await response;
      return { status: res.statusCode, body: res.json<{ code: number; message: string }>() };
    },
  };
}

/** Until the slow request has opened its session and (with claims) taken its chunk. */
async function settled(identifier: string) {
  const db = t.database.db;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
    const session = await db
      .selectFrom('uploadSession')
      .select('id')
      .where('identifier', '=', identifier)
      .executeTakeFirst();
    if (session) {
      for (let j = 0; j < 20; j++) {
        const claimed = await db
          .selectFrom('uploadChunk')
          .select('number')
          .where('sessionId', '=', session.id)
          .executeTakeFirst();
        if (claimed) return;
        await new Promise((r) => setTimeout(r, 10));
      }
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the slow request never opened its session');
}

/** The stored file's row and bytes: the bytes hash to the row's hash. */
async function storedFile(name: string) {
  const row = await t.database.db
    .selectFrom('file')
    .select(['hash', 'size'])
    .where('userId', '=', admin.userId)
    .where('name', '=', name)
    .where('trashId', 'is', null)
    .executeTakeFirst();
  const bytes = fs.existsSync(disk(name)) ? fs.readFileSync(disk(name)) : null;
  return { row, bytes };
}

describe('a chunk is written once', () => {
  it('a slow second request for a chunk never overwrites it: what is stored hashes to its recorded hash', async () => {
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'poison.bin', content, chunkSize: 1000 });
    const fields = (n: number) => ({
      ...base,
      chunkNumber: n,
      currentChunkSize: chunks[n - 1]!.currentChunkSize,
    });
    // another sender's copy of chunk 1, with other bytes, stalls half-way through its body
    const forged = randomBytes(1000);
    const slow = slowChunk(fields(1), forged);
    await settled(base.identifier);
    // meanwhile the honest sender sends every chunk
    const answers: number[] = [];
    for (const c of chunks) {
      const r = await sendChunk(t.app, admin.token, fields(c.chunkNumber), c.bytes);
      answers.push(r.body.code);
    }
    const late = await slow.finish();
    expect(late.status).toBeLessThan(500);
    // a chunk refused as "being received" is sent again, as the client retries
    for (const c of chunks) {
      if (answers[c.chunkNumber - 1] === 0) continue;
      expect(answers[c.chunkNumber - 1]).toBe(21);
      const r = await sendChunk(t.app, admin.token, fields(c.chunkNumber), c.bytes);
      expect(r.body.code, r.body.message).toBe(0);
    }
    const merged = await call(t.app, 'POST', '/merge', { token: admin.token, query: base });
    const { row, bytes } = await storedFile('poison.bin');
    if (merged.body.code === 0) {
      // whatever was kept, the recorded hash is the hash of the bytes on disk
      expect(bytes).not.toBeNull();
      expect(row!.hash).toBe(sha(bytes!));
      expect(row!.hash).toBe(base.identifier);
      expect(bytes!.equals(content)).toBe(true);
    } else {
      // the forged chunk won: the checksum does not match and nothing is kept
      expect(merged.status).toBe(422);
      expect(merged.body.code).toBe(16);
      expect(row).toBeUndefined();
      expect(bytes).toBeNull();
      expect(uploadsLeft()).toEqual([]);
    }
    // a later upload of the real content is never completed from other bytes
    const later = await uploadFile(t.app, admin.token, {
      name: 'later.bin',
      content,
      chunkSize: 1000,
    });
    expect(later.merged?.body.code ?? 0, later.merged?.body.message).toBe(0);
    expect(fs.readFileSync(disk('later.bin')).equals(content)).toBe(true);
    const again = await storedFile('later.bin');
    expect(again.row!.hash).toBe(sha(again.bytes!));
  });

  it('a second request for a chunk already written is dropped without touching its bytes', async () => {
    const content = randomBytes(2000);
    const { base, chunks } = chunkPlan({ name: 'once.bin', content, chunkSize: 1000 });
    const fields = (n: number) => ({
      ...base,
      chunkNumber: n,
      currentChunkSize: chunks[n - 1]!.currentChunkSize,
    });
    const first = await sendChunk(t.app, admin.token, fields(1), chunks[0]!.bytes);
    expect(first.body.code).toBe(0);
    const other = await sendChunk(t.app, admin.token, fields(1), randomBytes(1000));
    expect(other.body.code).toBe(0);
    const second = await sendChunk(t.app, admin.token, fields(2), chunks[1]!.bytes);
    expect(second.body).toMatchObject({ code: 0, data: { merge: true } });
    const merged = await call(t.app, 'POST', '/merge', { token: admin.token, query: base });
    expect(merged.body.code, merged.body.message).toBe(0);
    const { row, bytes } = await storedFile('once.bin');
    expect(bytes!.equals(content)).toBe(true);
    expect(row!.hash).toBe(sha(bytes!));
  });
});

describe('client mistakes in uploads are 4xx, and nothing is lost', () => {
  it('a cut-off multipart body is refused with 422 and the chunk can be sent again', async () => {
    const content = randomBytes(2000);
    const { base, chunks } = chunkPlan({ name: 'cut.bin', content, chunkSize: 1000 });
    const fields = { ...base, chunkNumber: 1, currentChunkSize: 1000 };
    const { payload, contentType } = multipartBody(fields, chunks[0]!.bytes, 'cut.bin');
    for (const end of [payload.indexOf(chunks[0]!.bytes) + 500, 40]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/upload',
        payload: payload.subarray(0, end),
        headers: { 'content-type': contentType, 'nimbus-token': admin.token },
      });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toMatchObject({ code: 10 });
    }
    const done = await uploadFile(t.app, admin.token, {
      name: 'cut.bin',
      content,
      chunkSize: 1000,
    });
    expect(done.merged!.body.code, done.merged!.body.message).toBe(0);
    expect(fs.readFileSync(disk('cut.bin')).equals(content)).toBe(true);
  });

  it('refuses a lastModified that is no date with 422 before anything is stored', async () => {
    const content = Buffer.from('dated');
    for (const lastModified of [1e300, 8.64e15 + 1, -8.64e15 - 1, 1.5e16]) {
      const { base, chunks } = chunkPlan({ name: 'dated.txt', content, lastModified });
      const fields = { ...base, chunkNumber: 1, currentChunkSize: chunks[0]!.currentChunkSize };
      const test = await call(t.app, 'GET', '/upload', { token: admin.token, query: fields });
      expect(test.status, String(lastModified)).toBe(422);
      expect(test.body.code).toBe(10);
      const sent = await sendChunk(t.app, admin.token, fields, chunks[0]!.bytes);
      expect(sent.status, String(lastModified)).toBe(422);
      const merged = await call(t.app, 'POST', '/merge', { token: admin.token, query: base });
      expect(merged.status, String(lastModified)).toBe(422);
    }
    expect(uploadsLeft()).toEqual([]);
    // the largest dates a file can carry still upload (the disk keeps what it can)
    for (const [name, lastModified] of [
      ['far.txt', 8.64e15],
      ['early.txt', -8.64e15],
    ] as const) {
      const res = await uploadFile(t.app, admin.token, {
        name,
        content: Buffer.from(name),
        lastModified,
      });
      expect(res.merged!.body.code, res.merged!.body.message).toBe(0);
      expect(fs.readFileSync(disk(name)).toString()).toBe(name);
    }
  });

  it('answers 422 to a merge before every chunk has arrived and to a wrong hash', async () => {
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'partial.bin', content, chunkSize: 1000 });
    await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 1, currentChunkSize: 1000 },
      chunks[0]!.bytes,
    );
    const early = await call(t.app, 'POST', '/merge', { token: admin.token, query: base });
    expect(early.status).toBe(422);
    expect(early.body).toMatchObject({ code: 16, message: 'Only 1 of 3 chunks have arrived' });
    const wrong = await uploadFile(t.app, admin.token, {
      name: 'bad.bin',
      content: randomBytes(2048),
      chunkSize: 1024,
      identifier: sha(Buffer.from('something else')),
    });
    expect(wrong.merged!.status).toBe(422);
    expect(wrong.merged!.body.code).toBe(16);
    expect(fs.existsSync(disk('bad.bin'))).toBe(false);
    const none = await call(t.app, 'POST', '/merge', {
      token: admin.token,
      query: { ...base, filename: 'never.bin' },
    });
    expect(none.status).toBe(422);
  });

  it('answers 4xx to numbers out of range anywhere in the upload protocol', async () => {
    const content = randomBytes(100);
    const { base } = chunkPlan({ name: 'n.bin', content, chunkSize: 50 });
    const fields = { ...base, chunkNumber: 1, currentChunkSize: 50 };
    const hostile: Array<Record<string, string | number>> = [
      { chunkSize: 0 },
      { chunkSize: -1 },
      { chunkSize: 1e300 },
      { totalSize: 1e300 },
      { totalSize: -5 },
      { totalSize: 2 ** 60 },
      { totalChunks: 1e300 },
      { chunkSize: 1, totalSize: 2 ** 31, totalChunks: 2 ** 31 },
      { chunkNumber: 1e300 },
      { chunkNumber: 1.5 },
      { currentChunkSize: 1e300 },
      { lastModified: 'soon' },
      { lastModified: Number.NaN },
    ];
    for (const change of hostile) {
      const label = JSON.stringify(change);
      const test = await call(t.app, 'GET', '/upload', {
        token: admin.token,
        query: { ...fields, ...change },
      });
      expect(test.status, `test ${label}`).toBeGreaterThanOrEqual(400);
      expect(test.status, `test ${label}`).toBeLessThan(500);
      const sent = await sendChunk(t.app, admin.token, { ...fields, ...change }, content);
      expect(sent.status, `chunk ${label}`).toBeGreaterThanOrEqual(400);
      expect(sent.status, `chunk ${label}`).toBeLessThan(500);
      const merged = await call(t.app, 'POST', '/merge', {
        token: admin.token,
        query: { ...base, ...change },
      });
      expect(merged.status, `merge ${label}`).toBeGreaterThanOrEqual(400);
      expect(merged.status, `merge ${label}`).toBeLessThan(500);
    }
  });
});
