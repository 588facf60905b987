import type { JobContext } from '../../jobs/queue.ts';
import type { Ocr } from './content/ocr.ts';
import { docOf } from './index-follow.ts';
import type { ContentLanes } from './index-lanes.ts';
import type { OcrSettings } from './ocr-settings.ts';
import type { SearchRepo } from './search.repo.ts';

export const JOB_SEARCH_REPAIR = 'searchRepair';

/** Rows read per batch when (re)building the index of names. */
const BUILD_BATCH = 5000;

export interface RepairStats {
  added: number;
  renamed: number;
  /** Subtrees whose trash state was set again. */
  moved: number;
  reread: number;
}

type Progress = Pick<JobContext, 'progress' | 'signal'>;

/** Let queued requests use the database between pages of a long pass. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The repair pass (at every start, a system job): mends whatever a crash or an outside change
 * left, a page at a time so requests keep being served. Its first part, documents for files
 * without one, is also the bulk build of the index.
 */
export class IndexRepair {
  constructor(
    private readonly repo: SearchRepo,
    private readonly lanes: ContentLanes,
    private readonly ocr: Ocr,
    private readonly ocrSettings: OcrSettings,
  ) {}

  /**
   * Mend the index: documents for files that have none (the first build after an upgrade is
   * this; file-id order makes every index grow at its end), then names, trash state and text
   * that drifted from their files, and claims cut short; finally a job for every user with
   * work left.
   */
  async repair(ctx?: Progress): Promise<RepairStats> {
    const stats: RepairStats = {
      added: await this.indexMissing(ctx),
      renamed: 0,
      moved: 0,
      reread: 0,
    };
    await this.mendDrift(stats, ctx);
    return stats;
  }

  /** Documents for every file that has none; returns how many were added. */
  async indexMissing(ctx?: Progress): Promise<number> {
    // a first build loads faster with the name index made once at the end
    if (await this.repo.isEmpty()) await this.repo.dropNameIndex();
    try {
      return await this.addMissing(ctx);
    } finally {
      await this.repo.ensureNameIndex();
    }
  }

  private async addMissing(ctx?: Progress): Promise<number> {
    let added = 0;
    let after = '';
    for (;;) {
      ctx?.signal.throwIfAborted();
      const page = await this.repo.filesAfter(after, BUILD_BATCH);
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const known = await this.repo.indexedFiles(page.map((r) => r.id));
      const missing = page.filter((r) => !known.has(r.id));
      if (missing.length > 0) {
        await this.repo.transaction((trx) =>
          this.repo.addDocs(
            trx,
            missing.map((r) => docOf(r.userId, r)),
          ),
        );
        added += missing.length;
        ctx?.progress(Math.min(50, 1 + Math.floor(added / 20_000)));
      }
      await yieldToRequests();
    }
    return added;
  }

  /** Documents against their files: names, trash state, text of bytes that changed. */
  private async mendDrift(stats: RepairStats, ctx?: Progress): Promise<void> {
    let afterKey = -1;
    const trashIds = new Map<string, string>();
    const revived = new Set<string>();
    for (;;) {
      ctx?.signal.throwIfAborted();
      const page = await this.repo.docsWithFiles(afterKey, BUILD_BATCH);
      if (page.length === 0) break;
      afterKey = Number(page[page.length - 1]!.docKey);
      const renamed = page.filter((d) => d.name !== d.fileName);
      if (renamed.length > 0) {
        await this.repo.transaction((trx) =>
          this.repo.renameDocs(
            trx,
            renamed.map((d) => ({ fileId: d.fileId, name: d.fileName })),
          ),
        );
        stats.renamed += renamed.length;
      }
      for (const d of page) {
        if (d.live === 1 && d.trashId) trashIds.set(d.trashId, d.userId);
        if (d.live === 0 && !d.trashId) revived.add(d.userId);
      }
      const stale = page.filter(
        (d) =>
          ['done', 'failed', 'skipped'].includes(d.state) &&
          (d.contentHash ?? '') !== (d.hash ?? ''),
      );
      if (stale.length > 0) {
        await this.repo.markPending(stale.map((d) => d.docKey));
        stats.reread += stale.length;
      }
      await yieldToRequests();
    }
    for (const [trashId, userId] of trashIds) {
      await this.repo.transaction((trx) => this.repo.markTrashed(trx, userId, [trashId]));
      stats.moved += 1;
    }
    for (const userId of revived) {
      await this.repo.transaction((trx) => this.repo.markRestored(trx, userId));
      stats.moved += 1;
    }

    // OCR became possible (switched on, or an engine installed): what it skipped is read now
    const ocrConfig = await this.ocrSettings.get();
    if (ocrConfig.enable && this.ocr.engineFor(ocrConfig.ocrEngine))
      await this.lanes.retryOcrSkipped();

    // claims of a run cut short, then a job for everyone with work left
    for (const userId of await this.repo.usersWithWork()) {
      await this.lanes.releaseStale(userId);
      this.lanes.kick(userId, 'text');
      this.lanes.kick(userId, 'ocr');
    }
    ctx?.progress(
      100,
      `${stats.added} added, ${stats.renamed} renamed, ${stats.reread} to read again`,
    );
  }
}
