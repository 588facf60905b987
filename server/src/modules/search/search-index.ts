import path from 'node:path';
import type { Db } from '../../db/index.ts';
import type { JobContext, JobQueue } from '../../jobs/queue.ts';
import { newId } from '../../lib/ids.ts';
import type { FileRow } from '../files/files.repo.ts';
import type { FileChange, FilesService } from '../files/files.service.ts';
import { contentKindOf, extractText, extractWithOcr, type ContentKind } from './content/extract.ts';
import type { Ocr } from './content/ocr.ts';
import type { OcrSettings } from './ocr-settings.ts';
import { SearchRepo, type DocSource, type DocState } from './search.repo.ts';

export const JOB_CONTENT_INDEX = 'contentIndex';
export const JOB_OCR = 'ocr';
export const JOB_SEARCH_REPAIR = 'searchRepair';

/** A claim on a document older than this was cut short (a crash): the document is redone. */
const STALE_CLAIM_MS = 15 * 60_000;
/** Rows read per batch when (re)building the index of names. */
const BUILD_BATCH = 5000;
const MESSAGE_MAX = 480;
/** How often pending documents without a job are looked for. */
const SWEEP_MS = 30_000;

type Lane = 'text' | 'ocr';

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

type FileLike = Pick<FileRow, 'id' | 'name' | 'isFolder'> &
  Partial<Pick<FileRow, 'suffix' | 'fileType' | 'size' | 'hash' | 'trashId'>>;

/** The content state a new or changed file starts in. */
function initialState(row: FileLike): DocState {
  const kind = contentKindOf({
    suffix: row.suffix ?? '',
    fileType: row.fileType ?? 'other',
    isFolder: Number(row.isFolder),
    size: Number(row.size ?? 0),
  });
  return kind ? 'pending' : 'none';
}

const errorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).slice(0, MESSAGE_MAX);

export interface RepairStats {
  added: number;
  renamed: number;
  /** Subtrees whose trash state was set again. */
  moved: number;
  reread: number;
}

/** Let queued requests use the database between pages of a long pass. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A semaphore whose size is read when a slot is wanted (the OCR parallelism setting). */
class Gate {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: () => Promise<number>) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.busy >= (await this.size())) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.busy += 1;
    try {
      return await work();
    } finally {
      this.busy -= 1;
      this.waiting.shift()?.();
    }
  }
}

/**
 * Keeps the search index in step with the file tree. Names follow every change inside the
 * transaction that makes it (FilesService.onChange); text extraction and OCR run as durable
 * per-user jobs draining the documents marked pending, so a big tree never holds anything up.
 * A repair pass (at start and on demand) mends whatever a crash or an outside change left.
 */
export class SearchIndexer {
  readonly repo: SearchRepo;
  private readonly draining = new Map<string, { again: boolean }>();
  private readonly kicks = new Map<string, NodeJS.Timeout>();
  private readonly gate: Gate;
  private readonly usernames = new Map<string, string>();
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly db: Db,
    dialect: 'sqlite' | 'postgres',
    private readonly files: FilesService,
    private readonly jobs: JobQueue,
    private readonly ocr: Ocr,
    private readonly ocrSettings: OcrSettings,
  ) {
    this.repo = new SearchRepo(db, dialect);
    this.gate = new Gate(async () => (await this.ocrSettings.get()).maxTasks);
    files.onChange((change, trx) => this.follow(change, trx));
  }

  // ---- following the tree -----------------------------------------------------------------

  private async follow(change: FileChange, trx: Db): Promise<void> {
    switch (change.kind) {
      case 'created': {
        const docs: DocSource[] = change.rows.map((row) => ({
          fileId: row.id,
          userId: change.userId,
          name: row.name,
          live: !row.trashId,
          state: initialState(row),
        }));
        await this.repo.addDocs(trx, docs);
        if (docs.some((d) => d.state === 'pending' && d.live)) this.kick(change.userId, 'text');
        return;
      }
      case 'updated':
        await this.update(trx, change.userId, change.rows);
        return;
      case 'trashed':
        await this.repo.markTrashed(trx, change.userId, change.trashId);
        return;
      case 'restored':
        if ((await this.repo.markRestored(trx, change.userId)) > 0)
          this.kick(change.userId, 'text');
        return;
    }
  }

  /** Rows renamed or rewritten: new names indexed, changed bytes read again. */
  private async update(trx: Db, userId: string, rows: FileLike[]): Promise<void> {
    if (rows.length === 0) return;
    const docs = await trx
      .selectFrom('searchDoc')
      .select(['fileId', 'name', 'state', 'contentHash', 'docKey', 'live'])
      .where(
        'fileId',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const byFile = new Map(docs.map((d) => [d.fileId, d]));
    const missing: DocSource[] = [];
    let pending = false;
    for (const row of rows) {
      const doc = byFile.get(row.id);
      if (!doc) {
        missing.push({
          fileId: row.id,
          userId,
          name: row.name,
          live: !row.trashId,
          state: initialState(row),
        });
        continue;
      }
      if (doc.name !== row.name)
        await this.repo.renameDocs(trx, [{ fileId: row.id, name: row.name }]);
      const wanted = initialState(row);
      if (wanted === 'none') {
        if (doc.state !== 'none') {
          await this.repo.clearContent(trx, doc.docKey);
          await trx
            .updateTable('searchDoc')
            .set({ state: 'none', contentHash: null, message: null })
            .where('docKey', '=', doc.docKey)
            .execute();
        }
      } else if (
        row.hash !== undefined &&
        (doc.contentHash !== (row.hash ?? '') || doc.state === 'none')
      ) {
        await trx
          .updateTable('searchDoc')
          .set({ state: 'pending', message: null, updatedAt: Date.now() })
          .where('docKey', '=', doc.docKey)
          .execute();
        pending ||= doc.live === 1;
      }
    }
    if (missing.length > 0) {
      await this.repo.addDocs(trx, missing);
      pending ||= missing.some((m) => m.state === 'pending' && m.live);
    }
    if (pending) this.kick(userId, 'text');
  }

  // ---- jobs -------------------------------------------------------------------------------

  register(): void {
    this.jobs.register(JOB_CONTENT_INDEX, (ctx) => this.drain(ctx, 'text'), {
      concurrency: 2,
      maxAttempts: 5,
    });
    this.jobs.register(JOB_OCR, (ctx) => this.drain(ctx, 'ocr'), {
      concurrency: 2,
      maxAttempts: 5,
    });
    this.jobs.register(JOB_SEARCH_REPAIR, async (ctx) => void (await this.repair(ctx)), {
      concurrency: 1,
      maxAttempts: 3,
    });
  }

  /**
   * Once the app is ready: mend the index in the background, and look every half minute for
   * pending documents that no job is draining (a change committed after its job had looked).
   */
  async start(): Promise<void> {
    const queued = await this.db
      .selectFrom('job')
      .select('id')
      .where('type', '=', JOB_SEARCH_REPAIR)
      .where('state', 'in', ['queued', 'running'])
      .executeTakeFirst();
    if (!queued) await this.jobs.enqueue(JOB_SEARCH_REPAIR, {}, { userId: null, delayMs: 3000 });
    this.sweepTimer = setInterval(() => void this.sweep().catch(() => undefined), SWEEP_MS);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    for (const timer of this.kicks.values()) clearTimeout(timer);
    this.kicks.clear();
    await this.ocr.close();
  }

  private async sweep(): Promise<void> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select(['userId', 'state'])
      .distinct()
      .where('state', 'in', ['pending', 'pending_ocr'])
      .where('live', '=', 1)
      .execute();
    for (const r of rows) this.kick(r.userId, r.state === 'pending' ? 'text' : 'ocr');
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
      void this.ensureJob(userId, lane).catch(() => undefined);
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
    const queued = await this.db
      .selectFrom('job')
      .select('id')
      .where('userId', '=', userId)
      .where('type', '=', spec.job)
      .where('state', '=', 'queued')
      .executeTakeFirst();
    if (!queued) await this.jobs.enqueue(spec.job, {}, { userId, name: spec.title, path: '/' });
  }

  private async usernameOf(userId: string): Promise<string | undefined> {
    const known = this.usernames.get(userId);
    if (known) return known;
    const row = await this.db
      .selectFrom('user')
      .select('username')
      .where('id', '=', userId)
      .executeTakeFirst();
    if (row) this.usernames.set(userId, row.username);
    return row?.username;
  }

  private async countPending(userId: string, state: DocState): Promise<number> {
    const row = await this.db
      .selectFrom('searchDoc')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('state', '=', state)
      .where('live', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Claim up to `count` pending documents of a user for one lane. */
  private async claim(userId: string, spec: LaneSpec, count: number): Promise<number[]> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .where('userId', '=', userId)
      .where('state', '=', spec.pending)
      .where('live', '=', 1)
      .orderBy('docKey')
      .limit(count)
      .execute();
    const claimed: number[] = [];
    for (const { docKey } of rows) {
      const res = await this.db
        .updateTable('searchDoc')
        .set({ state: spec.running, claimedAt: Date.now() })
        .where('docKey', '=', docKey)
        .where('state', '=', spec.pending)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) === 1) claimed.push(docKey);
    }
    return claimed;
  }

  /** One job run: process the user's pending documents of a lane until none are left. */
  private async drain(ctx: JobContext, lane: Lane): Promise<void> {
    const userId = ctx.userId;
    if (!userId) return;
    const spec = LANES[lane];
    const key = `${lane}:${userId}`;
    const mark = { again: false };
    this.draining.set(key, mark);
    try {
      await this.releaseStale(userId);
      let done = 0;
      let total = await this.countPending(userId, spec.pending);
      const parallel = lane === 'ocr' ? Math.max(1, (await this.ocrSettings.get()).maxTasks) : 1;
      for (;;) {
        ctx.signal.throwIfAborted();
        const batch = await this.claim(userId, spec, lane === 'ocr' ? parallel : 20);
        if (batch.length === 0) {
          // more work arrived while the last batch ran
          if (mark.again) {
            mark.again = false;
            total = done + (await this.countPending(userId, spec.pending));
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
              const file = await this.fileOf(docKey);
              await this.setState(docKey, spec.running, 'failed', errorText(err), file?.hash ?? '');
            }
          }
          done += 1;
          total = Math.max(total, done + 1);
          ctx.progress(Math.min(99, Math.floor((done / total) * 100)));
        };
        if (lane === 'ocr') await Promise.all(batch.map((k) => this.gate.run(() => work(k))));
        else for (const k of batch) await work(k);
      }
      ctx.progress(100, `${done} documents`);
    } finally {
      this.draining.delete(key);
    }
  }

  private async setState(
    docKey: number,
    from: DocState,
    to: DocState,
    message: string | null,
    contentHash?: string | null,
  ): Promise<boolean> {
    const res = await this.db
      .updateTable('searchDoc')
      .set({
        state: to,
        message,
        claimedAt: null,
        updatedAt: Date.now(),
        ...(contentHash !== undefined ? { contentHash } : {}),
      })
      .where('docKey', '=', docKey)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Claims left by a run that was cut short go back to their queues. */
  private async releaseStale(userId: string): Promise<void> {
    const before = Date.now() - STALE_CLAIM_MS;
    for (const spec of Object.values(LANES)) {
      await this.db
        .updateTable('searchDoc')
        .set({ state: spec.pending, claimedAt: null })
        .where('userId', '=', userId)
        .where('state', '=', spec.running)
        .where((eb) => eb.or([eb('claimedAt', 'is', null), eb('claimedAt', '<', before)]))
        .execute();
    }
  }

  private async fileOf(docKey: number) {
    return this.db
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .selectAll('f')
      .select(['d.docKey', 'd.contentHash', 'd.live'])
      .where('d.docKey', '=', docKey)
      .executeTakeFirst();
  }

  /** Store the text of a document unless its file changed meanwhile (then it stays queued). */
  private async store(docKey: number, from: DocState, hash: string, text: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('searchDoc')
        .set({
          state: 'done',
          contentHash: hash,
          message: null,
          claimedAt: null,
          updatedAt: Date.now(),
        })
        .where('docKey', '=', docKey)
        .where('state', '=', from)
        .executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return;
      const live = await trx
        .selectFrom('searchDoc')
        .select('live')
        .where('docKey', '=', docKey)
        .executeTakeFirstOrThrow();
      await this.repo.writeContent(trx, docKey, live.live === 1, text);
    });
  }

  private async diskPath(file: FileRow): Promise<string | null> {
    const username = await this.usernameOf(file.userId);
    if (!username || file.trashId) return null;
    return this.files.tree.pathOf(username, file.path, file.name);
  }

  /** Text lane: reuse text already read from the same bytes, else read the file. */
  private async readText(docKey: number, signal: AbortSignal): Promise<void> {
    const file = await this.fileOf(docKey);
    const spec = LANES.text;
    if (!file) return;
    const kind = contentKindOf(file);
    if (!kind) {
      await this.db.transaction().execute(async (trx) => {
        await this.repo.clearContent(trx, docKey);
        await trx
          .updateTable('searchDoc')
          .set({ state: 'none', contentHash: null, claimedAt: null })
          .where('docKey', '=', docKey)
          .execute();
      });
      return;
    }
    const hash = file.hash ?? '';
    // the stored text is current: only the full-text row is missing (after a restore)
    if (file.contentHash === hash && hash) {
      const stored = await this.db
        .selectFrom('searchContent')
        .select('docKey')
        .where('docKey', '=', docKey)
        .limit(1)
        .executeTakeFirst();
      if (stored) {
        await this.db.transaction().execute(async (trx) => {
          const res = await trx
            .updateTable('searchDoc')
            .set({ state: 'done', claimedAt: null })
            .where('docKey', '=', docKey)
            .where('state', '=', spec.running)
            .executeTakeFirst();
          if (Number(res.numUpdatedRows) === 1 && file.live === 1)
            await this.repo.indexStoredText(trx, docKey);
        });
        return;
      }
    }
    // the same bytes were read before (a copy, a duplicate upload)
    if (hash && (await this.copyFromTwin(docKey, hash, file.live === 1))) return;
    const source = await this.diskPath(file);
    if (!source) {
      await this.setState(docKey, spec.running, 'pending', null);
      return;
    }
    const extracted = await extractText(source, kind, file.suffix, signal);
    if (extracted.needsOcr) {
      const settings = await this.ocrSettings.get();
      const engine = settings.enable ? this.ocr.engineFor(settings.ocrEngine) : null;
      if (extracted.text) await this.store(docKey, spec.running, hash, extracted.text);
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
    await this.store(docKey, spec.running, hash, extracted.text);
  }

  /** Take the stored text of another document with the same bytes; false when there is none. */
  private async copyFromTwin(docKey: number, hash: string, live: boolean): Promise<boolean> {
    const twin = await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .where('contentHash', '=', hash)
      .where('state', '=', 'done')
      .where('docKey', '!=', docKey)
      .limit(1)
      .executeTakeFirst();
    if (!twin) return false;
    return this.db.transaction().execute(async (trx) => {
      const res = await trx
        .updateTable('searchDoc')
        .set({ state: 'done', contentHash: hash, message: null, claimedAt: null })
        .where('docKey', '=', docKey)
        .where('state', '=', LANES.text.running)
        .executeTakeFirst();
      // the file changed meanwhile: nothing to do now, it is queued again
      if (Number(res.numUpdatedRows) !== 1) return true;
      if (await this.repo.copyContent(trx, twin.docKey, docKey, live)) return true;
      // the twin had no text after all (an image waiting for OCR): read this file itself
      await trx
        .updateTable('searchDoc')
        .set({ state: LANES.text.running })
        .where('docKey', '=', docKey)
        .execute();
      return false;
    });
  }

  /** OCR lane: images and scanned PDFs. */
  private async readWithOcr(docKey: number, signal: AbortSignal): Promise<void> {
    const spec = LANES.ocr;
    const file = await this.fileOf(docKey);
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
    const source = await this.diskPath(file);
    if (!kind || !source) {
      await this.setState(docKey, spec.running, 'pending', null);
      return;
    }
    const tmp = path.join(this.files.tree.tmpDir, `ocr-${newId()}`);
    const text = await extractWithOcr(source, kind, this.ocr, engine, tmp, signal);
    await this.store(docKey, spec.running, file.hash ?? '', text);
  }

  /** After OCR is switched on: documents skipped for want of it are read again. */
  async retryOcrSkipped(): Promise<void> {
    const users = await this.db
      .selectFrom('searchDoc')
      .select('userId')
      .distinct()
      .where('state', '=', 'skipped')
      .where('message', 'like', 'ocr:%')
      .execute();
    await this.db
      .updateTable('searchDoc')
      .set({ state: 'pending', message: null })
      .where('state', '=', 'skipped')
      .where('message', 'like', 'ocr:%')
      .execute();
    for (const { userId } of users) this.kick(userId, 'text');
  }

  // ---- repair and bulk build --------------------------------------------------------------

  /**
   * Mend the index, a page at a time so requests keep being served: documents for files that
   * have none (the first build after an upgrade is this; file-id order makes every index grow
   * at its end), then names, trash state and text that drifted from their files, and claims
   * cut short; finally a job for every user with work left.
   */
  async repair(ctx?: Pick<JobContext, 'progress' | 'signal'>): Promise<RepairStats> {
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
  async indexMissing(ctx?: Pick<JobContext, 'progress' | 'signal'>): Promise<number> {
    // a first build loads faster with the name index made once at the end
    const first = !(await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .limit(1)
      .executeTakeFirst());
    if (first) await this.repo.dropNameIndex();
    try {
      return await this.addMissing(ctx);
    } finally {
      await this.repo.ensureNameIndex();
    }
  }

  private async addMissing(ctx?: Pick<JobContext, 'progress' | 'signal'>): Promise<number> {
    let added = 0;
    let after = '';
    for (;;) {
      ctx?.signal.throwIfAborted();
      const page = await this.db
        .selectFrom('file')
        .select(['id', 'userId', 'name', 'isFolder', 'suffix', 'fileType', 'size', 'trashId'])
        .where('id', '>', after)
        .orderBy('id')
        .limit(BUILD_BATCH)
        .execute();
      if (page.length === 0) break;
      after = page[page.length - 1]!.id;
      const known = new Set(
        (
          await this.db
            .selectFrom('searchDoc')
            .select('fileId')
            .where(
              'fileId',
              'in',
              page.map((r) => r.id),
            )
            .execute()
        ).map((r) => r.fileId),
      );
      const missing = page.filter((r) => !known.has(r.id));
      if (missing.length > 0) {
        await this.db.transaction().execute((trx) =>
          this.repo.addDocs(
            trx,
            missing.map((r) => ({
              fileId: r.id,
              userId: r.userId,
              name: r.name,
              live: !r.trashId,
              state: initialState(r),
            })),
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
  private async mendDrift(
    stats: RepairStats,
    ctx?: Pick<JobContext, 'progress' | 'signal'>,
  ): Promise<void> {
    let afterKey = -1;
    const trashIds = new Map<string, string>();
    const revived = new Set<string>();
    for (;;) {
      ctx?.signal.throwIfAborted();
      const page = await this.db
        .selectFrom('searchDoc as d')
        .innerJoin('file as f', 'f.id', 'd.fileId')
        .select([
          'd.docKey',
          'd.fileId',
          'd.userId',
          'd.name',
          'd.live',
          'd.state',
          'd.contentHash',
          'f.name as fileName',
          'f.trashId',
          'f.hash',
        ])
        .where('d.docKey', '>', afterKey)
        .orderBy('d.docKey')
        .limit(BUILD_BATCH)
        .execute();
      if (page.length === 0) break;
      afterKey = Number(page[page.length - 1]!.docKey);
      const renamed = page.filter((d) => d.name !== d.fileName);
      if (renamed.length > 0) {
        await this.db.transaction().execute((trx) =>
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
        await this.db
          .updateTable('searchDoc')
          .set({ state: 'pending', message: null })
          .where(
            'docKey',
            'in',
            stale.map((d) => d.docKey),
          )
          .execute();
        stats.reread += stale.length;
      }
      await yieldToRequests();
    }
    for (const [trashId, userId] of trashIds) {
      await this.db.transaction().execute((trx) => this.repo.markTrashed(trx, userId, trashId));
      stats.moved += 1;
    }
    for (const userId of revived) {
      await this.db.transaction().execute((trx) => this.repo.markRestored(trx, userId));
      stats.moved += 1;
    }

    // OCR became possible (switched on, or an engine installed): what it skipped is read now
    const ocrConfig = await this.ocrSettings.get();
    if (ocrConfig.enable && this.ocr.engineFor(ocrConfig.ocrEngine)) await this.retryOcrSkipped();

    // claims of a run cut short, then a job for everyone with work left
    const users = await this.db
      .selectFrom('searchDoc')
      .select('userId')
      .distinct()
      .where('state', 'in', ['pending', 'pending_ocr', 'running', 'running_ocr'])
      .execute();
    for (const { userId } of users) {
      await this.releaseStale(userId);
      this.kick(userId, 'text');
      this.kick(userId, 'ocr');
    }
    ctx?.progress(
      100,
      `${stats.added} added, ${stats.renamed} renamed, ${stats.reread} to read again`,
    );
  }
}
