import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDatabase } from '../src/db/index.ts';
import { leash } from './leash.ts';
import { freePort } from './free-port.ts';

/**
 * Starts a throwaway PostgreSQL cluster for the test run: initdb + pg_ctl from the machine's
 * PostgreSQL, run as the `postgres` user when we are root, listening on a free loopback port.
 */
export function pgBinDir(): string {
  const fromConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (fromConfig.status === 0 && fs.existsSync(path.join(fromConfig.stdout.trim(), 'initdb'))) {
    return fromConfig.stdout.trim();
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).sort((a, b) => Number(b) - Number(a))
    : [];
  for (const v of versions) {
    const dir = path.join(root, v, 'bin');
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  }
  throw new Error('PostgreSQL server binaries (initdb, pg_ctl) not found; install postgresql-15');
}

export default async function setup(project: TestProject): Promise<() => void> {
  const bin = pgBinDir();
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-pg-'));
  const dataDir = path.join(dir, 'data');
  const run = (cmd: string, args: string[]) => {
    const full = path.join(bin, cmd);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', full, ...args], { stdio: 'pipe' });
    else execFileSync(full, args, { stdio: 'pipe' });
  };
  if (asRoot) execFileSync('chown', ['postgres:postgres', dir]);
  run('initdb', ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--locale=C.UTF-8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  run('pg_ctl', ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  // a run stopped by a signal skips the teardown: the cluster goes with it all the same
  leash(Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]));
  const url = `postgres://postgres@127.0.0.1:${port}`;
  // one database migrated once for the run: each test app's database is a copy of it
  // (`create database … template`), which takes a fraction of running every migration again
  const admin = new pg.Client({ connectionString: `${url}/postgres` });
  await admin.connect();
  await admin.query(`create database ${PG_TEMPLATE}`);
  await admin.end();
  const template = openDatabase({ dataDir: dir, databaseUrl: `${url}/${PG_TEMPLATE}` });
  await migrateToLatest(template.db);
  await template.close();
  project.provide('pgUrl', url);
  return () => {
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
}

/** The migrated database every test database is copied from. */
export const PG_TEMPLATE = 'nimbus_migrated';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}
