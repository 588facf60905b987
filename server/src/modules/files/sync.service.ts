import type { JobQueue } from '../../jobs/queue.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import type { FilesService } from './files.service.ts';

export const JOB_SYNC = 'sync';
export const JOB_FOLDER_SIZE = 'calculateFolderSize';

export interface SyncPayload {
  /** A folder id, or '0' for the whole tree. */
  folderId: string;
}

/**
 * Index rebuild and folder sizes (spec §1 General settings, API-NOTES §1.12): each starts a
 * task of the task list; files.jobs.ts runs them with tree-index.ts.
 */
export class SyncService {
  constructor(
    private readonly files: FilesService,
    private readonly jobs: JobQueue,
    /** Every user with a tree (the users service's). */
    private readonly owners: () => Promise<Array<{ id: string; username: string }>>,
  ) {}

  /** The whole drive: every user's tree (administrators). */
  async rebuildAll(actor: Actor): Promise<string[]> {
    requireAuthority(actor, 'cloud:set:sync');
    const taskIds: string[] = [];
    for (const owner of await this.owners())
      taskIds.push(
        await this.jobs.enqueue<SyncPayload>(
          JOB_SYNC,
          { folderId: '0' },
          { userId: owner.id, name: owner.username, path: '/', key: syncKey(owner.id, '0') },
        ),
      );
    return taskIds;
  }

  /** One folder of one's own tree, by id or by path. */
  async rebuildFolder(actor: Actor, at: { folder?: string; path?: string }): Promise<string> {
    requireAuthority(actor, 'cloud:file:upload');
    const folder = at.folder
      ? await this.files.folderById(actor.id, at.folder)
      : await this.files.resolveFolder(actor.id, at.path);
    // a second click while the rebuild runs is answered with the same task
    return this.jobs.enqueue<SyncPayload>(
      JOB_SYNC,
      { folderId: folder.id },
      {
        userId: actor.id,
        name: folder.prefix,
        path: folder.prefix,
        key: syncKey(actor.id, folder.id),
      },
    );
  }

  /** How far the user's index rebuilds have come: the least advanced, or 100 when none runs. */
  async progress(actor: Actor) {
    const running = (await this.jobs.running(actor.id)).filter((t) => t.type === JOB_SYNC);
    const percent = running.length === 0 ? 100 : Math.min(...running.map((t) => t.progress ?? 0));
    return { syncPercent: percent, indexingPercent: percent, running: running.length > 0 };
  }

  async recalculateFolderSizes(actor: Actor): Promise<string> {
    requireAuthority(actor, 'cloud:set:sync');
    return this.jobs.enqueue(
      JOB_FOLDER_SIZE,
      {},
      { userId: actor.id, name: 'folder sizes', path: '/' },
    );
  }
}

/** One rebuild of a folder at a time. */
const syncKey = (userId: string, folderId: string) => `${userId}:${folderId}`;
