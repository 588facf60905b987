import type { JobQueue } from '../../jobs/queue.ts';
import type { FilesService } from '../files/files.service.ts';
import type { Ocr } from './content/ocr.ts';
import { TreeFollower } from './index-follow.ts';
import { ContentLanes, type IndexLog } from './index-lanes.ts';
import { IndexRepair, JOB_SEARCH_REPAIR, type RepairStats } from './index-repair.ts';
import type { OcrSettings } from './ocr-settings.ts';
import type { SearchRepo } from './search.repo.ts';

/** How often pending documents without a job are looked for. */
const SWEEP_MS = 30_000;

/**
 * Keeps the search index in step with the file tree, in three parts: following the tree
 * (`index-follow.ts`), the content and OCR lanes that read text (`index-lanes.ts`), and the
 * repair pass (`index-repair.ts`). Their jobs are registered in `search.jobs.ts`.
 */
export class SearchIndexer {
  readonly lanes: ContentLanes;
  readonly repairer: IndexRepair;
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    repo: SearchRepo,
    files: FilesService,
    private readonly jobs: JobQueue,
    private readonly ocr: Ocr,
    ocrSettings: OcrSettings,
    /** The users service's cached username lookup. */
    usernameOf: (userId: string) => Promise<string | undefined>,
  ) {
    this.lanes = new ContentLanes(repo, files, jobs, ocr, ocrSettings, usernameOf);
    this.repairer = new IndexRepair(repo, this.lanes, ocr, ocrSettings);
    new TreeFollower(repo, this.lanes, files);
  }

  /**
   * Once the app is ready: mend the index in the background, and look every half minute for
   * pending documents that no job is draining (a change committed after its job had looked).
   */
  async start(options: { log?: IndexLog } = {}): Promise<void> {
    const log = options.log;
    this.lanes.log = log;
    const states = ['queued', 'running'] as const;
    if (!(await this.jobs.hasJob(JOB_SEARCH_REPAIR, { states })))
      await this.jobs.enqueue(
        JOB_SEARCH_REPAIR,
        {},
        // nodes starting together queue one repair
        { userId: null, delayMs: 3000, key: 'repair' },
      );
    this.sweepTimer = setInterval(
      () =>
        void this.lanes
          .sweep()
          .catch((err: unknown) =>
            log?.warn({ err }, 'search index: the sweep for pending documents failed'),
          ),
      SWEEP_MS,
    );
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.lanes.stop();
    await this.ocr.close();
  }

  /** The repair pass, now (tests, benchmarks). */
  repair(): Promise<RepairStats> {
    return this.repairer.repair();
  }

  /** Documents for every file that has none (the bulk build); returns how many were added. */
  indexMissing(): Promise<number> {
    return this.repairer.indexMissing();
  }

  /** After OCR is switched on: documents skipped for want of it are read again. */
  retryOcrSkipped(): Promise<void> {
    return this.lanes.retryOcrSkipped();
  }
}
