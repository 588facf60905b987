import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ErrorCode } from '@nimbus/contract';
import { ADMIN, call, makeTestApp, setupAdmin, type TestApp } from '../harness.ts';
import { chunkPlan, sendChunk } from '../upload-client.ts';

// Large uploads are merged by a background task: the merge request answers "still merging"
// with the task's progress, and asking again picks up the same task until the file is there.

let t: TestApp;
afterEach(async () => {
  await t.close();
});

interface MergeAnswer {
  upload: boolean;
  merging?: boolean;
  progress?: number;
  taskId?: string;
  file?: { id: string; name: string };
}

async function sendAll(token: string, name: string, content: Buffer, identifier?: string) {
  const { base, chunks } = chunkPlan({ name, content, chunkSize: 64 * 1024, identifier });
  for (const c of chunks) {
    const r = await sendChunk(
      t.app,
      token,
      { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
      c.bytes,
    );
    expect(r.body.code, r.body.message).toBe(0);
  }
  return base;
}

const merge = (token: string, base: Record<string, string | number>) =>
  call<MergeAnswer>(t.app, 'POST', '/merge', { token, query: base });

/** Ask again until the answer is no longer "still merging". */
async function mergeUntilDone(token: string, base: Record<string, string | number>) {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
    const res = await merge(token, base);
    if (!res.body.data?.merging) return res;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the merge never finished');
}

const disk = (...parts: string[]) => path.join(t.dataDir, 'files', ADMIN.username, ...parts);
const uploadsLeft = () => fs.readdirSync(path.join(t.dataDir, 'uploads'));

describe('background merge of large uploads', () => {
  it('answers "still merging" with a task, then the file', async () => {
    t = await makeTestApp({ backgroundMergeBytes: 1, mergeWaitMs: 0 });
    const admin = await setupAdmin(t.app);
    const content = randomBytes(640 * 1024);
    const base = await sendAll(admin.token, 'big.bin', content);
    const first = await merge(admin.token, base);
    expect(first.body.code, first.body.message).toBe(0);
    // the request does not wait (mergeWaitMs 0): the task is still queued or running
    expect(first.body.data!.merging).toBe(true);
    expect(first.body.data!.taskId).toBeTruthy();
    expect(first.body.data!.progress).toBeGreaterThanOrEqual(0);
    // the task is a job of the durable queue, shown in the owner's task list while it runs
    const job = await t.app.services.jobs.get(first.body.data!.taskId!);
    expect(job).toMatchObject({ type: 'uploadMerge', userId: admin.userId, name: 'big.bin' });
    const done = await mergeUntilDone(admin.token, base);
    expect(done.body.code, done.body.message).toBe(0);
    expect(done.body.data!.file!.name).toBe('big.bin');
    expect(fs.readFileSync(disk('big.bin')).equals(content)).toBe(true);
    expect(uploadsLeft()).toEqual([]);
    // asking once more answers the same file (idempotent)
    const again = await merge(admin.token, base);
    expect(again.body.data!.file!.id).toBe(done.body.data!.file!.id);
  });

  it('waits for the task when it finishes within the wait', async () => {
    t = await makeTestApp({ backgroundMergeBytes: 1, mergeWaitMs: 10_000 });
    const admin = await setupAdmin(t.app);
    const content = randomBytes(256 * 1024);
    const base = await sendAll(admin.token, 'waited.bin', content);
    const res = await merge(admin.token, base);
    expect(res.body.code, res.body.message).toBe(0);
    expect(res.body.data!.merging).toBeUndefined();
    expect(res.body.data!.file!.name).toBe('waited.bin');
  });

  it('re-hashes the file after a restart lost the running hash, and a mismatch fails with nothing left', async () => {
    t = await makeTestApp({ backgroundMergeBytes: 1, mergeWaitMs: 0 });
    const admin = await setupAdmin(t.app);
    const content = randomBytes(512 * 1024);
    const wrong = createHash('sha256').update('something else').digest('hex');
    const good = await sendAll(admin.token, 'good.bin', content);
    const bad = await sendAll(admin.token, 'bad.bin', content, wrong);
    // a restart forgets the hashes computed while chunks arrived
    t = await t.restart();
    const token = admin.token;
    const ok = await mergeUntilDone(token, good);
    expect(ok.body.code, ok.body.message).toBe(0);
    expect(fs.readFileSync(disk('good.bin')).equals(content)).toBe(true);

    const failed = await mergeUntilDone(token, bad);
    expect(failed.body.code).toBe(ErrorCode.MERGE_FAILED);
    expect(failed.body.message).toMatch(/checksum/);
    expect(fs.existsSync(disk('bad.bin'))).toBe(false);
    expect(uploadsLeft()).toEqual([]);
    // the session is gone too: the chunk test starts afresh
    const test = await call<{ resume: number[] }>(t.app, 'GET', '/upload', {
      token,
      query: { ...bad, chunkNumber: 1, currentChunkSize: 64 * 1024 },
    });
    expect(test.body.data!.resume).toEqual([]);
  });

  it('keeps merging across a restart of the server', async () => {
    t = await makeTestApp({ backgroundMergeBytes: 1, mergeWaitMs: 0 });
    const admin = await setupAdmin(t.app);
    const content = randomBytes(1024 * 1024);
    const base = await sendAll(admin.token, 'survives.bin', content);
    const first = await merge(admin.token, base);
    expect(first.body.code, first.body.message).toBe(0);
    t = await t.restart();
    const done = await mergeUntilDone(admin.token, base);
    expect(done.body.code, done.body.message).toBe(0);
    expect(fs.readFileSync(disk('survives.bin')).equals(content)).toBe(true);
  });
});
