import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Place } from '../../src/storage/blob-store.ts';
import { consistencyProblems } from '../consistency.ts';
import { ADMIN, call, makeTestApp, setupAdmin, type TestApp } from '../harness.ts';
import { chunkPlan, sendChunk } from '../upload-client.ts';

// The final placement of an upload (rename into place, then the row) is journaled like the
// other disk changes: a server that stops between the two comes back with disk and database
// agreeing, and the upload can be merged again.

let t: TestApp;
afterEach(async () => {
  await t.close();
});

/** The server stops for good right after the rename of the upload into the user's tree. */
function stopAfterPlacement(app: TestApp) {
  const blobs = app.app.services.files.blobs;
  const move = blobs.move.bind(blobs);
  let stopped = false;
  // the places an upload's bytes come from: its session's or a staging place
  const uploads = blobs.uploadsRoot();
  const staging = path.dirname(blobs.staging());
  blobs.move = async (from: Place, to: Place) => {
    await move(from, to);
    if (from.startsWith(uploads) || from.startsWith(staging)) {
      stopped = true;
      // nothing after this point ever runs: as if the process had been killed
      await new Promise(() => undefined);
    }
  };
  return () => stopped;
}

describe('an upload interrupted between its rename and its row', () => {
  it('is rolled back at the next start and merges again', async () => {
    t = await makeTestApp();
    const admin = await setupAdmin(t.app);
    const content = randomBytes(3000);
    const { base, chunks } = chunkPlan({ name: 'placed.bin', content, chunkSize: 1000 });
    for (const c of chunks) {
      const r = await sendChunk(
        t.app,
        admin.token,
        { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
      expect(r.body.code).toBe(0);
    }
    const stopped = stopAfterPlacement(t);
    void call(t.app, 'POST', '/merge', { token: admin.token, query: base });
    for (let i = 0; i < 500 && !stopped(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(stopped()).toBe(true);
    const disk = path.join(t.dataDir, 'files', ADMIN.username, 'placed.bin');
    expect(fs.existsSync(disk)).toBe(true);

    t = await t.restart();
    expect(
      await consistencyProblems(t.database.db, t.dataDir, admin.userId, ADMIN.username),
    ).toEqual([]);
    const merged = await call<{ file: { name: string } }>(t.app, 'POST', '/merge', {
      token: admin.token,
      query: base,
    });
    expect(merged.body.code, merged.body.message).toBe(0);
    expect(fs.readFileSync(disk).equals(content)).toBe(true);
    expect(
      await consistencyProblems(t.database.db, t.dataDir, admin.userId, ADMIN.username),
    ).toEqual([]);
  });

  it('an instant upload interrupted the same way leaves nothing behind', async () => {
    t = await makeTestApp();
    const admin = await setupAdmin(t.app);
    const content = randomBytes(2000);
    const { base, chunks } = chunkPlan({ name: 'first.bin', content, chunkSize: 1000 });
    for (const c of chunks)
      await sendChunk(
        t.app,
        admin.token,
        { ...base, chunkNumber: c.chunkNumber, currentChunkSize: c.currentChunkSize },
        c.bytes,
      );
    expect(
      (await call(t.app, 'POST', '/merge', { token: admin.token, query: base })).body.code,
    ).toBe(0);
    const stopped = stopAfterPlacement(t);
    const copy = chunkPlan({ name: 'second.bin', content, chunkSize: 1000 });
    void call(t.app, 'GET', '/upload', {
      token: admin.token,
      query: { ...copy.base, chunkNumber: 1, currentChunkSize: 1000 },
    });
    for (let i = 0; i < 500 && !stopped(); i++) await new Promise((r) => setTimeout(r, 10));
    expect(stopped()).toBe(true);
    t = await t.restart();
    expect(
      await consistencyProblems(t.database.db, t.dataDir, admin.userId, ADMIN.username),
    ).toEqual([]);
  });
});
