import { createHash } from 'node:crypto';
import { sql, type QueryExecutorProvider } from 'kysely';
import pg from 'pg';
import { newId } from '../lib/ids.ts';

/**
 * Which processes ("nodes") sharing the database are alive. Work a node leaves half done (an
 * intent of the crash journal, a chunk an upload request claimed) records the node; another node
 * undoes or takes it over only once that node is gone, never while it still works on it.
 */
export interface Presence {
  /** This process's name among the nodes; new at every start. */
  readonly node: string;
  /** Announce this node; resolves once the others can see it. */
  start(): Promise<void>;
  /** Of these recorded nodes, the ones gone (null: recorded before nodes were named). */
  gone(nodes: ReadonlyArray<string | null>): Promise<Set<string | null>>;
  close(): Promise<void>;
}

/**
 * SQLite: one process owns the database file (the job queue makes the same assumption), so every
 * node but this one is gone.
 */
export class SoleProcess implements Presence {
  readonly node = newId();

  async start(): Promise<void> {}

  async gone(nodes: ReadonlyArray<string | null>): Promise<Set<string | null>> {
    return new Set(nodes.filter((n) => n !== this.node));
  }

  async close(): Promise<void> {}
}

/** The first number of the two-number advisory locks the nodes hold ("NIMB"). */
const PRESENCE_CLASS = 0x4e494d42;

/** A node's second number: 31 bits of its name's hash (a collision only keeps a gone node alive). */
const lockKey = (node: string) =>
  createHash('sha256').update(node).digest().readUInt32BE(0) & 0x7fffffff;

/** Pause between attempts to win the connection back. */
const RECONNECT_MS = 1000;

export interface PresenceLog {
  error(details: object, message: string): void;
}

/**
 * PostgreSQL: each node holds an advisory lock on a connection of its own for as long as it runs.
 * PostgreSQL ends the lock with the connection, so a node killed outright is gone the moment its
 * socket closes, and a restart finds the previous process gone at once. While this node's
 * connection is down it tries again every second; the others see it gone meanwhile (and say so
 * in its log).
 */
export class PostgresPresence implements Presence {
  readonly node = newId();
  private client: pg.Client | null = null;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly url: string,
    private readonly db: QueryExecutorProvider,
    private readonly log?: PresenceLog,
  ) {}

  async start(): Promise<void> {
    if (this.client || this.closed) return;
    const client = new pg.Client({ connectionString: this.url });
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client, new Error('the connection ended')));
    await client.connect();
    await client.query('select pg_advisory_lock($1, $2)', [PRESENCE_CLASS, lockKey(this.node)]);
    this.client = client;
  }

  private lost(client: pg.Client, err: Error): void {
    if (this.closed || this.client !== client) return;
    this.client = null;
    this.log?.error({ err }, 'the node presence connection to PostgreSQL was lost: reconnecting');
    const again = () => {
      if (this.closed) return;
      this.start().catch((e: unknown) => {
        this.log?.error({ err: e }, 'the node presence could not reconnect');
        this.retry = setTimeout(again, RECONNECT_MS);
        this.retry.unref();
      });
    };
    this.retry = setTimeout(again, RECONNECT_MS);
    this.retry.unref();
  }

  async gone(nodes: ReadonlyArray<string | null>): Promise<Set<string | null>> {
    if (nodes.length === 0) return new Set();
    const held = await sql<{ key: string }>`
      select objid::text as key from pg_locks
       where locktype = 'advisory' and classid = ${PRESENCE_CLASS} and objsubid = 2 and granted`.execute(
      this.db,
    );
    const alive = new Set(held.rows.map((r) => Number(r.key)));
    return new Set(nodes.filter((n) => n === null || !alive.has(lockKey(n))));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = null;
    await client?.end();
  }
}
