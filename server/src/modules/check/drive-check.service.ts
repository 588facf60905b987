import { ErrorCode, type DriveCheckStart, type DriveCheckView } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { PermanentJobError, type Job, type JobContext, type JobQueue } from '../../jobs/queue.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { CheckRepo } from './check.repo.ts';
import { checkDrive, DEFAULT_SAMPLE } from './check.service.ts';

export const JOB_DRIVE_CHECK = 'driveCheck';
/** One check at a time, on every node: its job holds this key while queued or running. */
const ONE_CHECK = 'drive';
/** The authority of Cloud management: only an administrator starts or sees the check. */
const CHECK_AUTHORITY = 'cloud:set:sync';
/** How long a cancel waits for the check on this node to stop and record what it found. */
const CANCEL_WAIT_MS = 10_000;

type LastRun = Omit<DriveCheckView, 'progress'>;

/**
 * "Check the drive" from the web app: `npm run check` as a background task of the administrator
 * who starts it, with its progress in their task list and its findings kept until the next run.
 */
export class DriveCheckService {
  private readonly repo: CheckRepo;
  /** Awaited as a check starts its work (tests hold a check running there). */
  beforeWork: (() => Promise<void>) | undefined;
  /** The checks running on this node, by task id: a cancel waits for theirs to record its end. */
  private readonly runs = new Map<string, Promise<void>>();

  constructor(
    db: Db,
    private readonly blobs: BlobStore,
    private readonly jobs: JobQueue,
  ) {
    this.repo = new CheckRepo(db);
  }

  register(): void {
    this.jobs.register<DriveCheckStart>(JOB_DRIVE_CHECK, (ctx) => this.run(ctx), {
      concurrency: 1,
      // a check cut short is not run again by itself: the administrator starts another
      maxAttempts: 1,
      onFailed: (job, message) => this.finish(job.id, job.payload as DriveCheckStart, message),
    });
  }

  /**
   * Starts a check; 409 while one is queued or running, whoever started it (the answer names
   * it). Of parallel starts exactly one starts: the job's key is unique among active jobs.
   */
  async start(actor: Actor, options: DriveCheckStart): Promise<DriveCheckView> {
    requireAuthority(actor, CHECK_AUTHORITY);
    const { id, created } = await this.jobs.enqueueOnce(
      JOB_DRIVE_CHECK,
      { full: options.full, repair: options.repair } satisfies DriveCheckStart,
      { userId: actor.id, name: options.full ? 'full' : 'sample', path: '/', key: ONE_CHECK },
    );
    if (!created) throw alreadyRunning(id);
    return this.status(actor);
  }

  /**
   * Cancels the check queued or running now, and answers the view once it has ended: `cancelled`
   * with what it found until then. Without a check under way, the view as it is.
   */
  async cancel(actor: Actor): Promise<DriveCheckView> {
    requireAuthority(actor, CHECK_AUTHORITY);
    const active = await this.jobs.activeByKey(JOB_DRIVE_CHECK, ONE_CHECK);
    if (!active || !(await this.jobs.cancel(active.id))) return this.status(actor);
    const here = this.runs.get(active.id);
    if (here) {
      // the run stops at its next step and records its findings (bounded: a stuck disk read
      // does not hold the answer; the view then says cancelled without them until it ends)
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), CANCEL_WAIT_MS);
      });
      const ended = await Promise.race([here.then(() => 'ended' as const), late]);
      clearTimeout(timer);
      if (ended === 'late') await this.saveCancelled(active);
    } else await this.saveCancelled(active);
    return this.status(actor);
  }

  /** A cancelled check whose run has not recorded its end (yet): cancelled, nothing found. */
  private async saveCancelled(active: Job): Promise<void> {
    // queued, or running on another node (which records its findings once it notices)
    const saved = await this.repo.lastRun();
    if (saved && (JSON.parse(saved) as LastRun).taskId === active.id) return;
    const options = active.payload as DriveCheckStart;
    await this.repo.saveRun(
      JSON.stringify({
        state: 'cancelled',
        taskId: active.id,
        full: Boolean(options.full),
        repair: Boolean(options.repair),
        message: null,
        startedAt: active.startedAt,
        finishedAt: Date.now(),
        report: null,
      } satisfies LastRun),
    );
  }

  /** The check running now, or the last one with what it found. */
  async status(actor: Actor): Promise<DriveCheckView> {
    requireAuthority(actor, CHECK_AUTHORITY);
    const active = await this.jobs.activeByKey(JOB_DRIVE_CHECK, ONE_CHECK);
    if (active) return viewOf(active);
    const saved = await this.repo.lastRun();
    if (!saved)
      return {
        state: 'none',
        taskId: null,
        full: false,
        repair: false,
        progress: 0,
        message: null,
        startedAt: null,
        finishedAt: null,
        report: null,
      };
    const run = JSON.parse(saved) as LastRun;
    return { ...run, progress: run.state === 'done' ? 100 : 0 };
  }

  private run(ctx: JobContext<DriveCheckStart>): Promise<void> {
    const run = this.work(ctx).finally(() => this.runs.delete(ctx.jobId));
    // a cancel waits for the end, not for the error: the queue records that
    this.runs.set(
      ctx.jobId,
      run.catch(() => undefined),
    );
    return run;
  }

  private async work(ctx: JobContext<DriveCheckStart>): Promise<void> {
    await this.beforeWork?.();
    const { full, repair } = ctx.payload;
    let report;
    try {
      report = await checkDrive(this.repo.db, this.blobs, {
        full,
        repair,
        sample: DEFAULT_SAMPLE,
        progress: (percent, note) => ctx.progress(percent, note),
        signal: ctx.signal,
      });
    } catch (err) {
      if (ctx.signal.aborted) {
        const job = await this.jobs.get(ctx.jobId);
        if (job?.state !== 'cancelled') throw err;
        await this.saveCancelled(job);
        return;
      }
      throw new PermanentJobError((err as Error).message, { cause: err });
    }
    const job = await this.jobs.get(ctx.jobId);
    const cancelled = job?.state === 'cancelled';
    // stopped by the server stopping, not by a person: the queue runs it again after the start
    if (ctx.signal.aborted && !cancelled) throw new Error('The server stopped during the check');
    await this.repo.saveRun(
      JSON.stringify({
        state: cancelled ? 'cancelled' : 'done',
        taskId: ctx.jobId,
        full,
        repair,
        message: null,
        startedAt: job?.startedAt ?? null,
        finishedAt: Date.now(),
        report: {
          users: report.users,
          rows: report.rows,
          hashed: report.hashed,
          lostAndFound: report.lostAndFound,
          findings: report.findings,
        },
      } satisfies LastRun),
    );
    if (!ctx.signal.aborted) ctx.progress(100);
  }

  private async finish(taskId: string, options: DriveCheckStart, message: string): Promise<void> {
    const job = await this.jobs.get(taskId);
    await this.repo.saveRun(
      JSON.stringify({
        state: 'failed',
        taskId,
        full: Boolean(options.full),
        repair: Boolean(options.repair),
        message,
        startedAt: job?.startedAt ?? null,
        finishedAt: Date.now(),
        report: null,
      } satisfies LastRun),
    );
  }
}

function alreadyRunning(taskId: string): AppError {
  return new AppError(
    ErrorCode.EXISTS,
    'A check of the drive is already running: wait for it to finish',
    { taskId },
    409,
  );
}

function viewOf(job: Job): DriveCheckView {
  const options = job.payload as DriveCheckStart;
  return {
    state: job.state === 'running' ? 'running' : 'queued',
    taskId: job.id,
    full: Boolean(options.full),
    repair: Boolean(options.repair),
    progress: job.progress,
    message: job.message,
    startedAt: job.startedAt,
    finishedAt: null,
    report: null,
  };
}
