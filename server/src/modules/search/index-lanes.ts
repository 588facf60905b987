import type { JobContext, JobQueue } from '../../jobs/queue.ts';
import { Gate } from '../../lib/gate.ts';
import type { LocalFile } from '../../storage/blob-store.ts';
import type { FilesService } from '../files/files.service.ts';
import { contentKindOf, extractText, extractWithOcr, type ContentKind } from './content/extract.ts';
import type { Ocr } from './content/ocr.ts';
import type { OcrSettings } from './ocr-settings.ts';
import type { DocState, SearchRepo } from './search.repo.ts';

export const JOB_CONTENT_INDEX = 'contentIndex';
export const JOB_OCR = 'ocr';

/** A claim on a document older than this was cut short (a crash): the document is redone. */
const STALE_CLAIM_MS = 15 * 60_000;
const MESSAGE_MAX = 480;

export type Lane = 'text' | 'ocr';

/** Where the index reports background work it could not do. */
export interface IndexLog {
  warn(details: object, message: string): void;
}

interface LaneSpec {
  job: string;
  pending: DocState;
  running: DocState;
  title: string;
}

const LANES: Record<Lane, LaneSpec> = {
  text: { job: JOB_CONTENT_INDEX, pending: 'pending', running: 'running', title: 'Text index' },
  ocr: { job: JOB_OCR, pending: 'pending_ocr', running: 'running_ocr', title: 'OCR' },
};

const errorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).slice(0, MESSAGE_MAX);

/**
 * The content lanes: reading text (`contentIndex`) and OCR (`ocr`) run as durable per-user jobs
 * that drain the user's documents marked pending, each claimed with a conditional update, so a
 * big tree never holds anything up. Text read once is reused for the same bytes.
 */
export class ContentLanes {
  private readonly draining = new Map<string, { again: boolean }>();
  private readonly kicks = new Map<string, NodeJS.Timeout>();
  /**
   * OCR runs at most the configured number of images at a time. The tesseract processes are
   * this node's CPU, so it stays local: each node runs that many.
   */
  private readonly gate: Gate;
  log: IndexLog | undefined;

  constructor(
    private readonly repo: SearchRepo,
    private readonly files: FilesService,
    private readonly jobs: JobQueue,
    private readonly ocr: Ocr,
    private readonly ocrSettings: OcrSettings,
    private readonly usernameOf: (userId: string) => Promise<string | undefined>,
  ) {
    this.gate = new Gate(async () => (await this.ocrSettings.get()).maxTasks);
  }

  /** Live documents queued and claimed in each lane (the OCR and text-reading backlogs). */
  async queueCounts(): Promise<Array<{ lane: Lane; state: 'queued' | 'running'; count: number }>> {
    const counts = new Map<string, number>(
      (await this.repo.laneCounts()).map((row) => [row.state, row.count]),
    );
    return (Object.entries(LANES) as Array<[Lane, LaneSpec]>).flatMap(([lane, spec]) => [
      { lane, state: 'queued' as const, count: counts.get(spec.pending) ?? 0 },
      { lane, state: 'running' as const, count: counts.get(spec.running) ?? 0 },
    ]);
  }

  stop(): void {
    for (const timer of this.kicks.values()) clearTimeout(timer);
    this.kicks.clear();
  }

  /** Pending documents that no job is draining (a change committed after its job had looked). */
  async sweep(): Promise<void> {
    for (const r of await this.repo.usersWithPending())
      this.kick(r.userId, r.state === 'pending' ? 'text' : 'ocr');
  }

  /** Make sure a job drains the user's pending documents of a lane (debounced). */
  kick(userId: string, lane: Lane): void {
    const key = `${lane}:${userId}`;
    const draining = this.draining.get(key);
    if (draining) {
      draining.again = true;
      return;
    }
    if (this.kicks.has(key)) return;
    const timer = setTimeout(() => {
      this.kicks.delete(key);
      void this.ensureJob(userId, lane).catch((err: unknown) =>
        this.log?.warn({ err, userId, lane }, 'search index: could not queue a reading job'),
      );
    }, 100);
    timer.unref();
    this.kicks.set(key, timer);
  }

  private async ensureJob(userId: string, lane: Lane): Promise<void> {
    const key = `${lane}:${userId}`;
    const draining = this.draining.get(key);
    if (draining) {
      draining.again = true;
      return;
    }
    const spec = LANES[lane];
    if (!(await this.jobs.hasJob(spec.job, { userId, states: ['queued'] })))
      await this.jobs.enqueue(spec.job, {}, { userId, name: spec.title, path: '/' });
  }

  /** Claims left by a run that was cut short go back to their queues. */
  async releaseStale(userId: string): Promise<void> {
    const before = Date.now() - STALE_CLAIM_MS;
    for (const spec of Object.values(LANES))
      await this.repo.releaseClaims(userId, spec.running, spec.pending, before);
  }

  /** After OCR is switched on: documents skipped for want of it are read again. */
  async retryOcrSkipped(): Promise<void> {
    for (const userId of await this.repo.requeueOcrSkipped()) this.kick(userId, 'text');
  }

  /** One job run: process the user's pending documents of a lane until none are left. */
  async drain(ctx: JobContext, lane: Lane): Promise<void> {
    const userId = ctx.userId;
    if (!userId) return;
    const spec = LANES[lane];
    const key = `${lane}:${userId}`;
    const mark = { again: false };
    this.draining.set(key, mark);
    try {
      await this.releaseStale(userId);
      let done = 0;
      let total = await this.repo.countInState(userId, spec.pending);
      const parallel = lane === 'ocr' ? Math.max(1, (await this.ocrSettings.get()).maxTasks) : 1;
      for (;;) {
        ctx.signal.throwIfAborted();
        const batch = await this.repo.claim(
          userId,
          spec.pending,
          spec.running,
          lane === 'ocr' ? parallel : 20,
        );
        if (batch.length === 0) {
          // more work arrived while the last batch ran
          if (mark.again) {
            mark.again = false;
            total = done + (await this.repo.countInState(userId, spec.pending));
            continue;
          }
          break;
        }
        const work = async (docKey: number) => {
          try {
            if (lane === 'ocr') await this.readWithOcr(docKey, ctx.signal);
            else await this.readText(docKey, ctx.signal);
          } catch (err) {
            // back to the queue when the job was stopped; otherwise failed until the file changes
            if (ctx.signal.aborted) await this.setState(docKey, spec.running, spec.pending, null);
            else {
              const file = await this.repo.fileOf(docKey);
              await this.setState(docKey, spec.running, 'failed', errorText(err), file?.hash ?? '');
            }
          }
          done += 1;
          total = Math.max(total, done + 1);
          ctx.progress(Math.min(99, Math.floor((done / total) * 100)));
        };
        if (lane === 'ocr')
          await Promise.all(batch.map((k) => this.gate.run('ocr', () => work(k))));
        else for (const k of batch) await work(k);
      }
      ctx.progress(100, `${done} documents`);
    } finally {
      this.draining.delete(key);
    }
  }

  private setState(
    docKey: number,
    from: DocState,
    to: DocState,
    message: string | null,
    contentHash?: string | null,
  ): Promise<boolean> {
    return this.repo.updateDocIn(docKey, from, {
      state: to,
      message,
      claimedAt: null,
      updatedAt: Date.now(),
      ...(contentHash !== undefined ? { contentHash } : {}),
    });
  }

  /** The live file's bytes as a file on this server's disk, for the extraction programs. */
  private async localCopy(file: {
    userId: string;
    path: string;
    name: string;
    trashId: string | null;
  }): Promise<LocalFile | null> {
    const username = await this.usernameOf(file.userId);
    if (!username || file.trashId) return null;
    return this.files.blobs.local(this.files.placeOf({ id: file.userId, username }, file));
  }

  /** Text lane: reuse text already read from the same bytes, else read the file. */
  private async readText(docKey: number, signal: AbortSignal): Promise<void> {
    const file = await this.repo.fileOf(docKey);
    const spec = LANES.text;
    if (!file) return;
    const kind = contentKindOf(file);
    if (!kind) {
      await this.repo.dropText(docKey);
      return;
    }
    const hash = file.hash ?? '';
    // the stored text is current: only the full-text row is missing (after a restore)
    if (file.contentHash === hash && hash && (await this.repo.hasStoredText(docKey))) {
      await this.repo.reuseStoredText(docKey, spec.running, file.live === 1);
      return;
    }
    // the same bytes were read before (a copy, a duplicate upload)
    if (hash && (await this.repo.copyFromTwin(docKey, hash, file.live === 1, spec.running))) return;
    const source = await this.localCopy(file);
    if (!source) {
      await this.setState(docKey, spec.running, 'pending', null);
      return;
    }
    const extracted = await extractText(source.path, kind, file.suffix, signal).finally(() =>
      source.release(),
    );
    if (extracted.needsOcr) {
      const settings = await this.ocrSettings.get();
      const engine = settings.enable ? this.ocr.engineFor(settings.ocrEngine) : null;
      if (extracted.text) await this.repo.storeText(docKey, spec.running, hash, extracted.text);
      const from = extracted.text ? 'done' : spec.running;
      if (engine) {
        if (await this.setState(docKey, from, 'pending_ocr', null)) this.kick(file.userId, 'ocr');
      } else if (!extracted.text) {
        await this.setState(
          docKey,
          from,
          'skipped',
          settings.enable ? 'ocr:unavailable' : 'ocr:disabled',
          hash,
        );
      }
      return;
    }
    await this.repo.storeText(docKey, spec.running, hash, extracted.text);
  }

  /** OCR lane: images and scanned PDFs. */
  private async readWithOcr(docKey: number, signal: AbortSignal): Promise<void> {
    const spec = LANES.ocr;
    const file = await this.repo.fileOf(docKey);
    if (!file) return;
    const settings = await this.ocrSettings.get();
    const engine = settings.enable ? this.ocr.engineFor(settings.ocrEngine) : null;
    if (!engine) {
      await this.setState(
        docKey,
        spec.running,
        'skipped',
        settings.enable ? 'ocr:unavailable' : 'ocr:disabled',
      );
      return;
    }
    const kind: ContentKind | null = contentKindOf(file);
    const source = kind ? await this.localCopy(file) : null;
    if (!kind || !source) {
      await this.setState(docKey, spec.running, 'pending', null);
      return;
    }
    const scratch = await this.files.blobs.scratch();
    let text: string;
    try {
      text = await extractWithOcr(source.path, kind, this.ocr, engine, scratch.path, signal);
    } finally {
      await source.release();
      await scratch.release();
    }
    await this.repo.storeText(docKey, spec.running, file.hash ?? '', text);
  }
}
