import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const JOB_STATES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const ACTIVE_JOB_STATES = ['queued', 'running'] as const satisfies readonly JobState[];
export const FINISHED_JOB_STATES = [
  'done',
  'failed',
  'cancelled',
] as const satisfies readonly JobState[];

/** What a handler gets for one run of one job. */
export interface JobContext<P = unknown> {
  readonly jobId: string;
  /** The user the job works for; null for system jobs (not shown in any task list). */
  readonly userId: string | null;
  readonly payload: P;
  /** 1 on the first run; higher when the job runs again after a failure or an interruption. */
  readonly attempt: number;
  /**
   * Aborted when the job is cancelled or the server stops. Pass it to streams and child
   * processes, or check `signal.aborted` between steps, and then throw (`signal.throwIfAborted()`).
   */
  readonly signal: AbortSignal;
  /**
   * Reports progress, 0..100, with an optional note shown as the task's message. Cheap to call
   * often: it is written and published at most every 250 ms, and at once on 100.
   */
  progress(percent: number, note?: string): void;
}

/**
 * Does the work of one job. **Handlers must be idempotent**: a job whose run was cut short (a
 * crash, a restart, a failure) is run again from the start with the same payload, so a second
 * run must converge on the same result (skip what is already done, overwrite rather than
 * append). Throw to fail; a `PermanentJobError` (or an `AppError`) fails at once, any other
 * error is retried until the type's `maxAttempts`. Handlers may enqueue further jobs.
 */
export type JobHandler<P = unknown> = (context: JobContext<P>) => Promise<void>;

export interface RegisterOptions {
  /** Jobs of this type run at most this many at once on one node (default 2). */
  concurrency?: number;
  /** Runs before the job is failed, counting interrupted runs (default 3). */
  maxAttempts?: number;
  /**
   * Called once when the queue fails a job for good: its last attempt threw, or it was cut short
   * (a crash, a kill) as many times as its attempts allow, when no handler was left to say so.
   * Errors it throws are logged.
   */
  onFailed?: (job: Job, message: string) => Promise<void>;
}

export interface EnqueueOptions {
  /** The user the job works for; null for system jobs. */
  userId: string | null;
  /** Shown in the task list: usually the file or folder name. */
  name?: string;
  /** Shown in the task list: the path the task works on. */
  path?: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /**
   * Insert inside this transaction, so the job exists exactly when the caller's change commits.
   * The job then starts at the next poll (within a second) rather than at once.
   */
  trx?: Kysely<Database>;
  /**
   * Work that must not be queued twice names itself (`file:<id>`): while a job of this type with
   * this key is queued or running, enqueueing another returns that job's id instead, on every
   * node. At most 200 characters.
   */
  key?: string;
}

/** A task as the task list shows it (API-NOTES §1.12, spec §3 Task). */
export interface Task {
  taskId: string;
  /** The job type (`copy`, `unzip`, `transcode`…); `type` repeats it for the original client. */
  taskType: string;
  type: string;
  name: string;
  path: string;
  /** 0..100 while queued or running; null in the last `taskProgress` of a task (removes it). */
  progress: number | null;
  username: string;
  state: JobState;
  message: string | null;
}

/** One job as stored. */
export interface Job {
  id: string;
  userId: string | null;
  type: string;
  name: string;
  path: string;
  payload: unknown;
  state: JobState;
  progress: number;
  message: string | null;
  attempts: number;
  createdAt: number;
  updatedAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

/**
 * Durable background work (transcode, OCR, index, thumbnails, unzip, big copies). Jobs survive
 * restarts; each user's queued and running jobs are their task list, and progress reaches the
 * browser as `taskProgress` / `taskCountChange` live events.
 */
export interface JobQueue {
  /** Declares how jobs of a type run; register every type before `start()`. */
  register<P>(type: string, handler: JobHandler<P>, options?: RegisterOptions): void;
  /** Stores a job and returns its id (the task id). */
  enqueue<P>(type: string, payload: P, options: EnqueueOptions): Promise<string>;
  /**
   * Stores a keyed job unless a queued or running job of its type holds the key: `created` says
   * which, and `id` is the new job's or the one holding the key. Exact under parallel callers on
   * every node (a unique index decides).
   */
  enqueueOnce<P>(
    type: string,
    payload: P,
    options: EnqueueOptions & { key: string },
  ): Promise<{ id: string; created: boolean }>;
  /** Starts running jobs: jobs a crash left running go back to the queue first. */
  start(options?: { log?: QueueLogger }): void;
  /** Stops taking jobs, aborts running handlers and waits for them (bounded). */
  stop(): Promise<void>;
  /** A user's queued and running jobs, oldest first. */
  running(userId: string): Promise<Task[]>;
  /**
   * Every user's queued and running jobs of a type, oldest first (progress as last written); a
   * page of them when asked.
   */
  activeOfType(type: string, page?: { offset: number; limit: number }): Promise<Job[]>;
  /** How many jobs of a type are queued or running. */
  countActive(type: string): Promise<number>;
  /** The queued or running job of a type that holds a key (`EnqueueOptions.key`). */
  activeByKey(type: string, key: string): Promise<Job | undefined>;
  /** Whether a job of a type is in one of these states (one user's, when `userId` is given). */
  hasJob(type: string, filter: { userId?: string; states: readonly JobState[] }): Promise<boolean>;
  /** Cancels a queued or running job; false when it had already finished. */
  cancel(id: string): Promise<boolean>;
  get(id: string): Promise<Job | undefined>;
  /** Resolves when the job has finished (done, failed or cancelled). */
  waitFor(id: string, timeoutMs?: number): Promise<Job>;
}

/** A failure that running again cannot fix: the job fails without further attempts. */
export class PermanentJobError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'PermanentJobError';
  }
}

export interface QueueLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}
