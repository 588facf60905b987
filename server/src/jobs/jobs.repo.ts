import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { Db } from '../db/index.ts';
import type { Database, JobTable } from '../db/schema.ts';
import { ACTIVE_JOB_STATES, FINISHED_JOB_STATES, type JobState } from './queue.ts';

export type JobRow = Selectable<JobTable>;
/** A job with its owner's name (the users service knows names; the jobs table knows ids). */
export type JobWithUser = JobRow & { username: string | null };

/** The predicate of the unique index on active keys, as migration 018 wrote it (an insert must
 * name it for the database to find the index). */
const ACTIVE_KEY_PREDICATE = sql<boolean>`state in ('queued', 'running') and dedupe_key is not null`;

/** Job queries only. Every state change is conditional on the state it expects. */
export class JobsRepo {
  constructor(private readonly db: Db) {}

  /** Stores a job; false when it has a key that a queued or running job of its type holds. */
  async insert(row: Insertable<JobTable>, trx: Kysely<Database> = this.db): Promise<boolean> {
    let q = trx.insertInto('job').values(row);
    if (row.dedupeKey != null)
      q = q.onConflict((oc) =>
        oc.columns(['type', 'dedupeKey']).where(ACTIVE_KEY_PREDICATE).doNothing(),
      );
    const result = await q.executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 1n) === 1;
  }

  /** The queued or running job of a type that holds a key. */
  activeByKey(
    type: string,
    key: string,
    trx: Kysely<Database> = this.db,
  ): Promise<JobRow | undefined> {
    return trx
      .selectFrom('job')
      .selectAll()
      .where('type', '=', type)
      .where('dedupeKey', '=', key)
      .where('state', 'in', ACTIVE_JOB_STATES)
      .executeTakeFirst();
  }

  find(id: string): Promise<JobRow | undefined> {
    return this.db.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirst();
  }

  activeOf(userId: string): Promise<JobRow[]> {
    return this.db
      .selectFrom('job')
      .selectAll()
      .where('userId', '=', userId)
      .where('state', 'in', ACTIVE_JOB_STATES)
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  }

  /** Every user's queued and running jobs of a type, oldest first; a page of them when asked. */
  activeOfType(type: string, page?: { offset: number; limit: number }): Promise<JobRow[]> {
    let q = this.db
      .selectFrom('job')
      .selectAll()
      .where('type', '=', type)
      .where('state', 'in', ACTIVE_JOB_STATES)
      .orderBy('createdAt')
      .orderBy('id');
    if (page) q = q.limit(page.limit).offset(page.offset);
    return q.execute();
  }

  async countActive(type: string): Promise<number> {
    const row = await this.db
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('type', '=', type)
      .where('state', 'in', ACTIVE_JOB_STATES)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /** How many jobs each type has in each of these states (one grouped query). */
  async countsByTypeAndState(
    states: readonly JobRow['state'][],
  ): Promise<Array<{ type: string; state: JobRow['state']; count: number }>> {
    const rows = await this.db
      .selectFrom('job')
      .select(['type', 'state', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('state', 'in', [...states])
      .groupBy(['type', 'state'])
      .execute();
    return rows.map((r) => ({ type: r.type, state: r.state, count: Number(r.n) }));
  }

  /** Whether a job of a type is in one of these states (for one user, when given). */
  async exists(
    type: string,
    filter: { userId?: string; states: readonly JobState[] },
  ): Promise<boolean> {
    let q = this.db
      .selectFrom('job')
      .select('id')
      .where('type', '=', type)
      .where('state', 'in', filter.states);
    if (filter.userId !== undefined) q = q.where('userId', '=', filter.userId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  /** Queued jobs of a type that may run now, oldest first. */
  async runnable(type: string, now: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('job')
      .select('id')
      .where('state', '=', 'queued')
      .where('type', '=', type)
      .where('runAt', '<=', now)
      .orderBy('createdAt')
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Takes a queued job for a worker; undefined when another worker took it first. */
  async claim(
    id: string,
    workerId: string,
    now: number,
    leaseUntil: number,
  ): Promise<JobRow | undefined> {
    const result = await this.db
      .updateTable('job')
      .set((eb) => ({
        state: 'running',
        workerId,
        leaseUntil,
        attempts: eb('attempts', '+', 1),
        startedAt: now,
        updatedAt: now,
      }))
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return this.find(id);
  }

  /** Changes a job this worker runs; false when it is no longer this worker's running job. */
  async updateOwned(id: string, workerId: string, fields: Updateable<JobTable>): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set(fields)
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('workerId', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives a job back to the queue without counting the run (a graceful stop interrupted it). */
  async release(id: string, workerId: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set((eb) => ({
        state: 'queued',
        workerId: null,
        leaseUntil: null,
        attempts: eb('attempts', '-', 1),
        runAt: now,
        updatedAt: now,
      }))
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('workerId', '=', workerId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async renewLeases(workerId: string, leaseUntil: number): Promise<void> {
    await this.db
      .updateTable('job')
      .set({ leaseUntil })
      .where('workerId', '=', workerId)
      .where('state', '=', 'running')
      .execute();
  }

  /** Of the given jobs, those that are no longer running for this worker (cancelled, taken over). */
  async lost(ids: string[], workerId: string): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('job')
      .select(['id', 'state', 'workerId'])
      .where('id', 'in', ids)
      .execute();
    const still = new Set(
      rows.filter((r) => r.state === 'running' && r.workerId === workerId).map((r) => r.id),
    );
    return ids.filter((id) => !still.has(id));
  }

  /** Running jobs whose worker is gone: its lease ran out, or every one of them (`all`). */
  orphans(now: number, all: boolean): Promise<JobRow[]> {
    let q = this.db.selectFrom('job').selectAll().where('state', '=', 'running');
    if (!all) q = q.where('leaseUntil', '<', now);
    return q.orderBy('createdAt').execute();
  }

  /** Changes an orphan, unless its worker renewed it meanwhile. */
  async updateOrphan(row: JobRow, fields: Updateable<JobTable>): Promise<boolean> {
    let q = this.db
      .updateTable('job')
      .set(fields)
      .where('id', '=', row.id)
      .where('state', '=', 'running');
    q =
      row.leaseUntil === null
        ? q.where('leaseUntil', 'is', null)
        : q.where('leaseUntil', '=', row.leaseUntil);
    const result = await q.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Cancels a queued or running job. */
  async cancel(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('job')
      .set({
        state: 'cancelled',
        workerId: null,
        leaseUntil: null,
        finishedAt: now,
        updatedAt: now,
      })
      .where('id', '=', id)
      .where('state', 'in', ACTIVE_JOB_STATES)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async pruneFinished(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('job')
      .where('state', 'in', FINISHED_JOB_STATES)
      .where('finishedAt', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
