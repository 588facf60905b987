import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN, call, makeUser, useAdminApp } from '../harness.ts';
import { chunkPlan, sendChunk, uploadFile } from '../upload-client.ts';

const disk = (...parts: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...parts);
const uploadsLeft = () => fs.readdirSync(path.join(t.dataDir, 'uploads'));
const used = async (token = admin.token) =>
  (await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token })).body.data!
    .takeUpSpace;

const { t, admin } = useAdminApp();

describe('chunked upload', () => {
  it('merges a large upload whole, its bytes synced in the background as its chunks arrive', async () => {
    // 9 chunks of 8 MiB: the eighth starts a sync of the first 64 MiB while the last arrives
    const content = randomBytes(72 * 1024 * 1024 + 5);
    const res = await uploadFile(t.app, admin.token, {
      name: 'large.bin',
      content,
      chunkSize: 8 * 1024 * 1024,
    });
    expect(res.sent).toBe(9);
    expect(res.merged!.body.code, res.merged!.body.message).toBe(0);
    const onDisk = fs.readFileSync(disk('large.bin'));
    expect(createHash('sha256').update(onDisk).digest('hex')).toBe(
      createHash('sha256').update(content).digest('hex'),
    );
    expect(uploadsLeft()).toEqual([]);
  });

  it('uploads a multi-chunk file whose last chunk takes the remainder, and keeps lastModified', async () => {
    const content = randomBytes(3 * 1024 + 700);
    const lastModified = Date.parse('2024-05-06T07:08:09Z');
    const res = await uploadFile(t.app, admin.token, {
      name: 'data.bin',
      content,
      chunkSize: 1024,
      lastModified,
    });
    expect(res.sent).toBe(3);
    expect(res.merge).toBe(true);
    expect(res.merged!.body.code, res.merged!.body.message).toBe(0);
    expect(fs.readFileSync(disk('data.bin')).equals(content)).toBe(true);
    const info = await call<{ updateDate: string; hash: string; size: number }>(
      t.app,
      'GET',
      '/file_info',
      { token: admin.token, query: { id: res.merged!.body.data!.file.id } },
    );
    expect(info.body.data!.size).toBe(content.length);
    expect(new Date(info.body.data!.updateDate.replace(' ', 'T')).getTime()).toBe(
      new Date(lastModified).setMilliseconds(0),
    );
    expect(await used()).toBe(content.length);
    expect(uploadsLeft()).toEqual([]);
  });

  it('accepts chunks out of order and repeated', async () => {
    const content = randomBytes(5000);
    const { base, chunks } = chunkPlan({ name: 'shuffled.bin', content, chunkSize: 1000 });
    for (const i of [4, 0, 2, 2, 1, 3, 0]) {
      const c = chunks[i]!;
      const r = await sendChunk(
        t.app,
        admin.token,
        { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
      expect(r.body.code, r.body.message).toBe(0);
    }
    const test = await call<{ resume: number[]; merge: boolean }>(t.app, 'GET', '/upload', {
      token: admin.token,
      query: { ...base, chunkNumber: 1, currentChunkSize: 1000 },
    });
    expect(test.body.data).toMatchObject({ resume: [1, 2, 3, 4, 5], merge: true });
    const merged = await call(t.app, 'POST', '/merge', { token: admin.token, query: base });
    expect(merged.body.code).toBe(0);
    expect(fs.readFileSync(disk('shuffled.bin')).equals(content)).toBe(true);
  });

  it('uploads a 0-byte file', async () => {
    const res = await uploadFile(t.app, admin.token, {
      name: 'empty.txt',
      content: Buffer.alloc(0),
    });
    expect(res.merged!.body.code, res.merged!.body.message).toBe(0);
    expect(fs.statSync(disk('empty.txt')).size).toBe(0);
  });

  it('refuses a chunk of the wrong size and more bytes than announced', async () => {
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'x.bin', content, chunkSize: 1000 });
    const wrong = await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 1, currentChunkSize: 999 },
      chunks[0]!.bytes.subarray(0, 999),
    );
    expect(wrong.body).toMatchObject({ code: 10, message: 'Chunk 1 must be 1000 bytes, not 999' });
    const lying = await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 1, currentChunkSize: 1000 },
      Buffer.concat([chunks[0]!.bytes, Buffer.from('extra')]),
    );
    expect(lying.body.code).toBe(10);
    expect(lying.body.message).toMatch(/larger than 1000 bytes/);
    const short = await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 2, currentChunkSize: 1000 },
      chunks[1]!.bytes.subarray(0, 10),
    );
    expect(short.body.message).toMatch(/cut short/);
    const beyond = await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 4, currentChunkSize: 1000 },
      chunks[0]!.bytes,
    );
    expect(beyond.body.message).toMatch(/outside 1\.\.3/);
    const badCount = await sendChunk(
      t.app,
      admin.token,
      { ...base, totalChunks: 5, chunkNumber: 1, currentChunkSize: 1000 },
      chunks[0]!.bytes,
    );
    expect(badCount.body.message).toMatch(/Expected 3 chunks/);
    const huge = await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkSize: 65 * 1024 * 1024, chunkNumber: 1, currentChunkSize: 3000 },
      content,
    );
    expect(huge.body.message).toMatch(/chunk size/);
    const notHash = await sendChunk(
      t.app,
      admin.token,
      { ...base, identifier: '3000-x.bin', chunkNumber: 1, currentChunkSize: 1000 },
      chunks[0]!.bytes,
    );
    expect(notHash.body.message).toMatch(/identifier: the SHA-256/);
  });

  it('names each missing or wrong field in words', async () => {
    const { base } = chunkPlan({ name: 'x.bin', content: randomBytes(10) });
    const { chunkSize: _chunkSize, ...withoutSize } = base;
    const test = await call(t.app, 'GET', '/upload', {
      token: admin.token,
      query: { ...withoutSize, chunkNumber: 'first', currentChunkSize: 10 },
    });
    expect(test.status).toBe(422);
    expect(test.body.message).toBe(
      'chunkNumber: must be a whole number; chunkSize: required, a whole number',
    );
    const chunk = await sendChunk(
      t.app,
      admin.token,
      { ...withoutSize, chunkNumber: 1, currentChunkSize: 10 },
      randomBytes(10),
    );
    expect(chunk.status).toBe(422);
    expect(chunk.body.message).toBe('chunkSize: required, a whole number');
  });

  it('refuses a merge whose bytes do not match the hash and leaves nothing behind', async () => {
    const content = randomBytes(2048);
    const wrongId = createHash('sha256').update('something else').digest('hex');
    const res = await uploadFile(t.app, admin.token, {
      name: 'bad.bin',
      content,
      chunkSize: 1024,
      identifier: wrongId,
    });
    expect(res.merged!.body).toMatchObject({
      code: 16,
      message: expect.stringMatching(/checksum mismatch/),
    });
    expect(fs.existsSync(disk('bad.bin'))).toBe(false);
    expect(uploadsLeft()).toEqual([]);
    expect(await used()).toBe(0);
    const list = await call(t.app, 'GET', '/list', { token: admin.token });
    expect(list.body.count).toBe(0);
  });

  it('refuses a merge before every chunk has arrived', async () => {
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'partial.bin', content, chunkSize: 1000 });
    await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 1, currentChunkSize: 1000 },
      chunks[0]!.bytes,
    );
    const merged = await call(t.app, 'POST', '/merge', { token: admin.token, query: base });
    expect(merged.body).toMatchObject({ code: 16, message: 'Only 1 of 3 chunks have arrived' });
  });

  it('instant upload: the same bytes again send no chunk', async () => {
    const content = randomBytes(4096);
    await uploadFile(t.app, admin.token, { name: 'first.bin', content, chunkSize: 1024 });
    const again = await uploadFile(t.app, admin.token, {
      name: 'second.bin',
      content,
      chunkSize: 1024,
    });
    expect(again.instant).toBe(true);
    expect(again.sent).toBe(0);
    expect(fs.readFileSync(disk('second.bin')).equals(content)).toBe(true);
    expect(await used()).toBe(2 * 4096);
  });

  it('never instant-uploads across users', async () => {
    const content = randomBytes(4096);
    await uploadFile(t.app, admin.token, { name: 'mine.bin', content, chunkSize: 1024 });
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const theirs = await uploadFile(t.app, bob.token, {
      name: 'theirs.bin',
      content,
      chunkSize: 1024,
    });
    expect(theirs.instant).toBeUndefined();
    expect(theirs.sent).toBe(4);
  });

  it('refuses an upload past the quota before writing, with the space-full code', async () => {
    const bob = await makeUser(t.app, admin.token, { username: 'bob', quota: 0.00001 }); // ~10 KiB
    const content = randomBytes(20 * 1024);
    const res = await uploadFile(t.app, bob.token, { name: 'big.bin', content, chunkSize: 4096 });
    // a client mistake (the drive has no room for it): a 4xx naming the field and the numbers
    expect(res.chunk!.status).toBe(413);
    expect(res.chunk!.body).toMatchObject({
      code: 20,
      message: expect.stringMatching(/^totalSize: Not enough space: needs 20\.00K, [\d.]+K free$/),
      data: { field: 'totalSize', needed: 20 * 1024 },
    });
    expect(uploadsLeft()).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'files', 'bob'))).toEqual([]);
    expect(await used(bob.token)).toBe(0);
  });

  it('overwrite after confirmation keeps the old file in the trash', async () => {
    await uploadFile(t.app, admin.token, { name: 'doc.bin', content: Buffer.from('old version') });
    const check = await call<{ exist: boolean }>(t.app, 'POST', '/checkExist', {
      token: admin.token,
      body: { filenames: ['doc.bin'], currentDirectory: '/' },
    });
    expect(check.body.data!.exist).toBe(true);
    await uploadFile(t.app, admin.token, { name: 'doc.bin', content: Buffer.from('new version') });
    expect(fs.readFileSync(disk('doc.bin'), 'utf8')).toBe('new version');
    const trash = await call<Array<{ name: string; id: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { queryFileType: 'trash' },
    });
    expect(trash.body.data!.map((i) => i.name)).toEqual(['doc.bin']);
    expect(
      fs.readFileSync(path.join(t.dataDir, 'trash', 'admin', trash.body.data![0]!.id), 'utf8'),
    ).toBe('old version');
  });

  it('overwrite of a text keeps its id, and the old text as a version', async () => {
    await uploadFile(t.app, admin.token, { name: 'doc.txt', content: Buffer.from('old version') });
    const list = async () =>
      (
        await call<Array<{ name: string; id: string }>>(t.app, 'GET', '/list', {
          token: admin.token,
          query: { currentDirectory: '/' },
        })
      ).body.data!.find((i) => i.name === 'doc.txt')!;
    const before = await list();
    const res = await uploadFile(t.app, admin.token, {
      name: 'doc.txt',
      content: Buffer.from('new version'),
    });
    expect(res.merged!.body.code, res.merged!.body.message).toBe(0);
    expect(fs.readFileSync(disk('doc.txt'), 'utf8')).toBe('new version');
    expect((await list()).id).toBe(before.id);
    const versions = await call<Array<{ id: string }>>(t.app, 'GET', '/history/list', {
      token: admin.token,
      query: { fileId: before.id },
    });
    expect(versions.body.count).toBe(1);
    const text = await call<{ contentText: string }>(t.app, 'GET', '/history/preview/text', {
      token: admin.token,
      query: { id: versions.body.data![0]!.id },
    });
    expect(text.body.data!.contentText).toBe('old version');
    const trash = await call<unknown[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { queryFileType: 'trash' },
    });
    expect(trash.body.data).toEqual([]);
  });

  it('uploads a 3-level folder with Chinese and emoji names', async () => {
    const folder = await call(t.app, 'POST', '/upload-folder', {
      token: admin.token,
      query: { filename: '旅行 🌍', currentDirectory: '/' },
    });
    expect(folder.body.code).toBe(0);
    for (const [rel, text] of [
      ['旅行 🌍/照片/第一天 ☀️/日记.txt', 'day one'],
      ['旅行 🌍/照片/notes.md', '# trip'],
      ['旅行 🌍/计划.txt', 'plan'],
    ] as const) {
      const name = rel.split('/').pop()!;
      const res = await uploadFile(t.app, admin.token, {
        name,
        content: Buffer.from(text),
        relativePath: rel,
        currentDirectory: '/',
      });
      expect(res.merged!.body.code, res.merged!.body.message).toBe(0);
    }
    expect(fs.readFileSync(disk('旅行 🌍', '照片', '第一天 ☀️', '日记.txt'), 'utf8')).toBe(
      'day one',
    );
    const level2 = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory: '/旅行 🌍/照片' },
    });
    expect(level2.body.data!.map((i) => i.name)).toEqual(['第一天 ☀️', 'notes.md']);
    // creating an existing folder again is fine (a resumed folder upload)
    const again = await call(t.app, 'POST', '/upload-folder', {
      token: admin.token,
      query: { filename: '旅行 🌍', currentDirectory: '/' },
    });
    expect(again.body.code).toBe(0);
  });

  it('refuses relative paths that climb out of the tree', async () => {
    const res = await uploadFile(t.app, admin.token, {
      name: 'x.txt',
      content: Buffer.from('x'),
      relativePath: '../../x.txt',
    });
    expect(res.test!.body.code).toBe(10);
  });

  it('resumes after a restart: the chunk test lists what arrived', async () => {
    const content = randomBytes(4000);
    const { base, chunks } = chunkPlan({ name: 'resume.bin', content, chunkSize: 1000 });
    for (const c of chunks.slice(0, 2))
      await sendChunk(
        t.app,
        admin.token,
        { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
    await t.restart();
    const res = await uploadFile(t.app, admin.token, {
      name: 'resume.bin',
      content,
      chunkSize: 1000,
    });
    expect(res.sent).toBe(2);
    expect(fs.readFileSync(disk('resume.bin')).equals(content)).toBe(true);
  });

  it('removes abandoned sessions after 3 days and frees their space', async () => {
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'abandoned.bin', content, chunkSize: 1000 });
    await sendChunk(
      t.app,
      admin.token,
      { ...base, chunkNumber: 1, currentChunkSize: 1000 },
      chunks[0]!.bytes,
    );
    expect(uploadsLeft()).toHaveLength(1);
    const { uploads } = t.app.services;
    expect(await uploads.cleanUp(Date.now() + 2 * 86400_000)).toBe(0);
    expect(await uploads.cleanUp(Date.now() + 3 * 86400_000 + 1000)).toBe(1);
    expect(uploadsLeft()).toEqual([]);
    const test = await call<{ resume: number[] }>(t.app, 'GET', '/upload', {
      token: admin.token,
      query: { ...base, chunkNumber: 1, currentChunkSize: 1000 },
    });
    expect(test.body.data!.resume).toEqual([]);
  });
});

describe('merge races', () => {
  it('two merges of one upload at once make one file', async () => {
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'race.bin', content, chunkSize: 1000 });
    for (const c of chunks) {
      await sendChunk(
        t.app,
        admin.token,
        { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
    }
    const [a, b] = await Promise.all([
      call<{ file: { id: string } }>(t.app, 'POST', '/merge', { token: admin.token, query: base }),
      call<{ file: { id: string } }>(t.app, 'POST', '/merge', { token: admin.token, query: base }),
    ]);
    expect(a.body.code).toBe(0);
    expect(b.body.code).toBe(0);
    expect(a.body.data!.file.id).toBe(b.body.data!.file.id);
    const list = await call(t.app, 'GET', '/list', { token: admin.token });
    expect(list.body.count).toBe(1);
    expect(await used()).toBe(3000);
  });
});
