import { ErrorCode, type DriveCheckStart, type DriveCheckView } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { PermanentJobError, type Job, type JobQueue } from '../../jobs/queue.ts';
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

type LastRun = Omit<DriveCheckView, 'progress'>;

/**
 * "Check the drive" from the web app: `npm run check` as a background task of the administrator
 * who starts it, with its progress in their task list and its findings kept until the next run.
 */
export class DriveCheckService {
  private readonly repo: CheckRepo;
  /** Awaited as a check starts its work (tests hold a check running there). */
  beforeWork: (() => Promise<void>) | undefined;

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

  /** Starts a check; 409 while one is queued or running (the answer names it). */
  async start(actor: Actor, options: DriveCheckStart): Promise<DriveCheckView> {
    requireAuthority(actor, CHECK_AUTHORITY);
    const running = await this.jobs.activeByKey(JOB_DRIVE_CHECK, ONE_CHECK);
    if (running) throw alreadyRunning(running.id);
    const taskId = await this.jobs.enqueue(JOB_DRIVE_CHECK, options, {
      userId: actor.id,
      name: options.full ? 'full' : 'sample',
      path: '/',
      key: ONE_CHECK,
    });
    const job = await this.jobs.get(taskId);
    // another administrator's start won the race: theirs is the one running
    if (job && job.userId !== actor.id) throw alreadyRunning(taskId);
    return this.status(actor);
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

  private async run(ctx: {
    jobId: string;
    payload: DriveCheckStart;
    progress: (percent: number, note?: string) => void;
  }): Promise<void> {
    await this.beforeWork?.();
    const { full, repair } = ctx.payload;
    let report;
    try {
      report = await checkDrive(this.repo.db, this.blobs, {
        full,
        repair,
        sample: DEFAULT_SAMPLE,
        progress: (percent, note) => ctx.progress(percent, note),
      });
    } catch (err) {
      throw new PermanentJobError((err as Error).message, { cause: err });
    }
    const job = await this.jobs.get(ctx.jobId);
    await this.repo.saveRun(
      JSON.stringify({
        state: 'done',
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
    ctx.progress(100);
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
