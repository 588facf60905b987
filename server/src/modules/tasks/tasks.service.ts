import type { Actor } from '../../lib/access.ts';
import type { JobQueue, Task } from '../../jobs/queue.ts';

export class TasksService {
  constructor(private readonly jobs: JobQueue) {}

  /** The caller's queued and running tasks. Administrators too see only their own: tasks carry user paths. */
  progress(actor: Actor): Promise<Task[]> {
    return this.jobs.running(actor.id);
  }
}
