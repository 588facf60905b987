import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { dialect, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';
import { chunkPlan, sendChunk } from '../upload-client.ts';

// Work a node leaves half done (an intent of the crash journal, a chunk an upload request
// claimed) is undone or taken over once that node is gone, and never while it still works:
// another node starting, or looking for the work of gone nodes, leaves it alone.

/** A move from `from` to `to` that node `t` has done on disk and not committed: its intent. */
async function recordMove(t: TestApp, userId: string, from: string, to: string): Promise<void> {
  await t.app.services.db
    .insertInto('fileOp')
    .values({
      id: newId(),
      userId,
      kind: 'move',
      fromPath: from,
      toPath: to,
      createdAt: Date.now(),
      node: t.database.presence.node,
    })
    .execute();
}

describe.skipIf(dialect !== 'postgres')('two nodes on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let ann: { userId: string; username: string; token: string };

  beforeAll(async () => {
    a = await makeTestApp();
    const admin = await setupAdmin(a.app);
    ann = await makeUser(a.app, admin.token, { username: 'ann' });
    b = await makeTestApp({ dataDir: a.dataDir, databaseUrl: a.config.databaseUrl });
    await b.app.ready();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  /** A move of `name` into `moved/` that node `t` has done on disk and not committed yet. */
  async function moveUnderWay(t: TestApp, name: string) {
    const root = path.join(a.dataDir, 'files', ann.username);
    fs.mkdirSync(path.join(root, 'moved'), { recursive: true });
    const from = path.join(root, name);
    const to = path.join(root, 'moved', name);
    fs.writeFileSync(to, 'bytes on their way');
    await recordMove(t, ann.userId, from, to);
    return { from, to };
  }

  it('leaves a living node’s change under way alone, and undoes it once the node is gone', async () => {
    const { from, to } = await moveUnderWay(a, 'report.txt');
    expect(await b.app.services.files.recoverGone()).toBe(0);
    // a node that starts meanwhile leaves it alone too
    b = await b.restart();
    expect(fs.existsSync(to)).toBe(true);
    expect(fs.existsSync(from)).toBe(false);

    // node A goes (its connection, and with it its presence, ends): node B rolls the move back
    const node = a.database.presence.node;
    await a.close();
    expect(await b.app.services.files.recoverGone()).toBe(1);
    expect(fs.existsSync(from)).toBe(true);
    expect(fs.existsSync(to)).toBe(false);
    const left = await b.app.services.db.selectFrom('fileOp').select('node').execute();
    expect(left.map((r) => r.node)).not.toContain(node);
    a = await makeTestApp({ dataDir: b.dataDir, databaseUrl: b.config.databaseUrl });
  });

  it('keeps the trash entry of a living node’s change under way when another node starts', async () => {
    const trashRoot = path.join(a.dataDir, 'trash', ann.username);
    const entry = path.join(trashRoot, newId());
    fs.mkdirSync(trashRoot, { recursive: true });
    fs.writeFileSync(entry, 'on its way to the trash');
    // node A has moved it into the trash and not committed its row yet
    const { to } = await moveUnderWay(a, 'notes.txt');
    b = await b.restart();
    expect(fs.existsSync(entry)).toBe(true);
    expect(fs.existsSync(to)).toBe(true);
    await a.app.services.db.deleteFrom('fileOp').execute();
  });

  it('takes over the chunk a gone node was receiving, and not one a living node is', async () => {
    const plan = chunkPlan({ name: 'big.bin', content: Buffer.alloc(3 * 1024 * 1024, 7) });
    const first = plan.chunks[0]!;
    const sent = await sendChunk(
      a.app,
      ann.token,
      { ...plan.base, chunkNumber: 1, currentChunkSize: first.currentChunkSize },
      first.bytes,
    );
    expect(sent.body.code, sent.body.message).toBe(0);
    const { db } = a.app.services;
    const { id: sessionId } = await db
      .selectFrom('uploadSession')
      .select('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('uploadChunk')
      .values([
        { sessionId, number: 2, done: 0, node: a.database.presence.node },
        { sessionId, number: 3, done: 0, node: newId() },
      ])
      .execute();
    b = await b.restart();
    const claims = await db
      .selectFrom('uploadChunk')
      .select('number')
      .where('sessionId', '=', sessionId)
      .execute();
    // node B's start freed the claim of a node that is gone, and kept the living one's
    expect(claims.map((c) => c.number).sort()).toEqual([1, 2]);
  });
});

describe.skipIf(dialect !== 'sqlite')('one process on SQLite', () => {
  it('undoes at its start what the previous process left under way', async () => {
    const t = await makeTestApp();
    const admin = await setupAdmin(t.app);
    const ann = await makeUser(t.app, admin.token, { username: 'ann' });
    const root = path.join(t.dataDir, 'files', ann.username);
    const from = path.join(root, 'a.txt');
    const to = path.join(root, 'b.txt');
    fs.writeFileSync(to, 'moved');
    await recordMove(t, ann.userId, from, to);
    const again = await t.restart();
    expect(fs.existsSync(from)).toBe(true);
    expect(fs.existsSync(to)).toBe(false);
    await again.close();
  });
});
