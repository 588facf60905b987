import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.ts';
import { DB_FILE } from '../db/index.ts';
import { LocalStore } from '../storage/local-store.ts';
import type { Place } from '../storage/blob-store.ts';

/**
 * A backup folder: `manifest.json` (written last: a folder without one holds no finished
 * backup), the database snapshot (`database.sqlite` or `database.pgdump`) and `blobs/`, every
 * stored byte by its SHA-256 (`blobs/ab/abcd…`), shared by every backup taken into the folder.
 */
export const MANIFEST = 'manifest.json';
export const MANIFEST_FORMAT = 1;

export type ObjectKind = 'file' | 'version' | 'key';

export interface ManifestObject {
  kind: ObjectKind;
  /** The file row's or version's id; the file name for the key. */
  id: string;
  /** Where the bytes go, relative to the data folder (`/` separated). */
  path: string;
  /** SHA-256 of the stored bytes (a version's are gzip-compressed). */
  hash: string;
  size: number;
}

export interface Manifest {
  format: number;
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  database: { file: string; hash: string; size: number };
  objects: ManifestObject[];
  /** Rows of the snapshot whose bytes were gone (deleted for good) before they could be read. */
  missing: { kind: ObjectKind; id: string; path: string }[];
}

export interface BackupSummary {
  manifest: Manifest;
  /** Blobs copied into the backup by this run. */
  copied: number;
  /** Objects whose blob the backup already held. */
  reused: number;
  bytesCopied: number;
}

export type Progress = (done: number, total: number) => void;

export class BackupError extends Error {}

const isPostgres = (config: Config) => /^postgres(ql)?:\/\//.test(config.databaseUrl ?? '');

/** A row query on one connection: `?` placeholders on both dialects. */
type Query = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

function pgQuery(client: pg.Client): Query {
  return async (text, params = []) => {
    let n = 0;
    const result = await client.query(
      text.replace(/\?/g, () => `$${++n}`),
      params,
    );
    return result.rows as Record<string, unknown>[];
  };
}

function sqliteQuery(database: SQLite.Database): Query {
  return async (text, params = []) =>
    database.prepare(text).all(...params) as Record<string, unknown>[];
}

interface FileFact {
  id: string;
  userId: string;
  username: string;
  path: string;
  name: string;
  hash: string | null;
  size: number;
  trashId: string | null;
}

interface VersionFact {
  id: string;
  fileId: string;
  userId: string;
  storedSize: number;
}

const FILE_COLUMNS = `f.id, f.user_id, u.username, f.path, f.name, f.hash, f.size, f.trash_id`;

function toFile(r: Record<string, unknown>): FileFact {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    username: String(r.username),
    path: String(r.path),
    name: String(r.name),
    hash: typeof r.hash === 'string' ? r.hash : null,
    size: Number(r.size),
    trashId: typeof r.trash_id === 'string' ? r.trash_id : null,
  };
}

async function snapshotFacts(query: Query) {
  const files = (
    await query(
      `select ${FILE_COLUMNS} from file f join "user" u on u.id = f.user_id where f.is_folder = 0`,
    )
  ).map(toFile);
  // the top of each trashed subtree: the bytes below it keep their place relative to it
  const trashRoots = new Map<string, { path: string; name: string }>();
  for (const r of await query(
    `select id, path, name from file where trash_id is not null and trash_id = id`,
  ))
    trashRoots.set(String(r.id), { path: String(r.path), name: String(r.name) });
  const versions: VersionFact[] = (
    await query(`select id, file_id, user_id, stored_size from file_version`)
  ).map((r) => ({
    id: String(r.id),
    fileId: String(r.file_id),
    userId: String(r.user_id),
    storedSize: Number(r.stored_size),
  }));
  return { files, trashRoots, versions };
}

/** Where a file row's bytes are in the local store. */
function placeOfFile(
  store: LocalStore,
  file: FileFact,
  trashRoots: Map<string, { path: string; name: string }>,
): Place | undefined {
  if (file.trashId === null) return store.item(file.username, file.path, file.name);
  if (file.trashId === file.id) return store.trashed(file.username, file.id);
  const root = trashRoots.get(file.trashId);
  if (!root) return undefined;
  const rootFull = `${root.path}${root.name}/`;
  const full = `${file.path}${file.name}`;
  if (!full.startsWith(rootFull)) return undefined;
  let at = store.trashed(file.username, file.trashId);
  for (const name of full.slice(rootFull.length).split('/')) at = store.child(at, name);
  return at;
}

function blobPath(target: string, hash: string): string {
  return path.join(target, 'blobs', hash.slice(0, 2), hash);
}

async function exists(file: string): Promise<boolean> {
  try {
    await fsp.access(file);
    return true;
  } catch {
    return false;
  }
}

/** Copy `from` to `to` while hashing; the SHA-256 and size of what was copied. */
export async function copyHashing(
  from: string,
  to: string,
): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(fs.createReadStream(from), tap, fs.createWriteStream(to));
  return { hash: hash.digest('hex'), size };
}

export async function hashFile(file: string): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of fs.createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { hash: hash.digest('hex'), size };
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new BackupError(`${command} failed (${code}): ${errors.trim()}`)),
    );
  });
}

async function readManifest(folder: string): Promise<Manifest | undefined> {
  try {
    return JSON.parse(await fsp.readFile(path.join(folder, MANIFEST), 'utf8')) as Manifest;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Back up the database and every stored byte it points at into `target`, while the drive keeps
 * serving. The database is copied first, as one consistent snapshot (SQLite's online backup;
 * pg_dump on an exported snapshot, the rows read in the same transaction); then each file and
 * version of the snapshot is copied by its hash, once per backup folder. A file renamed, moved
 * to the trash or rewritten after the snapshot is found by its id or its hash in the live
 * database; one deleted for good in between is listed as missing.
 */
export async function backup(
  config: Config,
  target: string,
  progress: Progress = () => {},
): Promise<BackupSummary> {
  target = path.resolve(target);
  const dataDir = path.resolve(config.dataDir);
  if (target === dataDir || target.startsWith(dataDir + path.sep))
    throw new BackupError('the backup folder must be outside the data folder');
  await fsp.mkdir(path.join(target, 'blobs', 'tmp'), { recursive: true });
  const previous = await readManifest(target);
  const store = new LocalStore(dataDir);
  const postgres = isPostgres(config);
  const dbFile = postgres ? 'database.pgdump' : 'database.sqlite';
  const dbTmp = path.join(target, `${dbFile}.partial`);

  // ---- the database snapshot, and the rows it holds -----------------------------------
  let facts: Awaited<ReturnType<typeof snapshotFacts>>;
  let live: Query;
  let closeLive: () => Promise<void>;
  if (postgres) {
    const url = config.databaseUrl!;
    const snap = new pg.Client({ connectionString: url });
    await snap.connect();
    try {
      await snap.query('begin isolation level repeatable read read only');
      const { rows } = await snap.query<{ id: string }>('select pg_export_snapshot() as id');
      await fsp.rm(dbTmp, { force: true });
      const dump = run('pg_dump', [
        '--format=custom',
        '--no-owner',
        '--no-acl',
        `--snapshot=${rows[0]!.id}`,
        `--file=${dbTmp}`,
        `--dbname=${url}`,
      ]);
      facts = await snapshotFacts(pgQuery(snap));
      await dump;
      await snap.query('commit');
    } finally {
      await snap.end();
    }
    const liveClient = new pg.Client({ connectionString: url });
    await liveClient.connect();
    live = pgQuery(liveClient);
    closeLive = () => liveClient.end();
  } else {
    const dbPath = path.join(dataDir, DB_FILE);
    if (!fs.existsSync(dbPath)) throw new BackupError(`no database at ${dbPath}`);
    const source = new SQLite(dbPath, { fileMustExist: true });
    source.pragma('busy_timeout = 5000');
    await fsp.rm(dbTmp, { force: true });
    await source.backup(dbTmp);
    const snapshot = new SQLite(dbTmp, { readonly: true });
    try {
      facts = await snapshotFacts(sqliteQuery(snapshot));
    } finally {
      snapshot.close();
    }
    live = sqliteQuery(source);
    closeLive = async () => void source.close();
  }

  // ---- the bytes -------------------------------------------------------------------------
  const relative = (at: string) => path.relative(dataDir, at).split(path.sep).join('/');
  const known = new Map<string, string>();
  for (const o of previous?.objects ?? []) known.set(`${o.kind}:${o.id}:${o.size}`, o.hash);
  const objects: ManifestObject[] = [];
  const missing: Manifest['missing'] = [];
  let copied = 0;
  let reused = 0;
  let bytesCopied = 0;
  const total = facts.files.length + facts.versions.length;
  let done = 0;

  /** Copy the first of `places` whose bytes are there (and match `expected` when known). */
  const take = async (places: string[], expected: string | null) => {
    for (const at of places) {
      const tmp = path.join(target, 'blobs', 'tmp', `${process.pid}-${copied}-${Date.now()}`);
      try {
        const got = await copyHashing(at, tmp);
        if (expected !== null && got.hash !== expected) continue;
        const to = blobPath(target, got.hash);
        if (await exists(to)) reused++;
        else {
          await fsp.mkdir(path.dirname(to), { recursive: true });
          await fsp.rename(tmp, to);
          copied++;
          bytesCopied += got.size;
        }
        return got;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'ENOENT' && code !== 'EISDIR' && code !== 'ENOTDIR') throw err;
      } finally {
        await fsp.rm(tmp, { force: true });
      }
    }
    return undefined;
  };

  try {
    progress(done, total);
    for (const file of facts.files) {
      const at = placeOfFile(store, file, facts.trashRoots);
      const rel = at ? relative(at) : '';
      // content addressed: bytes the backup holds are not read again
      if (file.hash !== null && (await exists(blobPath(target, file.hash)))) {
        objects.push({ kind: 'file', id: file.id, path: rel, hash: file.hash, size: file.size });
        reused++;
      } else {
        let got = at ? await take([at], file.hash) : undefined;
        if (!got) {
          // changed since the snapshot: the same row elsewhere now, or the same bytes
          const rows = (
            await live(
              `select ${FILE_COLUMNS} from file f join "user" u on u.id = f.user_id
               where f.is_folder = 0 and (f.id = ?${file.hash !== null ? ' or f.hash = ?' : ''})`,
              file.hash !== null ? [file.id, file.hash] : [file.id],
            )
          ).map(toFile);
          const roots = new Map(facts.trashRoots);
          for (const r of await live(
            `select id, path, name from file where trash_id is not null and trash_id = id`,
          ))
            roots.set(String(r.id), { path: String(r.path), name: String(r.name) });
          const places = rows.flatMap((r) => placeOfFile(store, r, roots) ?? []);
          got = await take(places, file.hash);
        }
        if (got && at) objects.push({ kind: 'file', id: file.id, path: rel, ...got });
        else missing.push({ kind: 'file', id: file.id, path: rel });
      }
      progress(++done, total);
    }
    for (const version of facts.versions) {
      const at = store.version(version.userId, version.fileId, version.id);
      const rel = relative(at);
      const hash = known.get(`version:${version.id}:${version.storedSize}`);
      if (hash && (await exists(blobPath(target, hash)))) {
        objects.push({
          kind: 'version',
          id: version.id,
          path: rel,
          hash,
          size: version.storedSize,
        });
        reused++;
      } else {
        const got = await take([at], null);
        if (got) objects.push({ kind: 'version', id: version.id, path: rel, ...got });
        else missing.push({ kind: 'version', id: version.id, path: rel });
      }
      progress(++done, total);
    }
    // the key that seals secrets at rest, when it is a file of the data folder
    const keyFile = path.join(dataDir, 'secret.key');
    const key = await take([keyFile], null);
    if (key) objects.push({ kind: 'key', id: 'secret.key', path: 'secret.key', ...key });
  } finally {
    await closeLive();
  }

  // ---- finished: the snapshot and the manifest take their places --------------------------
  const db = await hashFile(dbTmp);
  await fsp.rename(dbTmp, path.join(target, dbFile));
  await fsp.rm(path.join(target, postgres ? 'database.sqlite' : 'database.pgdump'), {
    force: true,
  });
  const manifest: Manifest = {
    format: MANIFEST_FORMAT,
    createdAt: new Date().toISOString(),
    dialect: postgres ? 'postgres' : 'sqlite',
    database: { file: dbFile, ...db },
    objects,
    missing,
  };
  const manifestTmp = path.join(target, `${MANIFEST}.partial`);
  await fsp.writeFile(manifestTmp, JSON.stringify(manifest, null, 1));
  await fsp.rename(manifestTmp, path.join(target, MANIFEST));
  await fsp.rm(path.join(target, 'blobs', 'tmp'), { recursive: true, force: true });
  return { manifest, copied, reused, bytesCopied };
}
