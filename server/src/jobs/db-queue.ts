import type { DbHandle } from '../db/index.ts';
import type { EventBus } from '../events/bus.ts';
import { AppError } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { JobsRepo, type JobRow, type JobWithUser } from './jobs.repo.ts';
import { TaskReports, progressStateOf, type ProgressState } from './task-reports.ts';
import {
  FINISHED_JOB_STATES,
  PermanentJobError,
  type EnqueueOptions,
  type Job,
  type JobContext,
  type JobHandler,
  type JobQueue,
  type JobState,
  type QueueLogger,
  type RegisterOptions,
  type Task,
} from './queue.ts';

export interface DbJobQueueOptions {
  /** How often an idle worker looks for jobs enqueued elsewhere or now due. */
  pollMs: number;
  /** A running job's claim lasts this long and is renewed at a third of it. */
  leaseMs: number;
  /** How long `stop()` waits for aborted handlers to return. */
  stopTimeoutMs: number;
  /** First retry delay after a failure; doubles with every attempt. */
  retryDelayMs: number;
  /** Progress is written and published at most this often (and at once on 100). */
  progressIntervalMs: number;
  /** Finished jobs are kept this long, then deleted. */
  keepFinishedMs: number;
  pruneEveryMs: number;
  defaultConcurrency: number;
  defaultMaxAttempts: number;
}

export const DEFAULT_QUEUE_OPTIONS: DbJobQueueOptions = {
  pollMs: 1000,
  leaseMs: 30_000,
  stopTimeoutMs: 5000,
  retryDelayMs: 2000,
  progressIntervalMs: 250,
  keepFinishedMs: 7 * 24 * 3600_000,
  pruneEveryMs: 3600_000,
  defaultConcurrency: 2,
  defaultMaxAttempts: 3,
};

interface Registration {
  handler: JobHandler<unknown>;
  concurrency: number;
  maxAttempts: number;
  onFailed?: RegisterOptions['onFailed'];
}

interface ActiveJob extends ProgressState {
  controller: AbortController;
  /** Why the signal was aborted, if it was. */
  interruption?: 'stop' | 'cancel';
  done: Promise<void>;
}

const silentLogger: QueueLogger = { info() {}, warn() {}, error() {} };
const isFinished = (state: JobState) =>
  (FINISHED_JOB_STATES as readonly JobState[]).includes(state);
const errorMessage = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)) || 'Failed';

/**
 * The default queue: jobs are rows of the `job` table, run by an in-process worker. Claims are
 * conditional updates (`where state = 'queued'`) and running jobs hold a renewed lease, so
 * several nodes may share one PostgreSQL database; with SQLite one process owns the database
 * and every job it finds running at start was cut short by a crash. What users see of their jobs
 * (task lists, progress, live events) is told by `TaskReports`.
 */
export class DbJobQueue implements JobQueue {
  readonly options: DbJobQueueOptions;
  private readonly repo: JobsRepo;
  private readonly reports: TaskReports;
  private readonly workerId = newId();
  private readonly handlers = new Map<string, Registration>();
  private readonly active = new Map<string, ActiveJob>();
  private readonly waiters = new Map<string, Set<() => void>>();
  /** Jobs cancelled here while not running here: a claim that raced the cancel must not run them. */
  private readonly cancelledHere = new Set<string>();
  private log: QueueLogger = silentLogger;
  private started = false;
  /** The last `createdAt` given: jobs of one node keep their order within a millisecond. */
  private lastCreated = 0;
  private stopping = false;
  private booting: Promise<void> | undefined;
  private ticking: Promise<void> | undefined;
  private tickAgain = false;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly database: DbHandle,
    private readonly events: EventBus,
    options: Partial<DbJobQueueOptions> = {},
    /** The users service's cached username lookup (the jobs table knows owners by id). */
    usernameOf: (userId: string) => Promise<string | undefined>,
  ) {
    this.repo = new JobsRepo(database.db);
    this.options = { ...DEFAULT_QUEUE_OPTIONS, ...options };
    this.reports = new TaskReports({
      repo: this.repo,
      events,
      workerId: this.workerId,
      progressIntervalMs: this.options.progressIntervalMs,
      log: () => this.log,
      live: (id) => this.active.get(id),
      usernameOf,
    });
  }

  register<P>(type: string, handler: JobHandler<P>, options: RegisterOptions = {}): void {
    if (this.handlers.has(type)) throw new Error(`job type ${type} is already registered`);
    this.handlers.set(type, {
      handler: handler as JobHandler<unknown>,
      concurrency: Math.max(1, options.concurrency ?? this.options.defaultConcurrency),
      maxAttempts: Math.max(1, options.maxAttempts ?? this.options.defaultMaxAttempts),
      onFailed: options.onFailed,
    });
    if (this.started) this.wake();
  }

  async enqueue<P>(type: string, payload: P, options: EnqueueOptions): Promise<string> {
    return (await this.add(type, payload, options)).id;
  }

  enqueueOnce<P>(
    type: string,
    payload: P,
    options: EnqueueOptions & { key: string },
  ): Promise<{ id: string; created: boolean }> {
    return this.add(type, payload, options);
  }

  private async add<P>(
    type: string,
    payload: P,
    options: EnqueueOptions,
  ): Promise<{ id: string; created: boolean }> {
    if (!this.handlers.has(type)) throw new Error(`no handler registered for job type ${type}`);
    const now = Date.now();
    // oldest first is by createdAt, then by a random id: two jobs queued in the same
    // millisecond would run in either order without a strictly rising createdAt
    const createdAt = Math.max(now, this.lastCreated + 1);
    this.lastCreated = createdAt;
    if (options.key !== undefined && (options.key.length === 0 || options.key.length > 200))
      throw new Error(`a job key has 1 to 200 characters`);
    const id = newId();
    const row: JobRow = {
      id,
      userId: options.userId,
      type,
      name: options.name ?? '',
      path: options.path ?? '',
      payload: JSON.stringify(payload ?? null),
      state: 'queued',
      progress: 0,
      message: null,
      attempts: 0,
      runAt: now + Math.max(0, options.delayMs ?? 0),
      workerId: null,
      leaseUntil: null,
      createdAt,
      updatedAt: now,
      startedAt: null,
      finishedAt: null,
      dedupeKey: options.key ?? null,
    };
    if (!(await this.repo.insert(row, options.trx))) {
      // the same work is queued or running already: that job is the answer
      const existing = await this.repo.activeByKey(type, options.key!, options.trx);
      if (existing) return { id: existing.id, created: false };
      // it finished between the insert and the look: this one is new work after all
      return this.add(type, payload, options);
    }
    // Inside a transaction the row is not visible yet: the worker's claim announces it.
    if (!options.trx) {
      await this.reports.queued(row);
      this.wakeAt(row.runAt);
    }
    return { id, created: true };
  }

  start(options: { log?: QueueLogger } = {}): void {
    if (options.log) this.log = options.log;
    if (this.started) return;
    this.started = true;
    this.stopping = false;
    const every = (ms: number, fn: () => Promise<void>) => {
      const timer = setInterval(() => void fn(), ms);
      timer.unref();
      this.timers.push(timer);
    };
    every(this.options.pollMs, () => this.tick());
    every(Math.max(50, Math.floor(this.options.leaseMs / 3)), () => this.maintainLeases());
    every(this.options.pruneEveryMs, () => this.prune());
    this.booting = (async () => {
      // SQLite is one process: whatever is `running` now was cut short by a crash.
      await this.recoverOrphans(this.database.dialect === 'sqlite');
      await this.prune();
      await this.tick();
    })();
  }

  async stop(): Promise<void> {
    if (!this.started) return;
    this.stopping = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers = [];
    await this.booting;
    await this.ticking;
    for (const job of this.active.values()) {
      job.interruption ??= 'stop';
      job.controller.abort(new Error('The server is stopping'));
    }
    const pending = [...this.active.values()].map((j) => j.done);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.allSettled(pending).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.options.stopTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      this.log.warn(
        { jobs: [...this.active.keys()] },
        'jobs did not stop in time; they run again after the next start',
      );
    }
    this.started = false;
  }

  running(userId: string): Promise<Task[]> {
    return this.reports.list(userId);
  }

  async activeOfType(type: string, page?: { offset: number; limit: number }): Promise<Job[]> {
    return (await this.repo.activeOfType(type, page)).map(toJob);
  }

  countActive(type: string): Promise<number> {
    return this.repo.countActive(type);
  }

  async activeByKey(type: string, key: string): Promise<Job | undefined> {
    const row = await this.repo.activeByKey(type, key);
    return row && toJob(row);
  }

  async hasJob(
    type: string,
    filter: { userId?: string; states: readonly JobState[] },
  ): Promise<boolean> {
    return this.repo.exists(type, filter);
  }

  async cancel(id: string): Promise<boolean> {
    const found = await this.repo.find(id);
    if (!found || isFinished(found.state)) return false;
    if (!(await this.repo.cancel(id, Date.now()))) return false;
    const live = this.active.get(id);
    if (live) {
      live.interruption = 'cancel';
      live.controller.abort(new Error('Cancelled'));
    } else {
      // this node may be claiming it right now, holding a copy read before the cancel
      this.cancelledHere.add(id);
      setTimeout(() => this.cancelledHere.delete(id), this.options.leaseMs).unref();
    }
    this.reports.task(await this.reports.withOwner(found), { state: 'cancelled', progress: null });
    this.reports.count(found.userId);
    this.notifyWaiters(id);
    return true;
  }

  async get(id: string): Promise<Job | undefined> {
    const row = await this.repo.find(id);
    return row && toJob(row);
  }

  async waitFor(id: string, timeoutMs = 30_000): Promise<Job> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.get(id);
      if (!job) throw new Error(`job ${id} does not exist`);
      if (isFinished(job.state)) return job;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`job ${id} did not finish within ${timeoutMs} ms (state ${job.state})`);
      // Woken by this node's finish, or a short poll for jobs other nodes run.
      await new Promise<void>((resolve) => {
        const set = this.waiters.get(id) ?? new Set();
        this.waiters.set(id, set);
        const done = () => {
          clearTimeout(timer);
          set.delete(done);
          if (set.size === 0) this.waiters.delete(id);
          resolve();
        };
        const timer = setTimeout(done, Math.min(left, 200));
        set.add(done);
      });
    }
  }

  /** Number of handlers running on this node (tests, metrics). */
  activeCount(type?: string): number {
    if (!type) return this.active.size;
    let n = 0;
    for (const job of this.active.values()) if (job.row.type === type) n++;
    return n;
  }

  private wake(): void {
    if (this.started && !this.stopping) void this.tick();
  }

  /** Wakes the worker when a job becomes due (a delay or a retry back-off). */
  private wakeAt(at: number): void {
    const delay = at - Date.now();
    if (delay <= 0) return this.wake();
    // Beyond the poll interval the regular poll finds it anyway.
    if (delay < this.options.pollMs) setTimeout(() => this.wake(), delay).unref();
  }

  /** Claims as many runnable jobs as the free slots allow; one pass at a time. */
  private tick(): Promise<void> {
    if (!this.started || this.stopping) return Promise.resolve();
    if (this.ticking) {
      this.tickAgain = true;
      return this.ticking;
    }
    this.ticking = (async () => {
      try {
        do {
          this.tickAgain = false;
          await this.claimRunnable();
        } while (this.tickAgain && !this.stopping);
      } catch (err) {
        this.log.error({ err }, 'job worker could not look for jobs');
      } finally {
        this.ticking = undefined;
      }
    })();
    return this.ticking;
  }

  private async claimRunnable(): Promise<void> {
    for (const [type, registration] of this.handlers) {
      let free = registration.concurrency - this.activeCount(type);
      if (free <= 0 || this.stopping) continue;
      const now = Date.now();
      const ids = await this.repo.runnable(type, now, free);
      for (const id of ids) {
        if (free <= 0 || this.stopping) break;
        const row = await this.repo.claim(
          id,
          this.workerId,
          Date.now(),
          Date.now() + this.options.leaseMs,
        );
        if (!row) continue;
        const owned = await this.reports.withOwner(row);
        // cancelled between the claim and now: the cancel recorded it, nothing runs
        if (this.cancelledHere.delete(row.id) || row.state !== 'running') continue;
        free--;
        this.run(owned, registration);
      }
    }
  }

  private run(row: JobWithUser, registration: Registration): void {
    const controller = new AbortController();
    const job: ActiveJob = { ...progressStateOf(row), controller, done: Promise.resolve() };
    this.active.set(row.id, job);
    this.reports.task(row);
    this.reports.count(row.userId);

    let payload: unknown;
    let payloadError: PermanentJobError | undefined;
    try {
      payload = JSON.parse(row.payload);
    } catch (err) {
      payloadError = new PermanentJobError('The job data is unreadable', { cause: err });
    }
    const context: JobContext<unknown> = {
      jobId: row.id,
      userId: row.userId,
      payload,
      attempt: row.attempts,
      signal: controller.signal,
      progress: (percent, note) => {
        if (!this.active.has(row.id) || controller.signal.aborted) return;
        this.reports.progress(job, percent, note);
      },
    };
    job.done = (async () => {
      let error: unknown;
      let ok = false;
      try {
        if (payloadError) throw payloadError;
        await registration.handler(context);
        ok = true;
      } catch (err) {
        error = err;
      }
      await this.reports.settled(job);
      try {
        await this.settle(job, registration, ok, error);
      } catch (err) {
        this.log.error({ err, jobId: row.id, type: row.type }, 'could not record the end of a job');
      }
    })().finally(() => {
      this.active.delete(row.id);
      this.notifyWaiters(row.id);
      this.wake();
    });
  }

  /** Records how a run ended: done, retried later, given back (stop), or failed. */
  private async settle(
    job: ActiveJob,
    registration: Registration,
    ok: boolean,
    error: unknown,
  ): Promise<void> {
    const { row } = job;
    const now = Date.now();
    const clearClaim = { workerId: null, leaseUntil: null, updatedAt: now };
    if (job.interruption === 'cancel') return; // cancel() recorded and announced it.
    if (ok) {
      const message = job.note ?? null;
      if (
        await this.repo.updateOwned(row.id, this.workerId, {
          ...clearClaim,
          state: 'done',
          progress: 100,
          message,
          finishedAt: now,
        })
      ) {
        this.reports.task(row, { state: 'done', progress: null, message });
        this.reports.count(row.userId);
      }
      return;
    }
    if (job.interruption === 'stop') {
      // Interrupted by a stop, not by its own fault: runs again after the next start.
      await this.repo.release(row.id, this.workerId, now);
      return;
    }
    const message = errorMessage(error);
    const permanent = error instanceof PermanentJobError || error instanceof AppError;
    if (!permanent && row.attempts < registration.maxAttempts) {
      const delay = this.options.retryDelayMs * 2 ** (row.attempts - 1);
      this.log.warn(
        { err: error, jobId: row.id, type: row.type, attempt: row.attempts },
        'job failed; it will run again',
      );
      if (
        await this.repo.updateOwned(row.id, this.workerId, {
          ...clearClaim,
          state: 'queued',
          message,
          runAt: now + delay,
        })
      ) {
        this.reports.task(row, { state: 'queued', progress: job.progress, message });
        this.wakeAt(now + delay);
      }
      return;
    }
    this.log.error(
      { err: error, jobId: row.id, type: row.type, attempt: row.attempts },
      'job failed',
    );
    // told first: whoever sees the job failed finds what its type made of that
    await this.failed(row, message);
    if (
      await this.repo.updateOwned(row.id, this.workerId, {
        ...clearClaim,
        state: 'failed',
        message,
        finishedAt: now,
      })
    ) {
      this.reports.task(row, { state: 'failed', progress: null, message });
      this.reports.count(row.userId);
    }
  }

  /** Tells the job's type that the queue gave up on it. */
  private async failed(row: JobRow, message: string): Promise<void> {
    const onFailed = this.handlers.get(row.type)?.onFailed;
    if (!onFailed) return;
    try {
      await onFailed(toJob(row), message);
    } catch (err) {
      this.log.error({ err, jobId: row.id, type: row.type }, 'could not record a failed job');
    }
  }

  /** Keeps this node's claims alive and notices jobs cancelled or taken over elsewhere. */
  private async maintainLeases(): Promise<void> {
    if (this.stopping) return;
    try {
      if (this.active.size > 0) {
        await this.repo.renewLeases(this.workerId, Date.now() + this.options.leaseMs);
        for (const id of await this.repo.lost([...this.active.keys()], this.workerId)) {
          const job = this.active.get(id);
          if (!job || job.controller.signal.aborted) continue;
          job.interruption = 'cancel';
          job.controller.abort(new Error('Cancelled'));
        }
      }
      await this.recoverOrphans(false);
    } catch (err) {
      this.log.error({ err }, 'job lease upkeep failed');
    }
  }

  /** Puts jobs whose worker died back in the queue, or fails them after too many attempts. */
  private async recoverOrphans(all: boolean): Promise<void> {
    let orphans: JobRow[];
    try {
      orphans = await this.repo.orphans(Date.now(), all);
    } catch (err) {
      this.log.error({ err }, 'could not look for interrupted jobs');
      return;
    }
    for (const row of orphans) {
      if (this.active.has(row.id)) continue;
      const now = Date.now();
      const maxAttempts =
        this.handlers.get(row.type)?.maxAttempts ?? this.options.defaultMaxAttempts;
      const clearClaim = { workerId: null, leaseUntil: null, updatedAt: now };
      if (row.attempts >= maxAttempts) {
        const message = `Interrupted ${row.attempts} times without finishing`;
        await this.failed(row, message);
        if (
          await this.repo.updateOrphan(row, {
            ...clearClaim,
            state: 'failed',
            message,
            finishedAt: now,
          })
        ) {
          this.log.error(
            { jobId: row.id, type: row.type, attempts: row.attempts },
            'interrupted job failed',
          );
          const failed = await this.repo.find(row.id);
          if (failed)
            this.reports.task(await this.reports.withOwner(failed), {
              state: 'failed',
              progress: null,
              message,
            });
          this.reports.count(row.userId);
        }
      } else if (
        await this.repo.updateOrphan(row, { ...clearClaim, state: 'queued', runAt: now })
      ) {
        this.log.info(
          { jobId: row.id, type: row.type, attempts: row.attempts },
          'interrupted job queued again',
        );
      }
    }
    if (orphans.length > 0) this.wake();
  }

  private async prune(): Promise<void> {
    try {
      const removed = await this.repo.pruneFinished(Date.now() - this.options.keepFinishedMs);
      if (removed > 0) this.log.info({ removed }, 'finished jobs pruned');
    } catch (err) {
      this.log.error({ err }, 'could not prune finished jobs');
    }
  }

  private notifyWaiters(id: string): void {
    for (const wake of [...(this.waiters.get(id) ?? [])]) wake();
  }
}

function toJob(row: JobRow): Job {
  let payload: unknown = null;
  try {
    payload = JSON.parse(row.payload);
  } catch {
    // Unreadable payloads fail when run; here they read as null.
  }
  return {
    id: row.id,
    userId: row.userId,
    type: row.type,
    name: row.name,
    path: row.path,
    payload,
    state: row.state,
    progress: row.progress,
    message: row.message,
    attempts: row.attempts,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    finishedAt: row.finishedAt,
  };
}
