import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createGunzip, createGzip } from 'node:zlib';
import {
  ErrorCode,
  MAX_DOCUMENT_BYTES,
  OFFICE_SUFFIXES,
  type ChangedMeanwhile,
  type HistoryRetention,
  type HistoryText,
  type HistoryVersion,
  type SavedContent,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { decodeSample, detectCharset } from '../../lib/charset.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { Place } from '../../storage/blob-store.ts';
import { bytesGrant, requireDownload } from '../files/bytes-grant.ts';
import { isTextSuffix } from '../files/file-types.ts';
import type { FileRow } from '../files/files.repo.ts';
import { toView } from '../files/file-view.ts';
import type { FilesService, Owner } from '../files/files.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { HistoryRepo, type VersionRow } from './history.repo.ts';
import { scopeOf } from '../files/item-locks.ts';
import { agedBefore, expiredVersions, type VersionPolicy } from './version-retention.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** Kinds whose saves keep what they replaced: text and code, documents of the editors, office. */
const VERSIONED = new Set<string>([...OFFICE_SUFFIXES, 'md', 'markdown', 'mind', 'km', 'txt']);

export function isVersioned(row: Pick<FileRow, 'isFolder' | 'suffix'>): boolean {
  if (row.isFolder) return false;
  const suffix = row.suffix.toLowerCase();
  return VERSIONED.has(suffix) || isTextSuffix(suffix);
}

/** What a save may say about the content it replaces. */
export interface ReplaceRules {
  /** The version the writer started from: anything else there refuses the save. */
  baseHash?: string | null;
  /** Save over whatever is there (it is kept as a version like any other). */
  force?: boolean;
  /** An upload session whose reserved space is this very write's (not counted twice). */
  exceptSession?: string;
  /**
   * The writer knows the content is text (an editor's save): what it replaces is kept as a
   * version whatever the file's suffix (a `Dockerfile`, a `.kt` the server has no word for).
   */
  isText?: boolean;
}

const missingVersion = () => new AppError(ErrorCode.NOT_FOUND, 'This version does not exist');

/**
 * Earlier versions of files (history): every save through Nimbus of a text, markdown,
 * mind-map or office file keeps what it replaced, compressed, in the store's versions area; the
 * rows follow the file (renames and moves keep its id) and count in its owner's space.
 */
export class HistoryService {
  private readonly repo: HistoryRepo;

  constructor(
    db: Db,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly settings: SettingsService,
  ) {
    this.repo = new HistoryRepo(db);
    files.onChange(async (change, trx) => {
      if (change.kind !== 'purged') return;
      // the rows go with the files' rows; the space they took comes back with them
      const bytes = await this.repo.storedInTrash(change.userId, change.trashIds, trx);
      if (bytes > 0) await this.fileRows.adjustUsed(change.userId, -bytes, trx);
    });
    files.onPurged((userId) => this.sweep(userId));
  }

  private get blobs() {
    return this.files.blobs;
  }

  // ---- saving ------------------------------------------------------------------------------

  /**
   * Put the bytes staged at `staged` (`facts`: their size and hash) in the place of `row`'s
   * content, keeping its id, under the owner's lock: a save from a stale base is refused, the
   * content replaced is kept as a version (for the versioned kinds), the space is checked, and
   * open editors and the index are told. `operator` is who saves.
   */
  replace(
    owner: Owner,
    operator: string,
    row: FileRow,
    staged: Place,
    facts: { size: number; hash: string },
    rules: ReplaceRules = {},
  ): Promise<FileRow> {
    return this.files.withLock(owner.id, () =>
      this.replaceLocked(owner, operator, row, staged, facts, rules),
    );
  }

  /** `replace`, for a caller that holds the owner's lock already. */
  async replaceLocked(
    owner: Owner,
    operator: string,
    row: FileRow,
    staged: Place,
    facts: { size: number; hash: string },
    rules: ReplaceRules = {},
  ): Promise<FileRow> {
    const current = await this.fileRows.live(owner.id, row.id);
    if (!current || current.isFolder)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist');
    // every save, overwrite and restore of a file's content passes here: a lock holds them all
    await this.files.itemLocks.assertFree(owner, [scopeOf(current, 'content')]);
    if (!rules.force && rules.baseHash !== undefined && current.hash !== rules.baseHash) {
      const data: ChangedMeanwhile = {
        hash: current.hash,
        updateDate: formatDateTime(current.updateDate),
        size: current.size,
      };
      throw new AppError(
        ErrorCode.CHANGED_MEANWHILE,
        `"${current.name}" was changed elsewhere since it was opened`,
        data,
      );
    }
    if (current.hash === facts.hash && current.size === facts.size) {
      await this.blobs.remove(staged);
      return current;
    }
    // every replacement keeps what it replaced: each upload, PUT, save and restore was put as a
    // whole by someone, so none is merged into another (the editors' autosaves are drafts)
    const kept =
      rules.isText || isVersioned(current) ? await this.keep(owner, operator, current) : null;
    try {
      await this.files.assertSpace(owner.id, facts.size - current.size + (kept?.storedSize ?? 0), {
        exceptSession: rules.exceptSession,
      });
    } catch (err) {
      if (kept) await this.blobs.remove(this.blobs.version(owner.id, current.id, kept.id));
      throw err;
    }
    // The version is recorded before the bytes are replaced, and the row rewritten after: a
    // crash in between leaves the new bytes with the old content kept as a version, never the
    // other way round (the old content gone without a trace).
    const pruned: VersionRow[] = [];
    if (kept) {
      // read before the transaction: on SQLite a query outside it would wait for it
      const policy = await this.policy();
      await this.files.transaction(async (trx) => {
        await this.repo.insert(kept, trx);
        await this.fileRows.adjustUsed(owner.id, kept.storedSize, trx);
        pruned.push(...(await this.pruneRows(owner.id, current.id, policy, Date.now(), trx)));
      });
    }
    await this.blobs.move(staged, this.files.placeOf(owner, current));
    const updated = await this.files.transaction((trx) =>
      this.files.rewritten(owner, current, facts, trx),
    );
    for (const v of pruned) await this.blobs.remove(this.blobs.version(owner.id, v.fileId, v.id));
    this.files.notify(owner.id, 'updateFile', toView(updated));
    return updated;
  }

  /** The current content of `row` compressed into the versions area, as the row to record. */
  private async keep(owner: Owner, operator: string, row: FileRow): Promise<VersionRow> {
    const id = newId();
    const at = this.blobs.version(owner.id, row.id, id);
    const source = this.blobs.read(this.files.placeOf(owner, row));
    const gzip = createGzip({ level: 6 });
    source.once('error', (err) => gzip.destroy(err));
    await this.blobs.write(at, source.pipe(gzip));
    const stat = await this.blobs.stat(at);
    return {
      id,
      fileId: row.id,
      userId: owner.id,
      filename: row.name,
      path: row.path,
      size: row.size,
      storedSize: stat?.size ?? 0,
      hash: row.hash,
      compression: 'gzip',
      operator,
      createdAt: Date.now(),
    };
  }

  // ---- retention ---------------------------------------------------------------------------

  /** What the administrator's settings keep of each file's history. */
  async policy(): Promise<VersionPolicy> {
    const [keep, maxAgeDays] = await Promise.all([
      this.settings.get('versionsPerFile'),
      this.settings.get('versionRetentionDays'),
    ]);
    return { keep: Math.max(1, keep), maxAgeDays: Math.max(0, maxAgeDays) };
  }

  /** `GET /history/retention`: what a file's history keeps, for every signed-in user. */
  async retention(): Promise<HistoryRetention> {
    const policy = await this.policy();
    return { versionsPerFile: policy.keep, versionRetentionDays: policy.maxAgeDays };
  }

  /**
   * A file's versions that retention removes at `now`, gone in the caller's transaction with
   * their space given back (only rows still there count: a second run frees nothing twice).
   * Answers them; their bytes are the caller's to remove after the commit.
   */
  private async pruneRows(
    userId: string,
    fileId: string,
    policy: VersionPolicy,
    now: number,
    trx: Db,
  ): Promise<VersionRow[]> {
    const gone = expiredVersions(await this.repo.versionsOf(fileId, trx), policy, now);
    if (gone.length === 0) return gone;
    const freed = await this.repo.remove(
      gone.map((v) => v.id),
      trx,
    );
    if (freed > 0) await this.fileRows.adjustUsed(userId, -freed, trx);
    return gone;
  }

  /**
   * Retention in the background: every file's versions beyond the settings go (also those of
   * files no longer saved), under each owner's lock, rows first and bytes after (a crash between
   * leaves only bytes nobody lists). Answers how many went, by owner.
   */
  async expire(now = Date.now()): Promise<Map<string, number>> {
    const policy = await this.policy();
    const removed = new Map<string, number>();
    for (const { fileId, userId } of await this.repo.filesToPrune(
      policy.keep,
      agedBefore(policy, now),
    )) {
      const gone = await this.files.withLock(userId, () =>
        this.files.transaction((trx) => this.pruneRows(userId, fileId, policy, now, trx)),
      );
      for (const v of gone) await this.blobs.remove(this.blobs.version(userId, v.fileId, v.id));
      if (gone.length > 0) removed.set(userId, (removed.get(userId) ?? 0) + gone.length);
    }
    return removed;
  }

  // ---- reading -----------------------------------------------------------------------------

  /** A page of a file's versions, newest first (the owner's). */
  async list(
    actor: Actor,
    fileId: string,
    pageIndex: number,
    pageSize: number,
  ): Promise<{ items: HistoryVersion[]; total: number }> {
    requireDownload(bytesGrant(actor, null));
    const row = await this.files.mustFind(actor.id, fileId);
    return this.page(row, pageIndex, pageSize);
  }

  /** `list` for a file named by its path. */
  async listAt(
    actor: Actor,
    path: string,
    pageIndex: number,
    pageSize: number,
  ): Promise<{ items: HistoryVersion[]; total: number }> {
    requireDownload(bytesGrant(actor, null));
    const row = await this.files.byPath(actor.id, path);
    return this.page(row, pageIndex, pageSize);
  }

  /** Every version a file has (at most what retention keeps), newest first; no access check. */
  async all(row: FileRow): Promise<HistoryVersion[]> {
    return (await this.page(row, 1, 1000)).items;
  }

  private async page(row: FileRow, pageIndex: number, pageSize: number) {
    const { rows, total } = await this.repo.page(row.id, (pageIndex - 1) * pageSize, pageSize);
    return { items: rows.map(toVersionView), total };
  }

  /** One version of the actor's, checked against the file it is asked for. */
  /** One of the actor's kept versions (of `fileId` when named), or a 404. */
  async version(actor: Actor, id: string, fileId?: string): Promise<VersionRow> {
    const version = await this.repo.byId(actor.id, id);
    if (!version || (fileId !== undefined && version.fileId !== fileId)) throw missingVersion();
    return version;
  }

  /** A version's bytes as they were (uncompressed), streamed. */
  async bytes(
    actor: Actor,
    id: string,
    fileId?: string,
  ): Promise<{ version: VersionRow; body: Readable }> {
    requireDownload(bytesGrant(actor, null));
    const version = await this.version(actor, id, fileId);
    return { version, body: this.open(version) };
  }

  private open(version: VersionRow): Readable {
    const stored = this.blobs.read(this.blobs.version(version.userId, version.fileId, version.id));
    if (version.compression !== 'gzip') return stored;
    const gunzip = createGunzip();
    stored.once('error', (err) => gunzip.destroy(err));
    return stored.pipe(gunzip);
  }

  /** A version's text, decoded from its charset. */
  async text(actor: Actor, id: string, fileId?: string): Promise<HistoryText> {
    requireDownload(bytesGrant(actor, null));
    const version = await this.version(actor, id, fileId);
    if (version.size > MAX_DOCUMENT_BYTES)
      throw new AppError(ErrorCode.BAD_PARAMETER, 'This version is too large to show as text');
    const bytes = await buffer(this.open(version)).catch(() => {
      throw missingVersion();
    });
    const charset = detectCharset(bytes, false);
    return {
      id: version.id,
      filename: version.filename,
      contentText: decodeSample(bytes, charset, false),
      hash: version.hash ?? '',
    };
  }

  // ---- changing ----------------------------------------------------------------------------

  /**
   * Bring a version back: the current content is kept as a version first, then the version's
   * bytes are put back exactly. Answers the file's new baseline.
   */
  async recover(actor: Actor, id: string, fileId?: string): Promise<SavedContent> {
    requireAuthority(actor, 'cloud:file:upload');
    const version = await this.version(actor, id, fileId);
    const row = await this.files.mustFindLive(actor.id, version.fileId);
    const { staged, size, hash } = await this.files.stage(this.open(version));
    try {
      const updated = await this.replace(
        actor,
        actor.username,
        row,
        staged,
        { size, hash },
        {
          force: true,
        },
      );
      return savedOf(updated);
    } finally {
      await this.blobs.remove(staged);
    }
  }

  async remove(actor: Actor, id: string, fileId?: string): Promise<void> {
    requireAuthority(actor, 'cloud:file:delete');
    const version = await this.version(actor, id, fileId);
    await this.files.transaction(async (trx) => {
      const freed = await this.repo.remove([version.id], trx);
      if (freed > 0) await this.fileRows.adjustUsed(actor.id, -freed, trx);
    });
    await this.blobs.remove(this.blobs.version(actor.id, version.fileId, version.id));
  }

  /** Versions of files deleted for good: their bytes go (their rows went with the files). */
  private async sweep(userId: string): Promise<void> {
    const root = this.blobs.versionsRoot(userId);
    const folders = (await this.blobs.list(root)).filter((e) => e.isFolder).map((e) => e.name);
    if (folders.length === 0) return;
    const alive = await this.repo.filesWithVersions(folders);
    for (const fileId of folders)
      if (!alive.has(fileId)) await this.blobs.remove(this.blobs.versionsOf(userId, fileId));
  }
}

export function savedOf(row: FileRow): SavedContent {
  return {
    id: row.id,
    hash: row.hash ?? '',
    size: row.size,
    updateDate: formatDateTime(row.updateDate),
  };
}

function toVersionView(v: VersionRow): HistoryVersion {
  return {
    id: v.id,
    fileId: v.fileId,
    filename: v.filename,
    length: v.size,
    uploadDate: formatDateTime(v.createdAt),
    metadata: {
      filepath: v.path,
      filename: v.filename,
      time: formatDateTime(v.createdAt),
      operator: v.operator,
      size: v.size,
      compression: v.compression,
    },
  };
}
