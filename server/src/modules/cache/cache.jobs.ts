import type { JobQueue } from '../../jobs/queue.ts';
import type { CacheService } from './cache.service.ts';

export const JOB_CACHE_SWEEP = 'cacheSweep';

/** The background work of the caches: the sweep of stale and least recently used entries. */
export function registerCacheJobs(deps: { jobs: JobQueue; cache: CacheService }): void {
  const { jobs, cache } = deps;
  jobs.register(
    JOB_CACHE_SWEEP,
    async (ctx) => {
      await cache.sweep({ signal: ctx.signal });
    },
    { concurrency: 1, maxAttempts: 2 },
  );
}
