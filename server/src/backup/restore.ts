import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.ts';
import { DB_FILE } from '../db/index.ts';
import {
  BackupError,
  MANIFEST,
  MANIFEST_FORMAT,
  copyHashing,
  hashFile,
  type Manifest,
  type Progress,
} from './backup.ts';

/** What a data folder may hold and still count as empty: a first start's database and key. */
const FIRST_START_FILES = new Set([DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`, 'secret.key']);

async function filesBelow(dir: string, top = true): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const found: string[] = [];
  for (const e of entries) {
    if (e.isDirectory()) found.push(...(await filesBelow(path.join(dir, e.name), false)));
    else if (!(top && FIRST_START_FILES.has(e.name))) found.push(path.join(dir, e.name));
  }
  return found;
}

async function sqliteUsers(file: string): Promise<number> {
  if (!fs.existsSync(file)) return 0;
  const database = new SQLite(file, { readonly: true });
  try {
    const table = database
      .prepare(`select 1 from sqlite_master where type = 'table' and name = 'user'`)
      .get();
    if (!table) return 0;
    return (database.prepare(`select count(*) as n from "user"`).get() as { n: number }).n;
  } finally {
    database.close();
  }
}

async function postgresUsers(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ t: string | null }>(`select to_regclass('"user"') as t`);
    if (!rows[0]?.t) return 0;
    const count = await client.query<{ n: string }>(`select count(*) as n from "user"`);
    return Number(count.rows[0]!.n);
  } finally {
    await client.end();
  }
}

function pgRestore(url: string, file: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const args = ['--clean', '--if-exists', '--no-owner', '--no-acl', '--exit-on-error'];
    const child = spawn('pg_restore', [...args, `--dbname=${url}`, file], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new BackupError(`pg_restore failed: ${errors.trim()}`)),
    );
  });
}

/** The data folder path of a manifest entry, never outside the folder. */
function inside(dataDir: string, relative: string): string {
  const to = path.resolve(dataDir, ...relative.split('/'));
  if (!to.startsWith(dataDir + path.sep))
    throw new BackupError(`bad path in manifest: ${relative}`);
  return to;
}

export interface RestoreSummary {
  manifest: Manifest;
  objects: number;
  bytes: number;
}

/**
 * Restore the backup in `source` into the data folder and database of `config`, both of which
 * must be empty (a data folder a first start made, with no users in its database, counts as
 * empty). Every blob's and the snapshot's SHA-256 is checked as it is copied: any difference
 * stops the restore with an error.
 */
export async function restore(
  config: Config,
  source: string,
  progress: Progress = () => {},
): Promise<RestoreSummary> {
  source = path.resolve(source);
  const dataDir = path.resolve(config.dataDir);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await fsp.readFile(path.join(source, MANIFEST), 'utf8')) as Manifest;
  } catch {
    throw new BackupError(`${source} holds no finished backup (no readable ${MANIFEST})`);
  }
  if (manifest.format !== MANIFEST_FORMAT)
    throw new BackupError(`unknown backup format ${String(manifest.format)}`);
  const postgres = /^postgres(ql)?:\/\//.test(config.databaseUrl ?? '');
  if (manifest.dialect !== (postgres ? 'postgres' : 'sqlite'))
    throw new BackupError(
      `this backup holds a ${manifest.dialect} database; set NIMBUS_DATABASE_URL to match`,
    );

  // ---- never over a live installation ---------------------------------------------------
  const present = await filesBelow(dataDir);
  if (present.length > 0)
    throw new BackupError(
      `the data folder ${dataDir} is not empty (${present.length} files, e.g. ${path.relative(dataDir, present[0]!)}); restore only into an empty one`,
    );
  const users = postgres
    ? await postgresUsers(config.databaseUrl!)
    : await sqliteUsers(path.join(dataDir, DB_FILE));
  if (users > 0)
    throw new BackupError(
      `the database already has ${users} users; restore only into an empty database`,
    );

  // ---- the snapshot, checked before it is used -------------------------------------------
  const dbBackup = path.join(source, manifest.database.file);
  const db = await hashFile(dbBackup);
  if (db.hash !== manifest.database.hash)
    throw new BackupError(
      `the database snapshot ${manifest.database.file} does not match its hash`,
    );
  await fsp.mkdir(path.join(dataDir, 'tmp'), { recursive: true });

  // ---- the bytes, each checked as it is copied --------------------------------------------
  const total = manifest.objects.length;
  let done = 0;
  let bytes = 0;
  progress(done, total);
  // a restore that stops half-way takes back what it placed: the target is empty again
  const placed: string[] = [];
  const undo = async () => {
    for (const file of placed) await fsp.rm(file, { force: true });
    await fsp.rm(path.join(dataDir, 'tmp'), { recursive: true, force: true });
  };
  try {
    await placeObjects();
  } catch (err) {
    await undo();
    throw err;
  }
  async function placeObjects() {
    for (const object of manifest.objects) {
      const to = inside(dataDir, object.path);
      const tmp = path.join(dataDir, 'tmp', `restore-${done}`);
      const blob = path.join(source, 'blobs', object.hash.slice(0, 2), object.hash);
      let got: { hash: string; size: number };
      try {
        got = await copyHashing(blob, tmp);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT')
          throw new BackupError(`the backup lacks the bytes of ${object.path} (${object.hash})`);
        throw err;
      }
      if (got.hash !== object.hash || got.size !== object.size)
        throw new BackupError(`the bytes of ${object.path} do not match their hash ${object.hash}`);
      await fsp.mkdir(path.dirname(to), { recursive: true });
      placed.push(to);
      await fsp.rename(tmp, to);
      if (object.kind === 'key') await fsp.chmod(to, 0o600);
      bytes += got.size;
      progress(++done, total);
    }

    // ---- the database last: a data folder with users has all its bytes ----------------------
    if (postgres) await pgRestore(config.databaseUrl!, dbBackup);
    else {
      const tmp = path.join(dataDir, 'tmp', 'restore.db');
      const copied = await copyHashing(dbBackup, tmp);
      if (copied.hash !== manifest.database.hash)
        throw new BackupError('the database snapshot changed while it was copied');
      for (const suffix of ['-wal', '-shm'])
        await fsp.rm(path.join(dataDir, DB_FILE + suffix), { force: true });
      placed.push(path.join(dataDir, DB_FILE));
      await fsp.rename(tmp, path.join(dataDir, DB_FILE));
    }
  }
  await fsp.rm(path.join(dataDir, 'tmp'), { recursive: true, force: true });
  return { manifest, objects: total, bytes };
}
