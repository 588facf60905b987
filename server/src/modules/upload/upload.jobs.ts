import type { JobQueue } from '../../jobs/queue.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { JOB_UPLOAD_MERGE, type MergeJobPayload, type UploadService } from './upload.service.ts';

export const JOB_UPLOAD_CLEANUP = 'uploadCleanup';

/** The background work of uploads: merging large files, and clearing abandoned sessions. */
export function registerUploadJobs(deps: {
  jobs: JobQueue;
  auth: AuthService;
  uploads: UploadService;
}): void {
  const { jobs, auth, uploads } = deps;

  jobs.register<MergeJobPayload>(
    JOB_UPLOAD_MERGE,
    async (ctx) => {
      const actor = ctx.userId ? await auth.actorFor(ctx.userId) : null;
      if (!actor) throw new PermanentJobError('The user of this task no longer exists');
      await uploads.runMergeJob(actor, ctx.payload, (percent) => ctx.progress(percent));
    },
    { concurrency: 2, maxAttempts: 2 },
  );

  jobs.register(
    JOB_UPLOAD_CLEANUP,
    async () => {
      await uploads.cleanUp();
    },
    { concurrency: 1 },
  );
}
