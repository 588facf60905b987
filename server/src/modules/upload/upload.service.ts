import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { ErrorCode, MAX_CHUNK_SIZE } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { UploadSessionTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter } from '../../lib/errors.ts';
import { sha256 } from '../../lib/ids.ts';
import type { FileOperations } from '../files/file-ops.service.ts';
import {
  toView,
  type FilesService,
  type FileView,
  type FolderRef,
  type Owner,
} from '../files/files.service.ts';
import { checkName, folderPathOf, parseFolderPath } from '../files/names.ts';
import { hashFile } from '../files/tree-index.ts';
import { KeyedMutex } from '../files/mutex.ts';
import { createHash, type Hash } from 'node:crypto';
import type { JobQueue } from '../../jobs/queue.ts';

export type UploadSession = Selectable<UploadSessionTable>;

/** The chunk fields of the upload protocol (API-NOTES §1.4, spec §3 upload parameters). */
export interface ChunkParams {
  chunkNumber: number;
  chunkSize: number;
  currentChunkSize: number;
  totalSize: number;
  identifier: string;
  filename: string;
  relativePath?: string;
  totalChunks: number;
  currentDirectory?: string;
  folderPath?: string;
  lastModified?: number;
}

export interface ChunkTestResult {
  pass: boolean;
  exist: boolean;
  resume: number[];
  upload: boolean;
  merge: boolean;
}

/** What an upload may do besides adding a file; uploads into a share may do less. */
export interface UploadPolicy {
  /** Complete at once from a file of the same owner with the same content hash. */
  instantCopy: boolean;
  /** Replace a same-named file (the previous one goes to the trash). */
  replace: boolean;
}

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
}

/** Sessions untouched this long are abandoned: their bytes go and their space is freed. */
export const ABANDONED_AFTER_MS = 3 * 86400_000;
const HASH_PATTERN = /^[0-9a-f]{64}$/;
/** Bytes of a chunk gathered before they are written. */
const WRITE_BATCH_BYTES = 1024 * 1024;

/**
 * Chunked, resumable uploads. Each chunk is written once, at its offset, into one preallocated
 * file; the session lives in the database so a restart or a reload resumes where it stopped.
 * The identifier is the SHA-256 of the content: the merged file is checked against it.
 */
/** SHA-256 of the chunks received in order so far: merge then has little or nothing left to hash. */
interface HashCursor {
  hash: Hash;
  next: number;
}

export class UploadService {
  private readonly cursors = new Map<string, HashCursor>();
  private readonly cursorLocks = new KeyedMutex();
  private readonly mergeLocks = new KeyedMutex();

  private readonly jobs: JobQueue | undefined;
  private readonly backgroundMergeBytes: number;
  private readonly mergeWaitMs: number;

  constructor(
    private readonly db: Db,
    private readonly files: FilesService,
    private readonly fileOps: FileOperations,
    options: UploadOptions = {},
  ) {
    this.jobs = options.jobs;
    this.backgroundMergeBytes = options.backgroundMergeBytes ?? Infinity;
    this.mergeWaitMs = options.mergeWaitMs ?? 10_000;
  }

  private get tree() {
    return this.files.tree;
  }

  /** The folder a file of this upload goes to: current folder + folder path + relative path. */
  targetSegments(
    p: Pick<ChunkParams, 'currentDirectory' | 'relativePath' | 'folderPath' | 'filename'>,
  ): string[] {
    const base = parseFolderPath(p.currentDirectory);
    const relative = (p.relativePath ?? '').split('/').filter(Boolean);
    const inner = relative.length > 1 ? relative.slice(0, -1) : parseFolderPath(p.folderPath);
    return [...base, ...inner.map((s) => checkName(s))];
  }

  private sessionId(userId: string, p: ChunkParams): string {
    const target = folderPathOf(this.targetSegments(p));
    return sha256(
      `${userId}\n${p.identifier}\n${target}\n${p.filename}\n${p.totalSize}\n${p.chunkSize}`,
    );
  }

  /** The protocol's arithmetic: the last chunk takes the remainder (it may reach 2× chunkSize). */
  validate(p: ChunkParams): void {
    checkName(p.filename);
    if (!HASH_PATTERN.test(p.identifier))
      throw badParameter('The upload identifier must be the SHA-256 of the file');
    if (!Number.isSafeInteger(p.totalSize) || p.totalSize < 0)
      throw badParameter('Invalid file size');
    if (!Number.isSafeInteger(p.chunkSize) || p.chunkSize < 1 || p.chunkSize > MAX_CHUNK_SIZE) {
      throw badParameter(
        `The chunk size must be between 1 byte and ${MAX_CHUNK_SIZE / 1024 / 1024} MiB`,
      );
    }
    const expectedChunks = Math.max(1, Math.floor(p.totalSize / p.chunkSize));
    if (p.totalChunks !== expectedChunks)
      throw badParameter(`Expected ${expectedChunks} chunks for this size, not ${p.totalChunks}`);
    if (!Number.isInteger(p.chunkNumber) || p.chunkNumber < 1 || p.chunkNumber > p.totalChunks) {
      throw badParameter(`Chunk ${p.chunkNumber} is outside 1..${p.totalChunks}`);
    }
    if (p.currentChunkSize !== this.expectedChunkSize(p)) {
      throw badParameter(
        `Chunk ${p.chunkNumber} must be ${this.expectedChunkSize(p)} bytes, not ${p.currentChunkSize}`,
      );
    }
  }

  private expectedChunkSize(
    p: Pick<ChunkParams, 'chunkNumber' | 'totalChunks' | 'chunkSize' | 'totalSize'>,
  ): number {
    return p.chunkNumber < p.totalChunks
      ? p.chunkSize
      : p.totalSize - (p.totalChunks - 1) * p.chunkSize;
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
    const names = await this.files.repo.childNames(actor.id, folder.id);
    return filenames.some((n) => names.has(n));
  }

  private find(id: string): Promise<UploadSession | undefined> {
    return this.db.selectFrom('uploadSession').selectAll().where('id', '=', id).executeTakeFirst();
  }

  private async received(id: string): Promise<number[]> {
    const rows = await this.db
      .selectFrom('uploadChunk')
      .select('number')
      .where('sessionId', '=', id)
      .orderBy('number')
      .execute();
    return rows.map((r) => r.number);
  }

  /** Bytes promised to uploads still under way (they count against the quota). */
  private async reserved(userId: string, exceptId?: string): Promise<number> {
    let q = this.db
      .selectFrom('uploadSession')
      .select((eb) => eb.fn.sum<number>('totalSize').as('bytes'))
      .where('userId', '=', userId)
      .where('state', 'in', ['uploading', 'merging']);
    if (exceptId) q = q.where('id', '!=', exceptId);
    const r = await q.executeTakeFirstOrThrow();
    return Number(r.bytes ?? 0);
  }

  private async open(actor: Actor, p: ChunkParams): Promise<UploadSession> {
    const id = this.sessionId(actor.id, p);
    const found = await this.find(id);
    if (found && found.state !== 'failed') return found;
    await this.files.assertSpace(actor.id, p.totalSize + (await this.reserved(actor.id, id)));
    const now = Date.now();
    const session: UploadSession = {
      id,
      userId: actor.id,
      identifier: p.identifier,
      filename: p.filename,
      targetPath: folderPathOf(this.targetSegments(p)),
      totalSize: p.totalSize,
      chunkSize: p.chunkSize,
      totalChunks: p.totalChunks,
      lastModified: p.lastModified ?? null,
      state: 'uploading',
      message: null,
      fileId: null,
      jobId: null,
      createdAt: now,
      updatedAt: now,
    };
    // one preallocated file; every chunk lands at its own offset
    const handle = await fsp.open(this.tree.uploadPath(id), 'w');
    try {
      await handle.truncate(p.totalSize);
    } finally {
      await handle.close();
    }
    if (found) {
      await this.db.deleteFrom('uploadChunk').where('sessionId', '=', id).execute();
      await this.db.updateTable('uploadSession').set(session).where('id', '=', id).execute();
    } else {
      await this.db
        .insertInto('uploadSession')
        .values(session)
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    }
    return (await this.find(id))!;
  }

  /** GET upload: the chunk test. Instant upload when the user already has these bytes. */
  async test(
    actor: Actor,
    p: ChunkParams,
    policy: UploadPolicy = OWNER_POLICY,
  ): Promise<ChunkTestResult & { file?: FileView }> {
    requireAuthority(actor, 'cloud:file:upload');
    this.validate(p);
    const id = this.sessionId(actor.id, p);
    const session = await this.find(id);
    if (session?.state === 'done') {
      const file = session.fileId
        ? await this.files.repo.live(actor.id, session.fileId)
        : undefined;
      if (file)
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

  /** A new file made from one the user already owns with the same hash and size: no bytes sent. */
  private async instantCopy(actor: Actor, p: ChunkParams): Promise<FileView | null> {
    const same = await this.db
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', actor.id)
      .where('hash', '=', p.identifier)
      .where('size', '=', p.totalSize)
      .where('isFolder', '=', 0)
      .where('trashId', 'is', null)
      .executeTakeFirst();
    if (!same) return null;
    const source = this.files.diskPathOf(actor, same);
    if (!(await this.tree.exists(source))) return null;
    await this.files.assertSpace(actor.id, p.totalSize + (await this.reserved(actor.id)));
    const staged = this.tree.tmpPath();
    await this.tree.copy(source, staged);
    try {
      return await this.place(actor, p.filename, this.targetSegments(p), staged, {
        size: p.totalSize,
        hash: p.identifier,
        lastModified: p.lastModified ?? null,
      });
    } finally {
      await this.tree.remove(staged);
    }
  }

  /** POST upload: write one chunk at its offset; refuse wrong sizes and overflow. */
  async writeChunk(
    actor: Actor,
    p: ChunkParams,
    body: Readable,
  ): Promise<{ upload: boolean; merge: boolean }> {
    requireAuthority(actor, 'cloud:file:upload');
    this.validate(p);
    const session = await this.open(actor, p);
    if (session.state === 'done') return { upload: true, merge: false };
    if (session.state !== 'uploading')
      throw new AppError(ErrorCode.LOCKED, 'This upload is being merged');
    await this.files.assertSpace(
      actor.id,
      session.totalSize + (await this.reserved(actor.id, session.id)),
    );
    const expected = this.expectedChunkSize(p);
    const offset = (p.chunkNumber - 1) * session.chunkSize;
    const already = await this.db
      .selectFrom('uploadChunk')
      .select('number')
      .where('sessionId', '=', session.id)
      .where('number', '=', p.chunkNumber)
      .executeTakeFirst();
    // a repeated chunk is accepted but never rewritten: what was received (and hashed) stays
    const written = await this.receive(
      body,
      already ? null : this.tree.uploadPath(session.id),
      offset,
      expected,
      p.chunkNumber,
    );
    if (written !== expected)
      throw badParameter(
        `Chunk ${p.chunkNumber} was cut short: ${written} of ${expected} bytes arrived`,
      );
    await this.db
      .insertInto('uploadChunk')
      .values({ sessionId: session.id, number: p.chunkNumber })
      .onConflict((oc) => oc.columns(['sessionId', 'number']).doNothing())
      .execute();
    await this.db
      .updateTable('uploadSession')
      .set({ updatedAt: Date.now() })
      .where('id', '=', session.id)
      .execute();
    await this.advanceHash(session);
    const count = await this.db
      .selectFrom('uploadChunk')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sessionId', '=', session.id)
      .executeTakeFirstOrThrow();
    return { upload: true, merge: Number(count.n) === session.totalChunks };
  }

  /**
   * Read a chunk's bytes from the request and write them at their offset (or only count them
   * when `file` is null). The pieces the request arrives in (64 KiB) are gathered and written
   * 1 MiB at a time with one vectored write: far fewer system calls than a write per piece.
   */
  private async receive(
    body: Readable,
    file: string | null,
    offset: number,
    expected: number,
    chunkNumber: number,
  ): Promise<number> {
    const handle = file ? await fsp.open(file, 'r+') : null;
    let written = 0;
    let position = offset;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (!handle || pendingBytes === 0) return;
      const buffers = pending;
      const length = pendingBytes;
      pending = [];
      pendingBytes = 0;
      const { bytesWritten } = await handle.writev(buffers, position);
      // a short vectored write is rare on a local file; finish it piece by piece
      if (bytesWritten < length) {
        const rest = Buffer.concat(buffers, length).subarray(bytesWritten);
        let done = 0;
        while (done < rest.length) {
          const r = await handle.write(
            rest,
            done,
            rest.length - done,
            position + bytesWritten + done,
          );
          done += r.bytesWritten;
        }
      }
      position += length;
    };
    try {
      for await (const piece of body as AsyncIterable<Buffer>) {
        written += piece.length;
        if (written > expected)
          throw badParameter(`Chunk ${chunkNumber} is larger than ${expected} bytes`);
        if (!handle) continue;
        pending.push(piece);
        pendingBytes += piece.length;
        if (pendingBytes >= WRITE_BATCH_BYTES) await flush();
      }
      await flush();
    } finally {
      await handle?.close();
    }
    return written;
  }

  /** Hash the chunks that now follow on from what is hashed, re-read from the page cache. */
  private advanceHash(session: UploadSession): Promise<void> {
    return this.cursorLocks.run(session.id, async () => {
      let cursor = this.cursors.get(session.id);
      if (!cursor) {
        cursor = { hash: createHash('sha256'), next: 1 };
        this.cursors.set(session.id, cursor);
      }
      const have = new Set(
        (
          await this.db
            .selectFrom('uploadChunk')
            .select('number')
            .where('sessionId', '=', session.id)
            .where('number', '>=', cursor.next)
            .execute()
        ).map((r) => r.number),
      );
      if (!have.has(cursor.next)) return;
      const handle = await fsp.open(this.tree.uploadPath(session.id), 'r');
      try {
        const buffer = Buffer.allocUnsafe(Math.min(session.chunkSize * 2, session.totalSize || 1));
        while (have.has(cursor.next)) {
          const n = cursor.next;
          const start = (n - 1) * session.chunkSize;
          const length = this.expectedChunkSize({
            chunkNumber: n,
            totalChunks: session.totalChunks,
            chunkSize: session.chunkSize,
            totalSize: session.totalSize,
          });
          let done = 0;
          while (done < length) {
            const { bytesRead } = await handle.read(
              buffer,
              0,
              Math.min(buffer.length, length - done),
              start + done,
            );
            if (bytesRead === 0) break;
            cursor.hash.update(buffer.subarray(0, bytesRead));
            done += bytesRead;
          }
          cursor.next += 1;
        }
      } finally {
        await handle.close();
      }
    });
  }

  /** The finished hash when every chunk went through the cursor; otherwise hash the file. */
  private async finalHash(
    session: UploadSession,
    staged: string,
    onBytes?: (bytes: number) => void,
  ): Promise<string> {
    await this.cursorLocks.run(session.id, async () => undefined);
    const cursor = this.cursors.get(session.id);
    this.cursors.delete(session.id);
    if (cursor && cursor.next === session.totalChunks + 1) return cursor.hash.digest('hex');
    return hashFile(staged, onBytes);
  }

  /**
   * POST merge: fsync, verify the SHA-256, move into place (a same-named file goes to the
   * trash), commit the row, announce it. Idempotent: a finished session answers its file.
   * A large upload is merged by a background task: the request waits a while for it and
   * otherwise answers "still merging" with its progress; asking again picks up the same task.
   */
  async merge(
    actor: Actor,
    p: Pick<
      ChunkParams,
      | 'identifier'
      | 'filename'
      | 'totalSize'
      | 'chunkSize'
      | 'currentDirectory'
      | 'relativePath'
      | 'folderPath'
      | 'totalChunks'
      | 'lastModified'
    >,
    policy: UploadPolicy = OWNER_POLICY,
  ): Promise<MergeOutcome> {
    requireAuthority(actor, 'cloud:file:upload');
    const id = this.sessionId(actor.id, { ...p, chunkNumber: 1, currentChunkSize: 0 });
    // one merge per session at a time: a second request waits and then answers the same file
    const started = await this.mergeLocks.run(id, async (): Promise<MergeOutcome | string> => {
      const session = await this.find(id);
      if (session?.state === 'failed') {
        await this.discard(id);
        throw new AppError(ErrorCode.MERGE_FAILED, session.message ?? 'The merge failed');
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
      await this.db
        .updateTable('uploadSession')
        .set({ state: 'merging', jobId: null, updatedAt: Date.now() })
        .where('id', '=', id)
        .execute();
      const jobId = await this.jobs.enqueue<MergeJobPayload>(
        JOB_UPLOAD_MERGE,
        { sessionId: id, policy },
        { userId: actor.id, name: session.filename, path: session.targetPath },
      );
      await this.db
        .updateTable('uploadSession')
        .set({ jobId })
        .where('id', '=', id)
        .where('state', '=', 'merging')
        .execute();
      return jobId;
    });
    return typeof started === 'string' ? this.awaitMerge(actor, id, started) : started;
  }

  /** Wait a while for a background merge; its file, its failure, or "still merging". */
  private async awaitMerge(actor: Actor, id: string, jobId: string): Promise<MergeOutcome> {
    const jobs = this.jobs!;
    const job = await jobs.waitFor(jobId, this.mergeWaitMs).catch(() => jobs.get(jobId));
    const session = await this.find(id);
    if (session?.state === 'done' && session.fileId) {
      const row = await this.files.repo.live(actor.id, session.fileId);
      if (row) return { file: toView(row) };
    }
    if (session?.state === 'merging' && job && (job.state === 'queued' || job.state === 'running'))
      return { merging: true, progress: job.progress, taskId: jobId };
    // failed, cancelled, or gone: say why, and a new upload starts afresh
    await this.discard(id);
    throw new AppError(
      ErrorCode.MERGE_FAILED,
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
        this.cursors.delete(id);
        await this.db.deleteFrom('uploadChunk').where('sessionId', '=', id).execute();
        await this.db
          .updateTable('uploadSession')
          .set({ state: 'failed', message: message.slice(0, 500), updatedAt: Date.now() })
          .where('id', '=', id)
          .execute();
        await this.tree.remove(this.tree.uploadPath(id));
        throw err;
      }
    });
  }

  private async assertComplete(session: UploadSession): Promise<void> {
    const chunks = await this.received(session.id);
    if (chunks.length !== session.totalChunks) {
      throw new AppError(
        ErrorCode.MERGE_FAILED,
        `Only ${chunks.length} of ${session.totalChunks} chunks have arrived`,
      );
    }
  }

  private async mergeSession(
    actor: Owner,
    id: string,
    policy: UploadPolicy,
    progress?: (percent: number) => void,
    keepFailure = false,
  ): Promise<FileView> {
    const session = await this.find(id);
    if (!session)
      throw new AppError(
        ErrorCode.MERGE_FAILED,
        'This upload has no chunks on the server; upload it again',
      );
    if (session.state === 'done' && session.fileId) {
      const row = await this.files.repo.live(actor.id, session.fileId);
      if (row) return toView(row);
    }
    await this.assertComplete(session);
    await this.db
      .updateTable('uploadSession')
      .set({ state: 'merging', updatedAt: Date.now() })
      .where('id', '=', id)
      .execute();
    const staged = this.tree.uploadPath(id);
    try {
      const handle = await fsp.open(staged, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      progress?.(5);
      let hashed = 0;
      const onBytes = (n: number) => {
        hashed += n;
        progress?.(5 + Math.floor((hashed / Math.max(session.totalSize, 1)) * 90));
      };
      const hash =
        session.totalSize === 0 ? sha256('') : await this.finalHash(session, staged, onBytes);
      if (hash !== session.identifier) {
        throw new AppError(
          ErrorCode.MERGE_FAILED,
          'The uploaded bytes do not match the file (checksum mismatch); upload it again',
        );
      }
      const view = await this.place(
        actor,
        session.filename,
        parseFolderPath(session.targetPath),
        staged,
        {
          size: session.totalSize,
          hash,
          lastModified: session.lastModified,
        },
        policy,
      );
      await this.db
        .updateTable('uploadSession')
        .set({ state: 'done', fileId: view.id, updatedAt: Date.now() })
        .where('id', '=', id)
        .execute();
      await this.db.deleteFrom('uploadChunk').where('sessionId', '=', id).execute();
      progress?.(100);
      return view;
    } catch (err) {
      // a failed check leaves nothing behind: the session and its bytes go
      if (!keepFailure) await this.discard(id);
      throw err;
    }
  }

  /** Put finished bytes at their place in the tree and index them. */
  private async place(
    owner: Owner,
    filename: string,
    segments: string[],
    staged: string,
    meta: { size: number; hash: string; lastModified: number | null },
    policy: UploadPolicy = OWNER_POLICY,
  ): Promise<FileView> {
    return this.files.withLock(owner.id, async () => {
      const folder = await this.files.ensureFolders(owner, segments);
      await this.files.assertNoMount(owner.id, folder.id, filename);
      const clash = await this.files.repo.childNamed(owner.id, folder.id, filename);
      if (clash) {
        if (clash.isFolder)
          throw new AppError(ErrorCode.EXISTS, `A folder named "${filename}" is already here`);
        if (!policy.replace)
          throw new AppError(ErrorCode.EXISTS, `"${filename}" already exists here`);
        // the user confirmed the overwrite: the previous file goes to the trash, nothing is lost
        await this.fileOps.trashRow(owner, clash);
      }
      const target = this.tree.pathOf(owner.username, folder.prefix, filename);
      if (await this.tree.exists(target))
        throw new AppError(
          ErrorCode.EXISTS,
          'An item with this name is already on disk here; rebuild the index to see it',
        );
      if (meta.lastModified) {
        const when = new Date(meta.lastModified);
        await fsp.utimes(staged, when, when);
      }
      await this.tree.move(staged, target);
      try {
        const row = await this.files.insertFile(owner, folder, filename, {
          size: meta.size,
          hash: meta.hash,
          updateDate: meta.lastModified ?? undefined,
        });
        const view = toView(row);
        this.files.notify(owner.id, 'createFile', view);
        return view;
      } catch (err) {
        await this.tree.move(target, staged);
        throw err;
      }
    });
  }

  /** POST upload-folder: the folders of a folder upload (idempotent, so a resumed upload works). */
  async createFolder(
    actor: Actor,
    p: { currentDirectory?: string; folderPath?: string; filename: string },
  ): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const segments = [
      ...parseFolderPath(p.currentDirectory),
      ...parseFolderPath(p.folderPath),
      checkName(p.filename),
    ];
    return this.files.withLock(actor.id, async () => {
      const folder = await this.files.ensureFolders(actor, segments);
      return this.files.info(actor, folder.id);
    });
  }

  private async discard(id: string): Promise<void> {
    this.cursors.delete(id);
    await this.db.deleteFrom('uploadSession').where('id', '=', id).execute();
    await this.tree.remove(this.tree.uploadPath(id));
  }

  /** Remove abandoned sessions (and finished ones) so their space is freed. */
  async cleanUp(now = Date.now()): Promise<number> {
    const stale = await this.db
      .selectFrom('uploadSession')
      .select('id')
      .where((eb) =>
        eb.or([
          eb('updatedAt', '<', now - ABANDONED_AFTER_MS),
          eb.and([eb('state', '=', 'done'), eb('updatedAt', '<', now - 86400_000)]),
        ]),
      )
      .execute();
    for (const s of stale) await this.discard(s.id);
    // bytes whose session is gone (a crash between the two deletes)
    const names = await fsp.readdir(this.tree.uploadsDir).catch(() => [] as string[]);
    for (let i = 0; i < names.length; i += 500) {
      const batch = names.slice(i, i + 500);
      const known = new Set(
        (
          await this.db.selectFrom('uploadSession').select('id').where('id', 'in', batch).execute()
        ).map((r) => r.id),
      );
      for (const n of batch) if (!known.has(n)) await this.tree.remove(this.tree.uploadPath(n));
    }
    return stale.length;
  }
}
