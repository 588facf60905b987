import type { Readable } from 'node:stream';
import {
  ErrorCode,
  type ChunkParams,
  type ChunkTestResult,
  type MergeParams,
  type UploadSessionView,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { sha256 } from '../../lib/ids.ts';
import type { TrashService } from '../files/trash.service.ts';
import type { HistoryService } from '../history/history.service.ts';
import { toView, type FileView } from '../files/file-view.ts';
import { newItemScope } from '../files/item-locks.ts';
import type { FilesService, FolderRef, Owner } from '../files/files.service.ts';
import { checkName, checkPathLength, folderPathOf, parseFolderPath } from '../files/names.ts';
import { LocalLocks, type KeyedMutex, type Locks } from '../../lib/locks.ts';
import { SESSION_IDLE_MS, VISITOR_SESSION_IDLE_MS } from '../files/quota.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { ChunkStore } from './chunk-store.ts';
import { UploadHashes } from './upload-hashes.ts';
import { UploadPlacer } from './upload-placer.ts';
import {
  type UploadPolicy,
  expectedChunkSize,
  isContentHash,
  sessionKey,
  targetSegments,
  validateChunk,
  validateFile,
} from './upload-rules.ts';
import { UploadRepo, type UploadSession } from './upload.repo.ts';
import type { FilesRepo } from '../files/files.repo.ts';

export type { UploadSession };

export type { ChunkParams, ChunkTestResult, UploadSessionView } from '@nimbus/contract';

export type { UploadPolicy } from './upload-rules.ts';

/** What one share visitor (share and address) may hold in uploads under way. */
export const VISITOR_MAX_SESSIONS = 10;
export const VISITOR_MAX_BYTES = 20 * 1024 ** 3;

const OWNER_POLICY: UploadPolicy = { instantCopy: true, replace: true };

export const JOB_UPLOAD_MERGE = 'uploadMerge';

export interface MergeJobPayload {
  sessionId: string;
  policy: UploadPolicy;
}

/** What a merge request learns: the file, or that a background task is still merging it. */
export type MergeOutcome =
  | { file: FileView; merging?: undefined }
  | { merging: true; progress: number; taskId: string; file?: undefined };

export interface UploadOptions {
  /** Runs the merges of large uploads; without it every merge happens in the request. */
  jobs?: JobQueue;
  /** Uploads of this size or more are merged by a background task (status "merging"). */
  backgroundMergeBytes?: number;
  /** A merge request waits this long for a background merge before answering "still merging". */
  mergeWaitMs?: number;
  /** Where the locks of a session live: this process (the default), or Redis for every node. */
  locks?: Locks;
}

/** Sessions untouched this long are abandoned: their bytes go and their space is freed. */
export const ABANDONED_AFTER_MS = SESSION_IDLE_MS;

/**
 * Chunked, resumable uploads. Each chunk is written once, at its offset, into one preallocated
 * file; the session lives in the database so a restart or a reload resumes where it stopped.
 * An identifier that is the SHA-256 of the content is checked against the merged file; any
 * other (the original client's) only names the upload, and the hash is computed as it arrives.
 */
export class UploadService {
  private readonly hashes: UploadHashes;
  /** One merge or cancel per session at a time, on whichever node the request lands. */
  private readonly mergeLocks: KeyedMutex;
  /** One opening of a session at a time: two first chunks reserve its space once. */
  private readonly openLocks: KeyedMutex;

  private readonly jobs: JobQueue | undefined;
  private readonly backgroundMergeBytes: number;
  private readonly mergeWaitMs: number;

  private readonly repo: UploadRepo;
  private readonly chunks: ChunkStore;
  private readonly placer: UploadPlacer;

  constructor(
    db: Db,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    trash: TrashService,
    history: HistoryService,
    options: UploadOptions = {},
  ) {
    this.repo = new UploadRepo(db);
    this.chunks = new ChunkStore(this.repo, files.blobs, files.presence);
    this.hashes = new UploadHashes(this.repo, files.blobs);
    this.placer = new UploadPlacer(this.repo, files, fileRows, trash, history);
    this.jobs = options.jobs;
    this.backgroundMergeBytes = options.backgroundMergeBytes ?? Infinity;
    this.mergeWaitMs = options.mergeWaitMs ?? 10_000;
    const locks = options.locks ?? new LocalLocks();
    this.mergeLocks = locks.mutex('upload-merge');
    this.openLocks = locks.mutex('upload-open');
  }
  /** Upload sessions not done, by state: what the metrics report. No access check. */
  sessionCounts(): Promise<Array<{ state: string; count: number }>> {
    return this.repo.countsByState();
  }

  private get blobs() {
    return this.files.blobs;
  }

  /** The folder a file of this upload goes to (upload-rules.ts). */
  targetSegments(
    p: Pick<ChunkParams, 'currentDirectory' | 'relativePath' | 'folderPath' | 'filename'>,
  ): string[] {
    return targetSegments(p);
  }

  /** POST checkExist: do any of these names exist in the target folder? */
  async checkExist(
    actor: Actor,
    filenames: string[],
    currentDirectory: string | undefined,
  ): Promise<boolean> {
    let folder: FolderRef;
    try {
      folder = await this.files.resolveFolder(actor.id, currentDirectory);
    } catch (err) {
      if (err instanceof AppError && err.code === ErrorCode.DIRECTORY_NOT_FOUND) return false;
      throw err;
    }
    const names = await this.fileRows.childNames(actor.id, folder.id);
    return filenames.some((n) => names.has(n.normalize('NFC')));
  }

  private find(id: string): Promise<UploadSession | undefined> {
    return this.repo.find(id);
  }

  /** The chunks whose bytes are written (a chunk being received is not one of them yet). */
  private received(id: string): Promise<number[]> {
    return this.repo.doneChunks(id);
  }

  /** A session left without a chunk too long (an hour for a visitor's): it reserves nothing. */
  private lapsed(session: UploadSession, now = Date.now()): boolean {
    const idle = session.shareId ? VISITOR_SESSION_IDLE_MS : SESSION_IDLE_MS;
    return session.state === 'uploading' && session.updatedAt < now - idle;
  }

  /**
   * The session of this upload, created when it is new: its whole size is reserved against the
   * quota in the same transaction that records it, so two uploads at once cannot both take the
   * last free space, and a visitor's reservation stays within the visitor's bounds.
   */
  private open(actor: Actor, p: ChunkParams, policy: UploadPolicy): Promise<UploadSession> {
    const id = sessionKey(actor.id, p, policy.visitor?.shareId);
    return this.openLocks.run(id, async () => {
      const now = Date.now();
      const found = await this.find(id);
      if (found && found.state !== 'failed' && !this.lapsed(found, now)) return found;
      // a failed or lapsed session starts afresh, and reserves its space again
      if (found) await this.discard(id);
      const session: UploadSession = {
        id,
        userId: actor.id,
        identifier: p.identifier,
        filename: p.filename,
        targetPath: folderPathOf(targetSegments(p)),
        totalSize: p.totalSize,
        chunkSize: p.chunkSize,
        totalChunks: p.totalChunks,
        lastModified: p.lastModified === undefined ? null : Math.round(p.lastModified),
        state: 'uploading',
        message: null,
        fileId: null,
        jobId: null,
        shareId: policy.visitor?.shareId ?? null,
        visitor: policy.visitor?.address.slice(0, 64) ?? null,
        createdAt: now,
        updatedAt: now,
      };
      await this.files.withSpace(
        actor.id,
        p.totalSize,
        async (trx) => {
          if (policy.visitor)
            await this.assertVisitorRoom(trx, actor.id, policy.visitor, p.totalSize, id, now);
          await this.repo.insertSession(trx, session);
        },
        { exceptSession: id, now, field: 'totalSize' },
      );
      // one preallocated file; every chunk lands at its own offset
      try {
        await this.chunks.allocate(id, p.totalSize);
      } catch (err) {
        await this.discard(id);
        throw err;
      }
      return session;
    });
  }

  /**
   * A share visitor (share and address) holds at most VISITOR_MAX_SESSIONS uploads under way and
   * VISITOR_MAX_BYTES reserved; the visitors of a share together at most half of what the owner
   * has free without them. The caller holds the owner's row (files.withSpace).
   */
  private async assertVisitorRoom(
    trx: Db,
    ownerId: string,
    visitor: NonNullable<UploadPolicy['visitor']>,
    size: number,
    exceptId: string,
    now: number,
  ): Promise<void> {
    const scope = {
      ownerId,
      shareId: visitor.shareId,
      exceptId,
      since: now - VISITOR_SESSION_IDLE_MS,
    };
    const mine = await this.repo.visitorActivity(trx, {
      ...scope,
      visitor: visitor.address.slice(0, 64),
    });
    if (mine.n >= VISITOR_MAX_SESSIONS)
      throw new AppError(
        ErrorCode.TOO_MANY_REQUESTS,
        `At most ${VISITOR_MAX_SESSIONS} of your uploads can be under way in this share; let one finish first`,
      );
    if (mine.bytes + size > VISITOR_MAX_BYTES)
      throw new AppError(
        ErrorCode.SPACE_FULL,
        `Your uploads under way in this share may reserve at most ${VISITOR_MAX_BYTES / 1024 ** 3} GiB`,
      );
    const all = (await this.repo.visitorActivity(trx, scope)).bytes;
    const free = await this.files.spaceLeft(ownerId, { trx, exceptSession: exceptId, now });
    if ((all + size) * 2 > free + all)
      throw new AppError(
        ErrorCode.SPACE_FULL,
        'The owner of this share has too little free space left for this upload',
      );
  }

  /** GET upload: the chunk test. Instant upload when the user already has these bytes. */
  async test(
    actor: Actor,
    p: ChunkParams,
    policy: UploadPolicy = OWNER_POLICY,
  ): Promise<ChunkTestResult & { file?: FileView }> {
    requireAuthority(actor, 'cloud:file:upload');
    validateChunk(p);
    await this.assertNotLocked(actor, p);
    const id = sessionKey(actor.id, p, policy.visitor?.shareId);
    const found = await this.find(id);
    const session = found && !this.lapsed(found) ? found : undefined;
    if (session?.state === 'done') {
      const file = session.fileId ? await this.fileRows.live(actor.id, session.fileId) : undefined;
      // done only while the file still holds these bytes: one replaced since (it keeps its id)
      // gets them placed again, not an answer that leaves the other content there
      if (file && file.hash === session.identifier && file.size === session.totalSize)
        return {
          pass: true,
          exist: false,
          resume: [],
          upload: true,
          merge: false,
          file: toView(file),
        };
      await this.discard(id);
    }
    if (!session || session.state === 'done') {
      const copy = policy.instantCopy ? await this.instantCopy(actor, p) : null;
      if (copy)
        return { pass: true, exist: false, resume: [], upload: true, merge: false, file: copy };
      return { pass: false, exist: false, resume: [], upload: false, merge: false };
    }
    const resume = await this.received(id);
    if (session.state === 'merging') {
      return { pass: false, exist: false, resume, upload: true, merge: false };
    }
    return {
      pass: false,
      exist: false,
      resume,
      upload: resume.length > 0,
      merge: resume.length === session.totalChunks,
    };
  }

  /**
   * A file locked over WebDAV (or a new name in a locked folder) is refused at the chunk test
   * and at every chunk, with the lock's holder (423), not only at the merge after every chunk
   * was sent. The merge checks again: a lock may be taken meanwhile.
   */
  private async assertNotLocked(actor: Actor, p: ChunkParams): Promise<void> {
    const folder = folderPathOf(targetSegments(p));
    await this.files.itemLocks.assertFree(actor, [newItemScope(folder, checkName(p.filename))]);
  }

  /** A new file made from one the user already owns with the same hash and size: no bytes sent. */
  private async instantCopy(actor: Actor, p: ChunkParams): Promise<FileView | null> {
    if (!isContentHash(p.identifier)) return null;
    const same = await this.fileRows.liveWithContent(actor.id, p.identifier, p.totalSize);
    if (!same) return null;
    const source = this.files.placeOf(actor, same);
    if (!(await this.blobs.exists(source))) return null;
    await this.files.assertSpace(actor.id, p.totalSize, { field: 'totalSize' });
    const staged = this.blobs.staging();
    await this.blobs.copy(source, staged);
    try {
      return await this.placer.place(
        actor,
        p.filename,
        targetSegments(p),
        staged,
        {
          size: p.totalSize,
          hash: p.identifier,
          lastModified: p.lastModified === undefined ? null : Math.round(p.lastModified),
        },
        OWNER_POLICY,
      );
    } finally {
      await this.blobs.remove(staged);
    }
  }

  /** POST upload: write one chunk at its offset, once; refuse wrong sizes and overflow. */
  async writeChunk(
    actor: Actor,
    p: ChunkParams,
    body: Readable,
    policy: UploadPolicy = OWNER_POLICY,
  ): Promise<{ upload: boolean; merge: boolean }> {
    requireAuthority(actor, 'cloud:file:upload');
    validateChunk(p);
    await this.assertNotLocked(actor, p);
    const session = await this.open(actor, p, policy);
    if (session.state === 'done') return { upload: true, merge: false };
    if (session.state !== 'uploading')
      throw new AppError(ErrorCode.LOCKED, 'This upload is being merged');
    const expected = expectedChunkSize(p);
    const offset = (p.chunkNumber - 1) * session.chunkSize;
    await this.chunks.store(session.id, p.chunkNumber, offset, expected, body);
    await this.repo.touch(session.id);
    await this.hashes.advance(session);
    const count = await this.repo.countDone(session.id);
    return { upload: true, merge: count === session.totalChunks };
  }

  /**
   * POST merge: fsync, verify the SHA-256, move into place (a same-named file goes to the
   * trash), commit the row, announce it. Idempotent: a finished session answers its file.
   * A large upload is merged by a background task: the request waits a while for it and
   * otherwise answers "still merging" with its progress; asking again picks up the same task.
   */
  async merge(
    actor: Actor,
    request: MergeParams,
    policy: UploadPolicy = OWNER_POLICY,
  ): Promise<MergeOutcome> {
    requireAuthority(actor, 'cloud:file:upload');
    // the original client leaves out the chunk size: the upload's session has it
    const chunkSize =
      request.chunkSize ?? (await this.sessionChunkSize(actor, request, policy)) ?? 0;
    // an older client leaves out the chunk count: the size and chunk size give it
    const p = {
      ...request,
      chunkSize,
      totalChunks:
        request.totalChunks ?? Math.max(1, Math.floor(request.totalSize / Math.max(chunkSize, 1))),
    };
    validateFile(p);
    const id = sessionKey(
      actor.id,
      { ...p, chunkNumber: 1, currentChunkSize: 0 },
      policy.visitor?.shareId,
    );
    // one merge per session at a time: a second request waits and then answers the same file
    const started = await this.mergeLocks.run(id, async (): Promise<MergeOutcome | string> => {
      const session = await this.find(id);
      if (session?.state === 'failed') {
        await this.discard(id);
        throw mergeFailed(session.message ?? 'The merge failed');
      }
      const background =
        this.jobs &&
        session &&
        session.state !== 'done' &&
        session.totalSize >= this.backgroundMergeBytes;
      if (!background) return { file: await this.mergeSession(actor, id, policy) };
      if (session.state === 'merging' && session.jobId) {
        const job = await this.jobs.get(session.jobId);
        if (job && (job.state === 'queued' || job.state === 'running')) return session.jobId;
      }
      await this.assertComplete(session);
      await this.repo.setMerging(id, true);
      const jobId = await this.jobs.enqueue<MergeJobPayload>(
        JOB_UPLOAD_MERGE,
        { sessionId: id, policy },
        { userId: actor.id, name: session.filename, path: session.targetPath },
      );
      await this.repo.setJob(id, jobId);
      return jobId;
    });
    return typeof started === 'string' ? this.awaitMerge(actor, id, started) : started;
  }

  /** The chunk size of the latest session of this file (a merge that does not say it). */
  private async sessionChunkSize(
    actor: Actor,
    p: MergeParams,
    policy: UploadPolicy,
  ): Promise<number | undefined> {
    const found = await this.repo.latestOf({
      userId: actor.id,
      identifier: p.identifier,
      filename: p.filename,
      targetPath: folderPathOf(targetSegments(p)),
      totalSize: p.totalSize,
      shareId: policy.visitor?.shareId ?? null,
    });
    if (!found) throw mergeFailed('This upload has no chunks on the server; upload it again');
    return found.chunkSize;
  }

  /** Wait a while for a background merge; its file, its failure, or "still merging". */
  private async awaitMerge(actor: Actor, id: string, jobId: string): Promise<MergeOutcome> {
    const jobs = this.jobs!;
    const job = await jobs.waitFor(jobId, this.mergeWaitMs).catch(() => jobs.get(jobId));
    const session = await this.find(id);
    if (session?.state === 'done' && session.fileId) {
      const row = await this.fileRows.live(actor.id, session.fileId);
      if (row) return { file: toView(row) };
    }
    if (session?.state === 'merging' && job && (job.state === 'queued' || job.state === 'running'))
      return { merging: true, progress: job.progress, taskId: jobId };
    // failed, cancelled, or gone: say why, and a new upload starts afresh
    await this.discard(id);
    throw mergeFailed(
      session?.message ?? job?.message ?? 'The merge was stopped; upload the file again',
    );
  }

  /** The background task of a large upload's merge. */
  async runMergeJob(
    owner: Actor,
    payload: MergeJobPayload,
    progress: (percent: number) => void,
  ): Promise<void> {
    const id = payload.sessionId;
    await this.mergeLocks.run(id, async () => {
      const session = await this.find(id);
      if (!session || session.state === 'done' || session.state === 'failed') return;
      try {
        await this.mergeSession(owner, id, payload.policy, progress, true);
      } catch (err) {
        const message =
          err instanceof AppError ? err.message : 'The merge failed; upload the file again';
        // the reason stays for the next merge request; the bytes go now
        this.hashes.forget(id);
        this.chunks.forget(id);
        await this.repo.deleteChunks(id);
        await this.repo.setFailed(id, message);
        await this.blobs.remove(this.blobs.upload(id));
        throw err;
      }
    });
  }

  private async assertComplete(session: UploadSession): Promise<void> {
    const chunks = await this.received(session.id);
    if (chunks.length !== session.totalChunks)
      throw mergeFailed(`Only ${chunks.length} of ${session.totalChunks} chunks have arrived`);
  }

  private async mergeSession(
    actor: Owner,
    id: string,
    policy: UploadPolicy,
    progress?: (percent: number) => void,
    keepFailure = false,
  ): Promise<FileView> {
    const session = await this.find(id);
    if (!session) throw mergeFailed('This upload has no chunks on the server; upload it again');
    if (session.state === 'done' && session.fileId) {
      const row = await this.fileRows.live(actor.id, session.fileId);
      if (row) return toView(row);
    }
    await this.assertComplete(session);
    await this.repo.setMerging(id);
    const staged = this.blobs.upload(id);
    try {
      // the quota again: it may have changed since the upload began (checked for good at placing)
      await this.files.assertSpace(actor.id, session.totalSize, {
        exceptSession: id,
        field: 'totalSize',
      });
      await this.chunks.settle(id);
      await this.blobs.sync(staged);
      progress?.(5);
      let hashed = 0;
      const onBytes = (n: number) => {
        hashed += n;
        progress?.(5 + Math.floor((hashed / Math.max(session.totalSize, 1)) * 90));
      };
      const hash =
        session.totalSize === 0 ? sha256('') : await this.hashes.final(session, staged, onBytes);
      if (isContentHash(session.identifier) && hash !== session.identifier)
        throw mergeFailed(
          'The uploaded bytes do not match the file (checksum mismatch); upload it again',
        );
      const view = await this.placer.place(
        actor,
        session.filename,
        parseFolderPath(session.targetPath),
        staged,
        { size: session.totalSize, hash, lastModified: session.lastModified },
        policy,
        id,
      );
      await this.repo.deleteChunks(id);
      progress?.(100);
      return view;
    } catch (err) {
      // a failed check leaves nothing behind: the session and its bytes go
      if (!keepFailure) await this.discard(id);
      throw err;
    }
  }

  /** POST upload-folder: the folders of a folder upload (idempotent, so a resumed upload works). */
  async createFolder(
    actor: Actor,
    p: { currentDirectory?: string; folderPath?: string; filename: string },
  ): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const segments = [
      ...parseFolderPath(p.currentDirectory),
      ...parseFolderPath(p.folderPath, checkName),
      checkName(p.filename),
    ];
    checkPathLength(segments, 'The folder path');
    return this.files.withLock(actor.id, async () => {
      const folder = await this.files.ensureFolders(actor, segments);
      return this.files.info(actor, folder.id);
    });
  }

  /** The uploads under way into the user's drive: their own and those of their shares' visitors. */
  async sessions(actor: Actor): Promise<UploadSessionView[]> {
    const rows = await this.repo.activeOf(actor.id);
    if (rows.length === 0) return [];
    const counts = await this.repo.progressOf(rows.map((r) => r.id));
    return rows.map((r) => {
      const c = counts.get(r.id) ?? { n: 0, last: 0 };
      const lastSize = r.totalSize - (r.totalChunks - 1) * r.chunkSize;
      const receivedBytes =
        r.state === 'merging'
          ? r.totalSize
          : c.last === r.totalChunks
            ? (c.n - 1) * r.chunkSize + lastSize
            : c.n * r.chunkSize;
      const view: UploadSessionView = {
        id: r.id,
        filename: r.filename,
        targetPath: r.targetPath,
        totalSize: Number(r.totalSize),
        receivedBytes: Number(receivedBytes),
        state: r.state === 'merging' ? 'merging' : 'uploading',
        startedBy: r.shareId ? 'visitor' : 'owner',
        createdAt: formatDateTime(r.createdAt),
        lastActivity: formatDateTime(r.updatedAt),
      };
      if (r.shareId) {
        view.share = { id: r.shareId, name: r.shareName ?? null };
        if (r.visitor) view.visitorAddress = r.visitor;
      }
      return view;
    });
  }

  /** Cancel an upload under way into the user's drive: its bytes go and its space is freed. */
  async cancel(actor: Actor, id: string): Promise<void> {
    await this.mergeLocks.run(id, async () => {
      const session = await this.find(id);
      if (!session || session.userId !== actor.id || session.state === 'done')
        throw new AppError(ErrorCode.NOT_FOUND, 'This upload is not under way');
      if (session.state === 'merging')
        throw new AppError(
          ErrorCode.LOCKED,
          'This upload is being merged and can no longer be cancelled',
        );
      await this.discard(id);
    });
  }

  /** Boot: chunks claimed by requests that died with their node can be sent again. */
  async recover(): Promise<void> {
    await this.chunks.releaseClaimsOfGoneNodes();
  }

  private async discard(id: string): Promise<void> {
    this.hashes.forget(id);
    this.chunks.forget(id);
    await this.repo.deleteSession(id);
    await this.blobs.remove(this.blobs.upload(id));
  }

  /** Remove abandoned sessions (visitors' after an hour, finished ones) so their space is freed. */
  async cleanUp(now = Date.now()): Promise<number> {
    const stale = await this.repo.stale({
      now,
      abandonedMs: ABANDONED_AFTER_MS,
      visitorIdleMs: VISITOR_SESSION_IDLE_MS,
      doneMs: 86400_000,
    });
    for (const s of stale) await this.discard(s.id);
    // bytes whose session is gone (a crash between the two deletes)
    const names = (await this.blobs.list(this.blobs.uploadsRoot())).map((e) => e.name);
    for (let i = 0; i < names.length; i += 500) {
      const batch = names.slice(i, i + 500);
      const known = await this.repo.existing(batch);
      for (const n of batch) if (!known.has(n)) await this.blobs.remove(this.blobs.upload(n));
    }
    return stale.length;
  }
}

/** A merge refused because of what was uploaded: the client's to fix, so 422 (code 16). */
const mergeFailed = (message: string) =>
  new AppError(ErrorCode.MERGE_FAILED, message, undefined, 422);
