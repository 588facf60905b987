import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testConfig } from '../../src/config.ts';
import { backup, type BackupSummary, type Manifest } from '../../src/backup/backup.ts';
import { restore } from '../../src/backup/restore.ts';
import { call, dialect, makeTestApp, makeUser, setupAdmin, type TestApp } from '../harness.ts';
import { makeFolder, makeShare } from '../share-fixtures.ts';
import { uploadFile } from '../upload-client.ts';

const root = path.resolve(import.meta.dirname, '..', '..', '..');
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** An empty database for a restore (PostgreSQL), or none (SQLite keeps it in the data folder). */
async function emptyDatabaseUrl(): Promise<string | undefined> {
  if (dialect !== 'postgres') return undefined;
  const base = inject('pgUrl');
  const name = `r_${Math.random().toString(36).slice(2, 12)}`;
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  return `${base}/${name}`;
}

/** A command of the project run as its own process: its exit code and output. */
function cli(script: string, arg: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, arg], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

const cliEnv = (t: { dataDir: string; url?: string }) => ({
  NIMBUS_DATA_DIR: t.dataDir,
  ...(t.url ? { NIMBUS_DATABASE_URL: t.url } : {}),
});

describe('backup and restore', () => {
  let t: TestApp;
  let admin: { token: string; userId: string };
  let bob: { token: string; userId: string };
  let r: TestApp | undefined;
  let backupDir: string;
  let first: BackupSummary;
  let notes: string | undefined;
  let trashed: string | undefined;
  let share: { id: string };
  const before = new Map<string, string>();
  const target: { dataDir: string; url?: string } = { dataDir: '' };

  beforeAll(async () => {
    t = await makeTestApp();
    admin = await setupAdmin(t.app);
    bob = await makeUser(t.app, admin.token, { username: 'bob' });
  });
  afterAll(async () => {
    await r?.close();
    await t.close();
  });
  const upload = async (token: string, name: string, content: string, dir = '/') => {
    const done = await uploadFile(t.app, token, {
      name,
      content: Buffer.from(content),
      currentDirectory: dir,
    });
    const answer = done.merged ?? done.test;
    expect(answer?.body.code, answer?.body.message).toBe(0);
    return done.merged?.body.data?.file.id;
  };

  it('backs up a populated drive while uploads, renames and deletes go on', async () => {
    // ---- a populated drive: folders, files, a version, a share, a tag, two users ----------
    await makeFolder(t, admin.token, '/', 'docs');
    await makeFolder(t, admin.token, '/docs', 'deep');
    for (let i = 0; i < 4; i++) {
      await upload(admin.token, `f${i}.txt`, `file ${i} of docs`, '/docs');
      before.set(`/docs/f${i}.txt`, `file ${i} of docs`);
    }
    await upload(admin.token, 'inner.txt', 'deep inside', '/docs/deep');
    before.set('/docs/deep/inner.txt', 'deep inside');
    notes = await upload(admin.token, 'notes.txt', 'first words');
    await upload(admin.token, 'notes.txt', 'second words');
    before.set('/notes.txt', 'second words');
    await upload(bob.token, 'bob.txt', "bob's own");
    trashed = await upload(admin.token, 'old.txt', 'soon in the trash');
    await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: [trashed!] } });
    share = await makeShare(t, admin.token, { fileId: notes, expireDays: 30 });
    const tagged = await call(t.app, 'POST', '/setTag', {
      token: admin.token,
      body: { fileIds: [notes], tagList: [{ name: 'important' }], removeTagIds: [] },
    });
    expect(tagged.body.code, tagged.body.message).toBe(0);

    // ---- a backup while uploads, renames and deletes go on ---------------------------------
    let busy = true;
    let changes = 0;
    const churn = (async () => {
      for (let i = 0; busy; i++) {
        const id = await upload(admin.token, `churn${i}.txt`, `churn ${i}`, '/docs');
        await call(t.app, 'GET', '/rename', {
          token: admin.token,
          query: { id: id!, newFileName: `moved${i}.txt` },
        });
        if (i % 2 === 0)
          await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: [id!] } });
        changes++;
      }
    })();
    let changesDuring = 0;
    try {
      await expect.poll(() => changes, { timeout: 15_000 }).toBeGreaterThan(0);
      backupDir = tempDir('nimbus-backup-');
      first = await backup(t.config, backupDir);
      changesDuring = changes;
    } finally {
      busy = false;
      await churn;
    }
    expect(first.manifest.missing).toEqual([]);
    expect(first.copied).toBeGreaterThan(0);
    expect(changes).toBeGreaterThan(1);
    expect(changesDuring).toBeGreaterThan(0);
  });

  it('restores it into an empty data folder and database, and the app finds all of it', async () => {
    // ---- restore into an empty data folder and database, and start the app on them -------
    target.dataDir = tempDir('nimbus-restored-');
    target.url = await emptyDatabaseUrl();
    await restore(testConfig({ dataDir: target.dataDir, databaseUrl: target.url }), backupDir);
    r = await makeTestApp({ dataDir: target.dataDir, databaseUrl: target.url });
    const db = r.database.db;
    const users = await db.selectFrom('user').select('username').orderBy('username').execute();
    expect(users.map((u) => u.username)).toEqual(['admin', 'bob']);
    const files = await db
      .selectFrom('file')
      .innerJoin('user', 'user.id', 'file.userId')
      .select(['file.id', 'file.path', 'file.name', 'file.hash', 'file.trashId', 'user.username'])
      .where('file.isFolder', '=', 0)
      .execute();
    const { files: service } = r.app.services;
    const liveBytes = async (f: (typeof files)[number]) => {
      const chunks: Buffer[] = [];
      const place = service.placeOf({ id: '', username: f.username }, f);
      for await (const c of service.blobs.read(place)) chunks.push(c as Buffer);
      return Buffer.concat(chunks);
    };
    // every file of the snapshot, its bytes those its row names
    for (const [full, content] of before) {
      const row = files.find((f) => `${f.path}${f.name}` === full && f.trashId === null);
      expect(row, full).toBeDefined();
      expect((await liveBytes(row!)).toString()).toBe(content);
    }
    const byId = new Map(first.manifest.objects.map((o) => [o.id, o]));
    for (const f of files) {
      const object = byId.get(f.id);
      expect(object, `${f.path}${f.name}`).toBeDefined();
      const bytes = fs.readFileSync(path.join(r.dataDir, object!.path));
      expect(sha256(bytes)).toBe(f.hash);
      if (f.trashId === null) expect(sha256(await liveBytes(f))).toBe(f.hash);
    }
    expect(files.some((f) => f.id === trashed && f.trashId !== null)).toBe(true);
    const bob2 = files.find((f) => f.name === 'bob.txt')!;
    expect((await liveBytes(bob2)).toString()).toBe("bob's own");
    // the version, with its bytes
    const versions = await db.selectFrom('fileVersion').selectAll().execute();
    expect(versions.map((v) => v.fileId)).toContain(notes);
    for (const v of versions) {
      const object = byId.get(v.id)!;
      const stored = fs.readFileSync(path.join(r.dataDir, object.path));
      expect(sha256(gunzipSync(stored))).toBe(v.hash);
    }
    const history = await call<{ id: string }[]>(r.app, 'GET', '/history/list', {
      token: admin.token,
      query: { fileId: notes!, pageIndex: 1, pageSize: 10 },
    });
    // the sessions came along too: the same sign-in reads the history there
    expect(history.body.code, history.body.message).toBe(0);
    expect(history.body.data!.length).toBeGreaterThan(0);
    // the share and the tag
    const shares = await db.selectFrom('share').select(['id', 'fileId']).execute();
    expect(shares).toContainEqual({ id: share.id, fileId: notes });
    const tags = await db
      .selectFrom('fileTag')
      .innerJoin('tag', 'tag.id', 'fileTag.tagId')
      .select(['fileTag.fileId', 'tag.name'])
      .execute();
    expect(tags).toContainEqual({ fileId: notes, name: 'important' });
  });

  it('refuses to restore over a live installation, with a message saying why', async () => {
    const live = r!;
    // a live data folder is refused, and so is a database with users in an empty-looking one
    const again = restore(
      testConfig({ dataDir: live.dataDir, databaseUrl: target.url }),
      backupDir,
    );
    await expect(again).rejects.toThrow(
      /^the data folder .* is not empty \(\d+ files, e\.g\. .*\); restore only into an empty one$/,
    );
    const emptyDir = tempDir('nimbus-empty-');
    if (!target.url) {
      const database = new SQLite(path.join(live.dataDir, 'nimbus.db'), { readonly: true });
      await database.backup(path.join(emptyDir, 'nimbus.db'));
      database.close();
    }
    const refusedDb = restore(
      testConfig({ dataDir: emptyDir, databaseUrl: target.url }),
      backupDir,
    );
    await expect(refusedDb).rejects.toThrow(/the database already has 2 users/);

    // a blob changed in the backup: the restore says which, and leaves the target empty
    const tampered = tempDir('nimbus-tampered-');
    fs.cpSync(backupDir, tampered, { recursive: true });
    const victim = first.manifest.objects.find((o) => o.kind === 'file')!;
    const blob = path.join(tampered, 'blobs', victim.hash.slice(0, 2), victim.hash);
    fs.writeFileSync(blob, 'not what was backed up');
    const fresh = { dataDir: tempDir('nimbus-fresh-'), url: await emptyDatabaseUrl() };
    const bad = restore(testConfig({ dataDir: fresh.dataDir, databaseUrl: fresh.url }), tampered);
    await expect(bad).rejects.toThrow(`the bytes of ${victim.path} do not match their hash`);
    const left = fs
      .readdirSync(fresh.dataDir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile());
    expect(left).toEqual([]);
  });

  it('copies only the blobs it does not hold yet the next time (the command, as a process)', async () => {
    // ---- incremental: the command copies only what is new -----------------------------------
    await backup(t.config, backupDir);
    await upload(admin.token, 'new1.txt', 'brand new one');
    await upload(bob.token, 'new2.txt', 'brand new two');
    await upload(admin.token, 'same.txt', 'file 0 of docs'); // bytes the backup holds
    const source = { dataDir: t.dataDir, url: t.config.databaseUrl };
    const third = await cli('server/src/cli/backup.ts', backupDir, cliEnv(source));
    expect(third.code, third.out).toBe(0);
    expect(third.out).toMatch(/ 2 blobs copied /);
    const manifest = JSON.parse(
      fs.readFileSync(path.join(backupDir, 'manifest.json'), 'utf8'),
    ) as Manifest;
    const blobs = fs
      .readdirSync(path.join(backupDir, 'blobs'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile());
    expect(new Set(manifest.objects.map((o) => o.hash)).size).toBeLessThanOrEqual(blobs.length);
    expect(manifest.objects.some((o) => o.path.endsWith('new2.txt'))).toBe(true);
  });
});
