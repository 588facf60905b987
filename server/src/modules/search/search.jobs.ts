import type { JobQueue } from '../../jobs/queue.ts';
import { JOB_CONTENT_INDEX, JOB_OCR } from './index-lanes.ts';
import { JOB_SEARCH_REPAIR } from './index-repair.ts';
import type { SearchIndexer } from './search-index.ts';

/** The background work of the search index, registered on the job queue. */
export function registerSearchJobs(deps: { jobs: JobQueue; searchIndex: SearchIndexer }): void {
  const { jobs, searchIndex } = deps;
  const { lanes, repairer } = searchIndex;
  // per user: read the text of the documents marked pending, and OCR images and scans
  jobs.register(JOB_CONTENT_INDEX, (ctx) => lanes.drain(ctx, 'text'), {
    concurrency: 2,
    maxAttempts: 5,
  });
  jobs.register(JOB_OCR, (ctx) => lanes.drain(ctx, 'ocr'), { concurrency: 2, maxAttempts: 5 });
  // a system job at every start
  jobs.register(JOB_SEARCH_REPAIR, async (ctx) => void (await repairer.repair(ctx)), {
    concurrency: 1,
    maxAttempts: 3,
  });
}
