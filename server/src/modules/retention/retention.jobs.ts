import type { JobQueue } from '../../jobs/queue.ts';
import type { RetentionService } from './retention.service.ts';

export const JOB_RETENTION = 'retention';

/** The background work of retention: old trash items and versions go. */
export function registerRetentionJobs(deps: { jobs: JobQueue; retention: RetentionService }): void {
  const { jobs, retention } = deps;
  jobs.register(
    JOB_RETENTION,
    async () => {
      await retention.run();
    },
    { concurrency: 1, maxAttempts: 2 },
  );
}
