import type { EventBus } from '../events/bus.ts';
import { Gate } from '../lib/gate.ts';
import type { JobRow, JobsRepo, JobWithUser } from './jobs.repo.ts';
import type { QueueLogger, Task } from './queue.ts';

/** A running job's progress: as its handler last reported it, and as last written and told. */
export interface ProgressState {
  readonly row: JobWithUser;
  progress: number;
  note: string | undefined;
  publishedProgress: number;
  publishedNote: string | undefined;
  lastFlushAt: number;
  flushTimer?: NodeJS.Timeout;
}

/** The progress state of a job that has just been claimed. */
export function progressStateOf(row: JobWithUser): ProgressState {
  return {
    row,
    progress: row.progress,
    note: row.message ?? undefined,
    publishedProgress: row.progress,
    publishedNote: row.message ?? undefined,
    lastFlushAt: 0,
  };
}

export interface TaskReportsDeps {
  repo: JobsRepo;
  events: EventBus;
  /** The queue's worker: progress is written only to the jobs it runs. */
  workerId: string;
  /** Progress is written and published at most this often (and at once on 100). */
  progressIntervalMs: number;
  log: () => QueueLogger;
  /** The progress of a job running on this node, fresher than its row. */
  live: (jobId: string) => ProgressState | undefined;
  /** The username of a job's owner (the users service keeps the one cache of them). */
  usernameOf: (userId: string) => Promise<string | undefined>;
}

/**
 * Task reporting: each user's queued and running jobs are their task list. Progress is written
 * to the job's row (at most every progress interval) and reaches the browser as `taskProgress`
 * (one task changed) and `taskCountChange` (the whole list) events.
 */
export class TaskReports {
  private readonly countsDue = new Map<string, { again: boolean }>();
  /** Each job's progress writes, one at a time and in order (the job runs here: local). */
  private readonly writes = new Gate();

  constructor(private readonly deps: TaskReportsDeps) {}

  /** A user's queued and running tasks, oldest first, with the progress of those running here. */
  async list(userId: string): Promise<Task[]> {
    const rows = await this.deps.repo.activeOf(userId);
    const username = rows.length ? await this.usernameOf(userId) : null;
    return rows.map((row) => {
      const live = this.deps.live(row.id);
      return toTask(
        { ...row, username },
        live ? live.progress : row.progress,
        live?.note ?? row.message,
      );
    });
  }

  /** A job was enqueued: announced before the worker can claim it, so lists see `queued` first. */
  async queued(row: JobRow): Promise<void> {
    if (!row.userId) return;
    this.task(await this.withOwner(row));
    this.count(row.userId);
  }

  /** A job's row with its owner's name; a name that cannot be read is logged and left out. */
  async withOwner(row: JobRow): Promise<JobWithUser> {
    if (!row.userId) return { ...row, username: null };
    const username = await this.usernameOf(row.userId).catch((err: unknown) => {
      this.deps.log().warn({ err, userId: row.userId }, 'task told without its owner name');
      return null;
    });
    return { ...row, username };
  }

  /** A handler reported progress: written and told now, or within the progress interval. */
  progress(job: ProgressState, percent: number, note?: string): void {
    const value = Number.isFinite(percent) ? Math.min(100, Math.max(0, Math.floor(percent))) : 0;
    job.progress = value;
    if (note !== undefined) job.note = note;
    const wait = job.lastFlushAt + this.deps.progressIntervalMs - Date.now();
    if (value >= 100 || wait <= 0) {
      this.flush(job);
    } else {
      job.flushTimer ??= setTimeout(() => this.flush(job), wait);
    }
  }

  /** Progress not yet written is dropped; resolves when the writes under way are done. */
  async settled(job: ProgressState): Promise<void> {
    clearTimeout(job.flushTimer);
    await this.writes.run(job.row.id, async () => undefined);
  }

  private flush(job: ProgressState): void {
    clearTimeout(job.flushTimer);
    job.flushTimer = undefined;
    job.lastFlushAt = Date.now();
    if (job.progress === job.publishedProgress && job.note === job.publishedNote) return;
    job.publishedProgress = job.progress;
    job.publishedNote = job.note;
    const fields = {
      progress: job.progress,
      message: job.note ?? null,
      updatedAt: job.lastFlushAt,
    };
    void this.writes.run(job.row.id, async () => {
      try {
        await this.deps.repo.updateOwned(job.row.id, this.deps.workerId, fields);
      } catch (err) {
        this.deps.log().warn({ err, jobId: job.row.id }, 'could not record job progress');
      }
    });
    this.task(job.row, { progress: job.progress, message: job.note ?? null });
  }

  /** `taskProgress`: a task appears, moves, or (progress null) leaves the list (spec §4). */
  task(row: JobWithUser, change: Partial<Pick<Task, 'state' | 'progress' | 'message'>> = {}): void {
    if (!row.userId) return;
    const task = toTask(row, row.progress, row.message);
    this.deps.events.publish(row.userId, { url: 'taskProgress', body: { ...task, ...change } });
  }

  /**
   * `taskCountChange`: the user's whole active list; its length is the running count (spec §3).
   * The list can be long, so changes in a burst are announced together: at once, then at most
   * once per progress interval with the latest list.
   */
  count(userId: string | null): void {
    if (!userId) return;
    const pending = this.countsDue.get(userId);
    if (pending) {
      pending.again = true;
      return;
    }
    const state = { again: true };
    this.countsDue.set(userId, state);
    void (async () => {
      while (state.again) {
        state.again = false;
        try {
          const tasks = await this.list(userId);
          this.deps.events.publish(userId, { url: 'taskCountChange', body: { data: tasks } });
        } catch (err) {
          this.deps.log().warn({ err, userId }, 'could not count running tasks');
        }
        if (state.again)
          await new Promise((r) => setTimeout(r, this.deps.progressIntervalMs).unref());
      }
      this.countsDue.delete(userId);
    })();
  }

  private async usernameOf(userId: string): Promise<string | null> {
    return (await this.deps.usernameOf(userId)) ?? null;
  }
}

function toTask(row: JobWithUser, progress: number, message: string | null | undefined): Task {
  return {
    taskId: row.id,
    taskType: row.type,
    type: row.type,
    name: row.name,
    path: row.path,
    progress,
    username: row.username ?? '',
    state: row.state,
    message: message ?? null,
  };
}
