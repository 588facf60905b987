import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { Migrator } from 'kysely';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import { buildApp } from '../src/app.ts';
import { testConfig, type Config } from '../src/config.ts';
import { DB_FILE, migrateToLatest, openDatabase, type DbHandle } from '../src/db/index.ts';
import { migrationProvider } from '../src/db/migrations/index.ts';
import type { Envelope } from '@nimbus/contract';
import { PG_TEMPLATE } from './pg-global-setup.ts';

/** The dialect this test project runs on: every database test runs on both. */
export const dialect = (process.env.NIMBUS_TEST_DIALECT ?? 'sqlite') as 'sqlite' | 'postgres';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: DbHandle;
  dataDir: string;
  close(): Promise<void>;
  /** Open the same database and data folder again (a restart). */
  restart(): Promise<TestApp>;
}

/**
 * A new PostgreSQL database: empty, or (`migrated`) a copy of the one the run migrated once
 * (pg-global-setup.ts), as a first start would leave it.
 */
async function freshDatabaseUrl(migrated = false): Promise<string> {
  const base = inject('pgUrl');
  const name = `t_${Math.random().toString(36).slice(2, 12)}`;
  const client = new pg.Client({ connectionString: `${base}/postgres` });
  await client.connect();
  await client.query(`create database ${name}${migrated ? ` template ${PG_TEMPLATE}` : ''}`);
  await client.end();
  return `${base}/${name}`;
}

/**
 * A SQLite database file migrated once per test file: each app's data folder starts with a
 * copy of it, which takes a fraction of running every migration again.
 */
let sqliteTemplate: Promise<string> | undefined;
function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-migrated-'));
    createdDirs.push(dir);
    const database = openDatabase({ dataDir: dir });
    await migrateToLatest(database.db);
    await database.close();
    return path.join(dir, DB_FILE);
  })();
  return sqliteTemplate;
}

/**
 * A fresh database and data folder migrated only up to `migration`, as an older Nimbus left
 * them: a test writes rows of that time, then starts an app on them (`testConfig({ dataDir,
 * databaseUrl: url })`), which runs the remaining migrations.
 */
export async function databaseAt(
  migration: string,
): Promise<{ database: DbHandle; dataDir: string; url?: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-upgrade-'));
  createdDirs.push(dataDir);
  const url = dialect === 'postgres' ? await freshDatabaseUrl() : undefined;
  const database = openDatabase({ dataDir, databaseUrl: url });
  const migrator = new Migrator({ db: database.db, provider: migrationProvider });
  const { error } = await migrator.migrateTo(migration);
  if (error) throw error as Error;
  return { database, dataDir, url };
}

/** A whole Nimbus app on a fresh database and data folder. */
const createdDirs: string[] = [];
// the data folders of this file's apps go when its tests are done
afterAll(() => {
  for (const dir of createdDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

export async function makeTestApp(overrides: Partial<Config> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-test-'));
  createdDirs.push(dataDir);
  const fresh = overrides.dataDir === undefined && overrides.databaseUrl === undefined;
  const databaseUrl =
    dialect === 'postgres' && overrides.databaseUrl === undefined
      ? await freshDatabaseUrl(true)
      : undefined;
  // a fresh data folder starts with a migrated database; one a test brings keeps its own
  if (dialect === 'sqlite' && fresh)
    fs.copyFileSync(await migratedSqliteFile(), path.join(dataDir, DB_FILE));
  const config = testConfig({ dataDir, databaseUrl, ...overrides });
  return start(config, config.dataDir);
}

async function start(config: Config, dataDir: string): Promise<TestApp> {
  const database = openDatabase(config);
  const app = await buildApp({
    config,
    database,
    logger: process.env.NIMBUS_TEST_LOG ? { level: 'error' } : false,
  });
  const handle: TestApp = {
    app,
    config,
    database,
    dataDir,
    async close() {
      await app.close();
      await database.close();
    },
    async restart() {
      await handle.close();
      return start(config, config.dataDir);
    },
  };
  return handle;
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  query?: Record<string, string | string[] | number | boolean>;
  headers?: Record<string, string>;
}

export interface CallResult<T = unknown> {
  status: number;
  body: Envelope<T>;
  headers: LightMyRequestResponse['headers'];
}

/** One API call through Fastify's inject; the envelope parsed. */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const query: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(options.query ?? {})) {
    query[k] = Array.isArray(v) ? v.map(String) : String(v);
  }
  const request: InjectOptions = {
    method,
    url: `/api${url}`,
    query,
    headers: { ...(options.token ? { 'nimbus-token': options.token } : {}), ...options.headers },
  };
  if (options.body !== undefined) request.payload = options.body as InjectOptions['payload'];
  const res = await app.inject(request);
  let body: Envelope<T>;
  try {
    body = res.json();
  } catch {
    body = { code: Number.NaN, message: res.body };
  }
  return { status: res.statusCode, body, headers: res.headers };
}

export const ADMIN = { username: 'admin', password: 'admin-secret' } as const;

/** Initialize the drive and sign in as its creator. */
export async function setupAdmin(app: FastifyInstance): Promise<{ token: string; userId: string }> {
  const init = await call(app, 'POST', '/public/initialization', { body: ADMIN });
  if (init.body.code !== 0) throw new Error(`initialization failed: ${init.body.message}`);
  return login(app, ADMIN.username, ADMIN.password);
}

export async function login(
  app: FastifyInstance,
  username: string,
  password: string,
  rememberMe = false,
): Promise<{ token: string; userId: string }> {
  const res = await call<{ 'nimbus-token': string; userId: string }>(app, 'POST', '/login', {
    body: { username, password, rememberMe },
  });
  if (res.body.code !== 0 || !res.body.data) throw new Error(`login failed: ${res.body.message}`);
  return { token: res.body.data['nimbus-token'], userId: res.body.data.userId };
}

/**
 * The setup most API test files open with: a test app on a fresh database and its administrator
 * signed in, made before each test (or once for the file with `once`) and closed after it. The
 * two objects returned stay the same; each setup gives them the new app's and session's fields,
 * so a file takes them apart once: `const { t, admin } = useAdminApp();`. A file's own
 * `beforeEach` after this line runs once they are set. `t.restart()` restarts in place;
 * `renew(config)` closes the app and puts a fresh one with a new administrator in its stead.
 */
export function useAdminApp(options: { once?: boolean; config?: Partial<Config> } = {}): {
  t: TestApp;
  admin: { token: string; userId: string };
  renew: (config?: Partial<Config>) => Promise<void>;
} {
  const t = {} as TestApp;
  const admin = { token: '', userId: '' };
  const adopt = (handle: TestApp): TestApp =>
    Object.assign(t, handle, { restart: async () => adopt(await handle.restart()) });
  const setup = async (config?: Partial<Config>) => {
    adopt(await makeTestApp({ ...options.config, ...config }));
    Object.assign(admin, await setupAdmin(t.app));
  };
  (options.once ? beforeAll : beforeEach)(() => setup());
  (options.once ? afterAll : afterEach)(() => t.close());
  return {
    t,
    admin,
    renew: async (config) => {
      await t.close();
      await setup(config);
    },
  };
}

/** Builder: an ordinary user, signed in. */
export async function makeUser(
  app: FastifyInstance,
  adminToken: string,
  fields: { username?: string; password?: string; quota?: number } = {},
): Promise<{ token: string; userId: string; username: string; password: string }> {
  const username = fields.username ?? `user${Math.random().toString(36).slice(2, 8)}`;
  const password = fields.password ?? 'user-secret';
  const res = await call(app, 'POST', '/user/add', {
    token: adminToken,
    body: { username, password, quota: fields.quota ?? 1 },
  });
  if (res.body.code !== 0) throw new Error(`add user failed: ${res.body.message}`);
  const session = await login(app, username, password);
  return { ...session, username, password };
}

/** A file put straight into the user's tree and indexed, as a finished upload would leave it. */
export async function putFile(
  t: TestApp,
  owner: { userId: string; username: string },
  folderPath: string,
  name: string,
  content: Buffer | string,
): Promise<string> {
  const { files } = t.app.services;
  const bytes = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
  const { createHash } = await import('node:crypto');
  return files.withLock(owner.userId, async () => {
    const parent = await files.resolveFolder(owner.userId, folderPath);
    await files.blobs.write(files.blobs.item(owner.username, parent.prefix, name), bytes);
    const row = await files.insertFile(
      { id: owner.userId, username: owner.username },
      parent,
      name,
      {
        size: bytes.length,
        hash: createHash('sha256').update(bytes).digest('hex'),
      },
    );
    return row.id;
  });
}
