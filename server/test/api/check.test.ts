import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.ts';
import { checkDrive, type Finding } from '../../src/modules/check/check.service.ts';
import { LocalStore } from '../../src/storage/local-store.ts';
import { ADMIN, call, makeTestApp, putFile, setupAdmin, type TestApp } from '../harness.ts';

const repoRoot = path.resolve(import.meta.dirname, '..', '..', '..');

/** `npm run check` as an operator runs it, on this test's data folder and database. */
function runCheck(t: TestApp, ...args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/cli/check.ts', ...args], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NIMBUS_DATA_DIR: t.dataDir,
        NIMBUS_DATABASE_URL: t.config.databaseUrl ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const summary = (findings: Finding[]) =>
  findings.map((f) => `${f.kind} ${f.item}${f.repaired ? ' (repaired)' : ''}`).sort();

let t: TestApp;
let admin: { token: string; userId: string };
beforeAll(async () => {
  t = await makeTestApp();
  admin = await setupAdmin(t.app);
});
afterAll(() => t.close());

describe('the consistency check', () => {
  it('names each way a drive can break, repairs what it can and leaves the rest named', async () => {
    const owner = { userId: admin.userId, username: ADMIN.username };
    for (const [name, at] of [
      ['docs', '/'],
      ['sub', '/docs'],
    ] as const)
      await call(t.app, 'POST', '/new_folder', {
        token: admin.token,
        query: { filename: name, currentDirectory: at },
      });
    await putFile(t, owner, '/docs', 'a.txt', 'alpha alpha');
    await putFile(t, owner, '/docs/sub', 'b.txt', 'bravo bravo bravo');
    const c = await putFile(t, owner, '/', 'c.txt', 'charlie');
    const gone = await putFile(t, owner, '/', 'old.txt', 'deleted, in the trash');
    expect(
      (await call(t.app, 'DELETE', '/delete', { token: admin.token, body: { fileIds: [gone] } }))
        .body.code,
    ).toBe(0);
    const store = new LocalStore(t.dataDir);
    const db = t.database.db;
    // an earlier version of c.txt, its stored bytes counted in the used space
    const version = newId();
    const versions = path.join(t.dataDir, 'versions', admin.userId, c);
    fs.mkdirSync(versions, { recursive: true });
    fs.writeFileSync(path.join(versions, version), 'old');
    await db
      .insertInto('fileVersion')
      .values({
        id: version,
        fileId: c,
        userId: admin.userId,
        filename: 'c.txt',
        path: '/',
        size: 3,
        storedSize: 3,
        hash: null,
        compression: 'none',
        operator: ADMIN.username,
        createdAt: Date.now(),
      })
      .execute();
    await t.app.services.fileRows.adjustUsed(admin.userId, 3, db);
    expect((await checkDrive(db, store, { full: true })).findings).toEqual([]);

    // break it in every way
    const tree = path.join(t.dataDir, 'files', ADMIN.username);
    fs.rmSync(path.join(tree, 'docs', 'a.txt'));
    fs.writeFileSync(path.join(tree, 'docs', 'stray.bin'), 'nobody owns me');
    fs.writeFileSync(path.join(tree, 'docs', 'sub', 'b.txt'), 'BRAVO bravo bravo');
    fs.writeFileSync(path.join(t.dataDir, 'trash', ADMIN.username, 'junk'), 'left behind');
    fs.rmSync(path.join(versions, version));
    fs.writeFileSync(path.join(versions, 'v-stray'), 'a version nobody lists');
    await db.updateTable('file').set({ size: 8 }).where('id', '=', c).execute();
    const docs = await db
      .selectFrom('file')
      .select(['id', 'size'])
      .where('userId', '=', admin.userId)
      .where('name', '=', 'docs')
      .executeTakeFirstOrThrow();
    await db.updateTable('file').set({ size: 999 }).where('id', '=', docs.id).execute();
    await db.updateTable('user').set({ usedBytes: 12345 }).where('id', '=', admin.userId).execute();
    const op = newId();
    await db
      .insertInto('fileOp')
      .values({
        id: op,
        userId: admin.userId,
        kind: 'move',
        fromPath: path.join(tree, 'docs'),
        toPath: path.join(tree, 'moved'),
        createdAt: Date.now(),
      })
      .execute();

    const found = await checkDrive(db, store, { full: true });
    expect(summary(found.findings)).toEqual(
      [
        'folder-size /docs/',
        'hash-differs /docs/sub/b.txt',
        'missing-bytes /docs/a.txt',
        'size-differs /c.txt',
        'stray-bytes /docs/stray.bin',
        'stray-bytes trash/junk',
        `stray-bytes versions/${c}/v-stray`,
        `unfinished-journal move ${op}`,
        'used-space admin',
        `missing-bytes versions/${c}/${version}`,
      ].sort(),
    );
    // the figures of each detail, for the web app to say in the reader's language
    const facts = (kind: string) => found.findings.find((f) => f.kind === kind)?.facts;
    expect(facts('size-differs')).toEqual({ recorded: 8, actual: 'charlie'.length });
    expect(facts('folder-size')).toEqual({ recorded: 999, actual: expect.any(Number) });
    expect(facts('used-space')).toMatchObject({ recorded: 12345 });
    expect(facts('hash-differs')).toEqual({
      recorded: expect.stringMatching(/^[0-9a-f]{12}$/),
      actual: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(facts('unfinished-journal')).toEqual({ operation: 'move', since: expect.any(Number) });
    expect(facts('missing-bytes')).toBeUndefined();
    // without --full, a sample of 0 hashes nothing: the changed bytes go unseen
    const sampled = await checkDrive(db, store, { sample: 0 });
    expect(sampled.hashed).toBe(0);
    expect(sampled.findings.some((f) => f.kind === 'hash-differs')).toBe(false);

    // the operator's command: a table, a non-zero exit, and the repairs that lose nothing
    const repaired = await runCheck(t, '--repair', '--full');
    expect(repaired.code, repaired.out).toBe(1);
    expect(repaired.out).toMatch(/KIND\s+USER\s+ITEM\s+DETAIL\s+STATE/);
    expect(repaired.out).toMatch(/folder-size\s+admin\s+\/docs\/\s+.*repaired/);
    expect(repaired.out).toMatch(/missing-bytes\s+admin\s+\/docs\/a\.txt\s+.*named/);
    expect(repaired.out).toContain('10 found, 5 repaired, 5 left');

    const after = await checkDrive(db, store, { full: true });
    expect(summary(after.findings)).toEqual(
      [
        'hash-differs /docs/sub/b.txt',
        'missing-bytes /docs/a.txt',
        'size-differs /c.txt',
        `unfinished-journal move ${op}`,
        `missing-bytes versions/${c}/${version}`,
      ].sort(),
    );
    // the rows that lost their bytes are still there; the stray bytes were moved, not deleted
    expect(
      await db.selectFrom('file').select('id').where('name', '=', 'a.txt').execute(),
    ).toHaveLength(1);
    const lost = path.join(t.dataDir, 'lost+found');
    const [stamp] = fs.readdirSync(lost);
    const kept = path.join(lost, stamp!);
    expect(
      fs.readFileSync(path.join(kept, 'files', admin.userId, 'docs', 'stray.bin'), 'utf8'),
    ).toBe('nobody owns me');
    expect(fs.readFileSync(path.join(kept, 'trash', admin.userId, 'junk'), 'utf8')).toBe(
      'left behind',
    );
    expect(fs.readFileSync(path.join(kept, 'versions', admin.userId, c, 'v-stray'), 'utf8')).toBe(
      'a version nobody lists',
    );
    expect(fs.existsSync(path.join(tree, 'docs', 'stray.bin'))).toBe(false);
    // the repaired numbers are the rows' own
    const docsAfter = await db
      .selectFrom('file')
      .select('size')
      .where('id', '=', docs.id)
      .executeTakeFirstOrThrow();
    expect(Number(docsAfter.size)).toBe(docs.size);
  }, 60_000);
});
