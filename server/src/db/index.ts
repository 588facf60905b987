import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CamelCasePlugin,
  Kysely,
  Migrator,
  PostgresDialect,
  SqliteDialect,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type OperationNode,
  AliasNode,
  TableNode,
} from 'kysely';
import pg from 'pg';
import { Gate } from '../lib/gate.ts';
import { PostgresPresence, SoleProcess, type Presence } from './presence.ts';
import type { Database } from './schema.ts';
import { migrationProvider } from './migrations/index.ts';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface DbHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
  /** Which nodes sharing the database are alive (presence.ts). */
  presence: Presence;
  /** PostgreSQL: the connection pool's connections now (SQLite has one connection, no pool). */
  pool?: () => { total: number; idle: number; waiting: number };
}

// int8 (bigint) columns hold epoch milliseconds and byte counts: well inside 2^53.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

/** Where the database's background upkeep reports what it could not do. */
export interface DbLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

/** The SQLite database's file in the data folder. */
export const DB_FILE = 'nimbus.db';

export function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  log?: DbLog;
}): DbHandle {
  const upkeepFailed = (what: string) => (err: unknown) =>
    options.log?.warn({ err }, `database upkeep failed: ${what}`);
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    // no JIT compilation: it spends hundreds of milliseconds compiling a search over a large
    // drive that runs in tens without it (options in the URL still win)
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      options: '-c jit=off',
    });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool }),
      plugins: [new CamelCasePlugin()],
    });
    const presence = new PostgresPresence(options.databaseUrl, db, options.log);
    return {
      db,
      dialect: 'postgres',
      presence,
      close: async () => {
        await presence.close();
        await db.destroy();
      },
      pool: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, DB_FILE);
  const sqlite = new SQLite(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // the default page cache is 2 MB: a drive of a million files has indexes of hundreds of MB,
  // and inserts in random key order (ids are UUIDs) would read most pages from disk again
  sqlite.pragma(`cache_size = -${CACHE_KIB}`);
  // statistics sampled from at most this many index entries: ANALYZE stays in the milliseconds
  sqlite.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
  sqlite.pragma('optimize = 0x10002');
  // refreshes run one at a time; requests for one while another is queued are the same request
  const analyses = new Gate();
  let queued = false;
  const analyze = () => {
    if (queued) return;
    queued = true;
    setImmediate(() => {
      queued = false;
      void analyses.run('analyze', () =>
        // the file tree's table only: a table without indexes (the search index's shadow
        // tables) is counted by a full scan, which a big drive cannot afford every few seconds
        sql`analyze file`.execute(db).then(() => undefined, upkeepFailed('analyze file')),
      );
    });
  };
  const db: Db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: sqlite }),
    plugins: [
      new CamelCasePlugin(),
      new AnalyzeAfterBulkWrites('file', ANALYZE_FIRST_AFTER_ROWS, analyze),
    ],
  });
  // the planner's statistics follow the data: tables change shape as drives fill up
  const timer = setInterval(
    () => void sql`pragma optimize`.execute(db).catch(upkeepFailed('pragma optimize')),
    3600_000,
  );
  timer.unref();
  return {
    db,
    dialect: 'sqlite',
    presence: new SoleProcess(),
    close: async () => {
      clearInterval(timer);
      await analyses.run('analyze', async () => undefined);
      await sql`pragma optimize`.execute(db).catch(upkeepFailed('pragma optimize'));
      await db.destroy();
    },
  };
}

const ANALYSIS_LIMIT = 1000;
const CACHE_KIB = 64 * 1024;
const ANALYZE_FIRST_AFTER_ROWS = 10_000;

/**
 * SQLite plans a query from the statistics ANALYZE gathers; with none (a fresh database after a
 * big import, an index rebuild, a large copy) it may pick an index that reads a whole folder to
 * return its first page. This counts the rows written to one table and refreshes its statistics
 * after 10,000, then after twice as many each time: a bulk load of a million rows analyzes a
 * handful of times, not a hundred (each ANALYZE of a big table costs a fraction of a second).
 */
class AnalyzeAfterBulkWrites implements KyselyPlugin {
  private written = 0;
  private readonly writes = new WeakMap<object, true>();

  constructor(
    private readonly table: string,
    private threshold: number,
    private readonly analyze: () => void,
  ) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    const target =
      node.kind === 'InsertQueryNode'
        ? node.into
        : node.kind === 'UpdateQueryNode' || node.kind === 'DeleteQueryNode'
          ? tableOf(node.kind === 'UpdateQueryNode' ? node.table : node.from.froms[0])
          : undefined;
    if (target && target.table.identifier.name === this.table) this.writes.set(args.queryId, true);
    return node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const changed = args.result.numAffectedRows;
    if (this.writes.has(args.queryId) && changed !== undefined && changed > 0n) {
      this.written += Number(changed);
      if (this.written >= this.threshold) {
        this.written = 0;
        this.threshold *= 2;
        this.analyze();
      }
    }
    return Promise.resolve(args.result);
  }
}

function tableOf(node: OperationNode | undefined): TableNode | undefined {
  if (!node) return undefined;
  if (TableNode.is(node)) return node;
  if (AliasNode.is(node) && TableNode.is(node.node)) return node.node;
  return undefined;
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : JSON.stringify(error ?? '');
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${reason}`);
  }
}
