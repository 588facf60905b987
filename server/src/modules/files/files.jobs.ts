import type { JobQueue } from '../../jobs/queue.ts';
import { PermanentJobError } from '../../jobs/queue.ts';
import type { Actor } from '../../lib/access.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { JOB_COPY, type CopyPayload, type FileOperations } from './file-ops.service.ts';
import type { FilesService } from './files.service.ts';
import { JOB_FOLDER_SIZE, JOB_SYNC, type SyncPayload } from './sync.service.ts';
import type { TreeIndexer } from './tree-index.ts';

/** The background work of the file tree, registered on the job queue. */
export function registerFileJobs(deps: {
  jobs: JobQueue;
  auth: AuthService;
  files: FilesService;
  fileOps: FileOperations;
  indexer: TreeIndexer;
}): void {
  const { jobs, auth, files, fileOps, indexer } = deps;

  const actorOf = async (userId: string | null): Promise<Actor> => {
    const actor = userId ? await auth.actorFor(userId) : null;
    if (!actor) throw new PermanentJobError('The user of this task no longer exists');
    return actor;
  };

  jobs.register<CopyPayload>(
    JOB_COPY,
    async (ctx) => {
      const actor = await actorOf(ctx.userId);
      ctx.progress(1);
      await fileOps.copy(actor, ctx.payload.froms, ctx.payload.to, ctx.payload.override);
      ctx.progress(100);
    },
    { concurrency: 1 },
  );

  jobs.register<SyncPayload>(
    JOB_SYNC,
    async (ctx) => {
      const actor = await actorOf(ctx.userId);
      const folder = await files.folderById(actor.id, ctx.payload.folderId);
      files.notify(actor.id, 'synced', { syncPercent: 0, indexingPercent: 0 });
      const stats = await indexer.sync(actor, folder, (done, known) => {
        ctx.signal.throwIfAborted();
        const percent = Math.min(99, Math.floor((done / Math.max(known, 1)) * 100));
        ctx.progress(percent);
        files.notify(actor.id, 'synced', { syncPercent: percent, indexingPercent: percent });
      });
      ctx.progress(100, `${stats.added} added, ${stats.updated} updated, ${stats.removed} removed`);
      files.notify(actor.id, 'synced', { syncPercent: 100, indexingPercent: 100 });
    },
    { concurrency: 1 },
  );

  jobs.register(
    JOB_FOLDER_SIZE,
    async (ctx) => {
      const actor = await actorOf(ctx.userId);
      const fixed = await indexer.recalculateFolderSizes(actor, (percent) => {
        if (percent < 100) ctx.progress(percent);
        files.notify(actor.id, 'calculateFolderSizeProcessed', percent);
      });
      ctx.progress(100, `${fixed} folder sizes set right`);
    },
    { concurrency: 1 },
  );
}
