import type { Readable } from 'node:stream';
import {
  DEFAULT_CHUNK_SIZE,
  ErrorCode,
  type OperationResult,
  type SpaceUse,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { SoleProcess, type Presence } from '../../db/presence.ts';
import type { Actor } from '../../lib/access.ts';
import { requireAuthority } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { LocalLocks, type KeyedMutex, type Locks } from '../../lib/locks.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import { newFileRow } from './file-row.ts';
import { mountView, toView, type FileView } from './file-view.ts';
import { FilesRepo, prefixOf, ROOT_ID, type FileRow } from './files.repo.ts';
import {
  FolderListingRepo,
  type ListQuery,
  type SortOrder,
  type SortProp,
} from './folder-listing.repo.ts';
import { SpaceRepo } from './space.repo.ts';
import { SubtreeRepo } from './subtree.repo.ts';
import { Journal, type IntentKind, type Move } from './journal.ts';
import { ItemLocks, newItemScope } from './item-locks.ts';
import { ItemLocksRepo } from './item-locks.repo.ts';
import {
  checkName,
  checkPlace,
  checkSegment,
  checkSubtreeMove,
  folderPathOf,
  numberedName,
  parseFolderPath,
} from './names.ts';
import { SelectionRepo } from './selection.repo.ts';
import { spaceFull, spaceLeft, withSpace, type SpaceOptions } from './quota.ts';
import { stageBytes, type StagedBytes } from './stage-bytes.ts';

export interface Owner {
  id: string;
  username: string;
  /** Lock tokens the request sent (a WebDAV client holding a lock). */
  lockTokens?: ReadonlySet<string>;
}

export type Publish = (userId: string, url: string, body: unknown, fileId?: string) => void;

/** A row as change listeners see it: what a new, renamed or rewritten file is now. */
export type ChangedRow = Pick<FileRow, 'id' | 'name' | 'isFolder'> &
  Partial<Pick<FileRow, 'suffix' | 'fileType' | 'size' | 'hash' | 'trashId'>>;

/**
 * A change of the tree, told to listeners (the search index) inside the transaction that
 * makes it. `updated`: a name or the bytes changed. Moves need no telling (ids stay) and
 * deleted rows take what refers to them along (foreign keys).
 */
export type FileChange =
  | { kind: 'created' | 'updated'; userId: string; rows: ChangedRow[] }
  /** Items went to the trash, each a trash entry with the rows that went with it. */
  | { kind: 'trashed'; userId: string; trashIds: string[] }
  | { kind: 'restored'; userId: string }
  /** The items of a trash entry are about to be deleted for good (their rows still there). */
  | { kind: 'purged'; userId: string; trashIds: string[] };

export type FileChangeListener = (change: FileChange, trx: Db) => Promise<void>;

export interface ListParams {
  currentDirectory?: string;
  folderId?: string;
  queryFileType?: string;
  isFavorite?: boolean;
  /** The files with this tag, drive-wide. */
  tagId?: string;
  isFolder?: boolean;
  /** The mounted folders, wherever they sit (at the root only, as the original). */
  isMount?: boolean;
  /** The recently view, asked for as the original client asks (`queryCondition`). */
  recently?: boolean;
  sortableProp?: SortProp;
  order?: SortOrder;
  pageIndex: number;
  pageSize: number;
  /** A folder listing shows the mounts placed in the folder among its folders. */
  withMounts?: boolean;
}

/** The `queryFileType` values that list one type of file, drive-wide. */
const VIEW_TYPES = new Set(['image', 'video', 'audio', 'document', 'text', 'archive', 'other']);

/** Where a folder is: its id ('0' for the root) and the path its children have. */
export interface FolderRef {
  id: string;
  prefix: string;
  /** Live children, when the folder's row was read. */
  children?: number;
}

export const ROOT: FolderRef = { id: ROOT_ID, prefix: '/' };

export class FilesService {
  /** The tree's rows: lookups, inserts and updates, folder sizes and used bytes. */
  readonly repo: FilesRepo;
  /** The pages of listings, folders and mounts together. */
  readonly listing: FolderListingRepo;
  /** Everything below a folder: its rows, totals, depth, paths. */
  readonly subtree: SubtreeRepo;
  /** The quota's facts and what the used space is made of. */
  readonly space: SpaceRepo;
  /** The set-based statements of a change of many items at once. */
  readonly selection: SelectionRepo;
  /** The WebDAV locks every change of the tree passes (`ItemLocks.assertFree`). */
  readonly itemLocks: ItemLocks;
  private readonly journal: Journal;
  /** The per-user lock: of this process, or shared by every node through Redis. */
  private readonly locks: KeyedMutex;
  private readonly listeners: FileChangeListener[] = [];
  private readonly purgeListeners: Array<(userId: string) => Promise<void>> = [];

  constructor(
    private readonly db: Db,
    readonly blobs: BlobStore,
    private readonly publish: Publish = () => {},
    locks: Locks = new LocalLocks(),
    /** Which nodes sharing the database are alive: this one alone unless told otherwise. */
    readonly presence: Presence = new SoleProcess(),
  ) {
    this.locks = locks.mutex('user');
    this.repo = new FilesRepo(db);
    this.listing = new FolderListingRepo(db, this.repo);
    this.subtree = new SubtreeRepo(db);
    this.space = new SpaceRepo(db);
    this.selection = new SelectionRepo(db);
    this.itemLocks = new ItemLocks(new ItemLocksRepo(db));
    this.journal = new Journal(
      db,
      blobs,
      (userId, bytes, reserve, options) => this.withSpace(userId, bytes, reserve, options),
      presence,
      (userId, work) => this.withLock(userId, work),
    );
  }

  /** Serialise tree changes per user so two operations never interleave on disk. */
  withLock<T>(userId: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(userId, work);
  }

  notify(userId: string, url: string, body: unknown): void {
    this.publish(userId, url, body);
  }

  /**
   * An item left its folder (trashed, deleted or moved away): `deleteFile` with the folder's
   * path as its body (API-NOTES §2), and the item's id beside it.
   */
  notifyGone(userId: string, row: Pick<FileRow, 'id' | 'path'>): void {
    this.publish(userId, 'deleteFile', row.path, row.id);
  }

  /** The results of an operation, each as an `operationFile` event (not the ones ignored). */
  report(userId: string, results: OperationResult[]): void {
    for (const r of results)
      if (r.code !== ErrorCode.IGNORE) this.notify(userId, 'operationFile', r);
  }

  onChange(listener: FileChangeListener): void {
    this.listeners.push(listener);
  }

  /** Run `work` in one database transaction: a change of several rows at once. */
  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** Tell the listeners about a change, inside the transaction that makes it. */
  async changed(change: FileChange, trx: Db): Promise<void> {
    for (const listener of this.listeners) await listener(change, trx);
  }

  /** Run `listener` after items were deleted for good and their bytes removed. */
  onPurged(listener: (userId: string) => Promise<void>): void {
    this.purgeListeners.push(listener);
  }

  /** Items were deleted for good: what kept things about them tidies up (errors are logged). */
  async purged(userId: string): Promise<void> {
    for (const listener of this.purgeListeners) await listener(userId);
  }

  // ---- reading ----------------------------------------------------------------------------

  async resolveFolder(userId: string, currentDirectory: unknown): Promise<FolderRef> {
    const segments = parseFolderPath(currentDirectory);
    if (segments.length === 0) return ROOT;
    const name = segments[segments.length - 1]!;
    const row = await this.repo.folderAt(userId, folderPathOf(segments.slice(0, -1)), name);
    if (!row) throw new AppError(ErrorCode.DIRECTORY_NOT_FOUND, 'This folder does not exist');
    return { id: row.id, prefix: prefixOf(row), children: row.childrenCount };
  }

  async folderById(userId: string, id: string | undefined): Promise<FolderRef> {
    if (!id || id === ROOT_ID) return ROOT;
    const row = await this.repo.live(userId, id);
    if (!row || row.isFolder !== 1)
      throw new AppError(ErrorCode.DIRECTORY_NOT_FOUND, 'This folder does not exist');
    return { id: row.id, prefix: prefixOf(row), children: row.childrenCount };
  }

  async list(owner: Owner, p: ListParams): Promise<{ items: FileView[]; total: number }> {
    const view = p.queryFileType ?? '';
    const atRoot = !p.folderId && parseFolderPath(p.currentDirectory).length === 0;
    if (p.isMount === true && atRoot && !view) return this.mounts(owner, p);
    const trash = view === 'trash';
    const recently = view === 'recently' || (p.recently === true && !view);
    const typed = VIEW_TYPES.has(view);
    const driveWide = trash || recently || typed || p.isFavorite === true || Boolean(p.tagId);
    let folder: FolderRef | undefined;
    let knownTotal: number | undefined;
    if (!driveWide) {
      folder = p.folderId
        ? await this.folderById(owner.id, p.folderId)
        : await this.resolveFolder(owner.id, p.currentDirectory);
      if (p.isFolder !== true) knownTotal = folder.children;
    }
    const defaultSort: SortProp = recently
      ? 'uploadDate'
      : typed
        ? 'updateDate'
        : trash
          ? 'updateDate'
          : 'name';
    const sortProp = p.sortableProp ?? defaultSort;
    const order = p.order ?? (sortProp === 'name' ? 'ascending' : 'descending');
    const { entries, total } = await this.listing.listEntries(
      {
        userId: owner.id,
        parentId: folder?.id,
        fileType: typed ? view : undefined,
        favorite: p.isFavorite === true,
        tagId: p.tagId,
        trash,
        foldersOnly: p.isFolder === true,
        // the recently view lists files, never folders
        filesOnly: recently,
        knownTotal,
        sortProp: trash && !p.sortableProp ? 'updateDate' : sortProp,
        order,
        offset: (p.pageIndex - 1) * p.pageSize,
        limit: p.pageSize,
      },
      p.withMounts === true && folder !== undefined,
    );
    const prefix = folder?.prefix ?? '/';
    const items = entries.map((entry) =>
      entry.kind === 'file' ? toView(entry.row) : mountView(owner, entry.mount, prefix),
    );
    return { items, total };
  }

  /** A page of the user's mounts, each as an entry of the folder it sits in. */
  private async mounts(owner: Owner, p: ListParams): Promise<{ items: FileView[]; total: number }> {
    const { mounts, total } = await this.listing.mountPage(
      owner.id,
      p.order === 'descending' ? 'desc' : 'asc',
      (p.pageIndex - 1) * p.pageSize,
      p.pageSize,
    );
    const parents = await this.repo.liveMany(
      owner.id,
      [...new Set(mounts.map((m) => m.parentId))].filter((id) => id !== ROOT_ID),
    );
    const prefixes = new Map(parents.map((row) => [row.id, prefixOf(row)]));
    const items = mounts.map((m) => mountView(owner, m, prefixes.get(m.parentId) ?? '/'));
    return { items, total };
  }

  /**
   * A listing the file browser shows. Its first page of a folder also tells the uploader the
   * preferred chunk size (spec §7 received messages, §9).
   */
  async browse(owner: Owner, p: ListParams): Promise<{ items: FileView[]; total: number }> {
    const page = await this.list(owner, { ...p, withMounts: true });
    if (p.pageIndex === 1 && !p.queryFileType)
      this.notify(owner.id, 'uploaderChunkSize', {
        chunkSize: DEFAULT_CHUNK_SIZE,
        proxyEnabled: false,
      });
    return page;
  }

  /** The first page of the folder above the one at `path` (the original client's "up"). */
  listAbove(owner: Owner, path: string | undefined, pageSize: number) {
    const segments = (path ?? '').split('/').filter(Boolean);
    return this.list(owner, {
      currentDirectory: `/${segments.slice(0, -1).join('/')}`,
      pageIndex: 1,
      pageSize,
    });
  }

  async info(owner: Owner, id: string): Promise<FileView> {
    return toView(await this.mustFind(owner.id, id));
  }

  async mustFind(userId: string, id: string): Promise<FileRow> {
    const row = await this.repo.byId(userId, id);
    if (!row) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist');
    return row;
  }

  async mustFindLive(userId: string, id: string): Promise<FileRow> {
    const row = await this.repo.live(userId, id);
    if (!row) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist');
    return row;
  }

  /** The user's rows among `ids`, live or in the trash (in no particular order). */
  async rowsOf(userId: string, ids: string[]): Promise<FileRow[]> {
    const rows = await this.repo.liveMany(userId, ids);
    const live = new Set(rows.map((r) => r.id));
    // the rest are in the trash (or gone): few, read one by one
    for (const id of new Set(ids)) {
      if (live.has(id)) continue;
      const row = await this.repo.byId(userId, id);
      if (row) rows.push(row);
    }
    return rows;
  }

  /** The user's live items of a request: every one of `ids`, or a refusal. */
  async liveItems(userId: string, ids: string[]): Promise<FileRow[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) throw badParameter('Choose at least one file');
    const rows = new Map((await this.repo.liveMany(userId, unique)).map((r) => [r.id, r]));
    if (rows.size !== unique.length)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'Some of these files no longer exist');
    // in the order asked: results are told in it, and the first of two same names wins
    return unique.map((id) => rows.get(id)!);
  }

  /** The live item at a full path such as `/a/b.txt`. */
  async byPath(userId: string, fullPath: string): Promise<FileRow> {
    const segments = parseFolderPath(fullPath);
    const name = segments.pop();
    if (!name) throw badParameter('Choose a file or folder');
    const row = await this.repo.liveAt(userId, folderPathOf(segments), name);
    if (!row) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist');
    return row;
  }

  /** Child folders of a folder, by name (the move/copy dialog tree). */
  async childFolders(owner: Owner, folderId: string | undefined): Promise<FileView[]> {
    const folder = await this.folderById(owner.id, folderId);
    const { rows } = await this.listing.list({
      userId: owner.id,
      parentId: folder.id,
      foldersOnly: true,
      sortProp: 'name',
      order: 'ascending',
      offset: 0,
      limit: 10_000,
    });
    return rows.map(toView);
  }

  /** Where an item's bytes are in the store. */
  placeOf(owner: Owner, row: Pick<FileRow, 'path' | 'name'>): Place {
    return this.blobs.item(owner.username, row.path, row.name);
  }

  // ---- creating ---------------------------------------------------------------------------

  async newFolder(
    actor: Actor,
    currentDirectory: unknown,
    rawName: unknown,
    folderId?: string,
  ): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const name = checkName(rawName);
    return this.withLock(actor.id, async () => {
      const parent = folderId
        ? await this.folderById(actor.id, folderId)
        : await this.resolveFolder(actor.id, currentDirectory);
      if (await this.repo.childNamed(actor.id, parent.id, name)) {
        throw exists(`"${name}" already exists in this folder`);
      }
      await this.assertNoMount(actor.id, parent.id, name);
      const row = await this.insertFolder(actor, parent, name);
      this.notify(actor.id, 'createFile', toView(row));
      return toView(row);
    });
  }

  /** Create the folder on disk and its row; the caller holds the user's lock. */
  async insertFolder(
    owner: Owner,
    parent: FolderRef,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow> {
    checkPlace(parent.prefix, name);
    await this.itemLocks.assertFree(owner, [newItemScope(parent.prefix, name)]);
    await this.blobs.makeFolder(this.blobs.item(owner.username, parent.prefix, name));
    const row = newFileRow(owner, parent, name, { isFolder: true });
    await trx.transaction().execute(async (t) => {
      await this.repo.insertMany([row], t);
      await this.repo.adjustChildren(parent.id, 1, t);
      await this.changed({ kind: 'created', userId: owner.id, rows: [row] }, t);
    });
    return row;
  }

  /** Every folder of a path, created where missing; the caller holds the user's lock. */
  async ensureFolders(
    owner: Owner,
    segments: string[],
    from: FolderRef = ROOT,
  ): Promise<FolderRef> {
    let folder = from;
    for (const segment of segments) {
      const name = checkSegment(segment);
      const found = await this.repo.childNamed(owner.id, folder.id, name);
      if (!found) await this.assertNoMount(owner.id, folder.id, checkName(name));
      if (found) {
        if (found.isFolder !== 1) throw exists(`"${name}" exists and is not a folder`);
        folder = { id: found.id, prefix: prefixOf(found) };
      } else {
        const row = await this.insertFolder(owner, folder, name);
        this.notify(owner.id, 'createFile', toView(row));
        folder = { id: row.id, prefix: prefixOf(row) };
      }
    }
    return folder;
  }

  /** The row of a file whose bytes are already in place; the caller holds the user's lock. */
  async insertFile(
    owner: Owner,
    parent: FolderRef,
    name: string,
    fields: { size: number; hash: string | null; updateDate?: number },
    trx: Db = this.db,
  ): Promise<FileRow> {
    checkPlace(parent.prefix, name);
    const row = newFileRow(owner, parent, name, { isFolder: false, ...fields });
    const write = async (t: Db) => {
      await this.repo.insertMany([row], t);
      await this.repo.adjustChildren(parent.id, 1, t);
      await this.repo.addToFolderSizes(owner.id, parent.prefix, row.size, t);
      await this.repo.adjustUsed(owner.id, row.size, t);
      await this.changed({ kind: 'created', userId: owner.id, rows: [row] }, t);
    };
    // inside a caller's transaction (a journaled placement) or in one of its own
    if (trx.isTransaction) await write(trx);
    else await trx.transaction().execute(write);
    return row;
  }

  /**
   * An item put as `name` in the folder whose rows carry `toPrefix` (renamed, moved, copied,
   * restored) fits on the disk, and so does everything below it: the deepest and the longest
   * of its descendants, measured by one query. `field`: what the client sent, for the message.
   */
  async assertTreeFits(
    userId: string,
    row: FileRow,
    toPrefix: string,
    name: string,
    field: string,
    what: string,
  ): Promise<void> {
    try {
      checkPlace(toPrefix, name);
    } catch (err) {
      if (err instanceof AppError)
        throw badParameter(`${what}: ${err.message.replace(/^The path/, 'the path')}`, { field });
      throw err;
    }
    if (row.isFolder !== 1) return;
    const below = row.trashId === row.id ? { trashId: row.id } : { prefix: prefixOf(row) };
    const deepest = await this.subtree.deepestBelow(userId, below);
    checkSubtreeMove(prefixOf(row), `${toPrefix}${name}/`, deepest, field, what);
  }

  /** A mounted share holds its name in the folder it sits in: nothing else may take it. */
  async assertNoMount(userId: string, parentId: string, name: string): Promise<void> {
    if (await this.repo.mountNamed(userId, parentId, name))
      throw exists(`A mounted share is named "${name}" in this folder; choose another name`);
  }

  /** A name not taken in the folder: `a.txt`, `a(1).txt`, `a(2).txt` … */
  async freeName(
    userId: string,
    parentId: string,
    name: string,
    isFolder: boolean,
    taken?: Set<string>,
  ): Promise<string> {
    const names = taken ?? (await this.repo.childNames(userId, parentId));
    if (!names.has(name)) return name;
    for (let n = 1; ; n++) {
      const candidate = numberedName(name, n, isFolder);
      if (!names.has(candidate)) return candidate;
    }
  }

  // ---- space (quota.ts) -------------------------------------------------------------------

  /** Bytes the user may still add (quota.ts: files, uploads under way, operations in flight). */
  spaceLeft(userId: string, options: SpaceOptions = {}): Promise<number> {
    return spaceLeft(this.space, userId, options);
  }

  /** What the user's used space is made of: their files, the versions kept, the trash. */
  async spaceUse(owner: Owner): Promise<SpaceUse> {
    const facts = await this.space.spaceFacts(owner.id, { after: 0, visitorAfter: 0 });
    if (!facts) throw new AppError(ErrorCode.USER_NOT_FOUND, 'User not found');
    const parts = await this.space.spaceUse(owner.id);
    return { used: facts.usedBytes, quota: facts.quotaBytes, ...parts };
  }

  /** Refuse with "space full" when `extraBytes` more would not fit. An early, friendly check. */
  async assertSpace(userId: string, extraBytes: number, options: SpaceOptions = {}): Promise<void> {
    if (extraBytes <= 0) return;
    const free = await this.spaceLeft(userId, options);
    if (free < extraBytes) throw spaceFull(extraBytes, free, options.field);
  }

  /**
   * The binding check: in one transaction holding the user's row, make sure `bytes` more fit
   * and run `reserve`, which records what takes the space (an upload session, an operation's
   * intent). Two requests at once are checked one after the other, so both cannot pass.
   */
  withSpace<T>(
    userId: string,
    bytes: number,
    reserve: (trx: Db) => Promise<T>,
    options: Omit<SpaceOptions, 'trx'> = {},
  ): Promise<T> {
    return withSpace(this.db, this.space, userId, bytes, reserve, options);
  }

  // ---- journaled disk changes -------------------------------------------------------------

  /**
   * A change of disk and database that survives a crash (journal.ts): the intent is written
   * first, then the disk changes, then the database commits and forgets the intent in one
   * transaction. `space`: the bytes it adds, held against the quota until it commits.
   */
  journaled<T>(
    userId: string,
    kind: IntentKind,
    from: Place,
    to: Place,
    disk: () => Promise<void>,
    commit: (trx: Db) => Promise<T>,
    space?: { bytes: number; exceptSession?: string },
  ): Promise<T> {
    return this.journal.run(userId, kind, from, to, disk, commit, space);
  }

  /**
   * A change of a whole selection that survives a crash (journal.ts runMany): one intent, each
   * item's bytes moved once, one transaction.
   */
  journaledMany<T>(
    userId: string,
    kind: Exclude<IntentKind, 'copy'>,
    moves: Move[],
    commit: (trx: Db) => Promise<T>,
  ): Promise<T> {
    return this.journal.runMany(userId, kind, moves, commit);
  }

  /** A copy of a selection that survives a crash (journal.ts runCopies). */
  journaledCopies<T>(
    userId: string,
    copies: Array<{ source: Place; staged: Place; to: Place }>,
    bytes: number,
    commit: (trx: Db) => Promise<T>,
  ): Promise<T> {
    return this.journal.runCopies(userId, copies, bytes, commit);
  }

  /**
   * Bytes from a writer (an editor's text, a version being restored, an uploaded picture)
   * staged and hashed, ready to be put in place; at most `max` bytes.
   */
  stage(content: Buffer | Readable, max = Number.MAX_SAFE_INTEGER): Promise<StagedBytes> {
    return stageBytes(this.blobs, content, max);
  }

  /**
   * Put bytes staged at `staged` into `folder` as a new file named `wanted` (or `wanted (1)`
   * and so on when taken), with the quota check binding, under the owner's lock; told to open
   * browsers. Answers the new row.
   */
  addStaged(
    owner: Owner,
    folder: FolderRef,
    wanted: string,
    staged: Place,
    facts: { size: number; hash: string },
  ): Promise<FileRow> {
    return this.withLock(owner.id, async () => {
      const name = await this.freeName(owner.id, folder.id, wanted, false);
      checkPlace(folder.prefix, name);
      await this.itemLocks.assertFree(owner, [newItemScope(folder.prefix, name)]);
      const target = this.blobs.item(owner.username, folder.prefix, name);
      const row = await this.journaled(
        owner.id,
        'move',
        staged,
        target,
        () => this.blobs.move(staged, target),
        (trx) => this.insertFile(owner, folder, name, facts, trx),
        { bytes: facts.size },
      );
      this.notify(owner.id, 'createFile', toView(row));
      return row;
    });
  }

  /** Start: undo disk changes whose database commit never happened. */
  recover(owners: string[]): Promise<number> {
    return this.journal.recover(owners);
  }

  /** Undo the changes left behind by other nodes that are gone since (journal.ts). */
  recoverGone(): Promise<number> {
    return this.journal.undoGone();
  }

  // ---- for the other modules ------------------------------------------------------------

  /**
   * A file's stored bytes were rewritten in place (a conversion, say to WebP): its row takes the
   * new facts, the owner's used bytes the difference, and the change is told, all in the
   * caller's transaction. Answers the row as it now is.
   */
  async rewritten(
    owner: Owner,
    row: FileRow,
    facts: Pick<FileRow, 'size' | 'hash'> &
      Partial<Pick<FileRow, 'name' | 'suffix' | 'contentType' | 'fileType'>>,
    trx: Db,
  ): Promise<FileRow> {
    const updateDate = Date.now();
    await this.repo.update(row.id, { ...facts, updateDate }, trx);
    await this.repo.addToFolderSizes(owner.id, row.path, facts.size - row.size, trx);
    await this.repo.adjustUsed(owner.id, facts.size - row.size, trx);
    const changed = { ...row, ...facts, updateDate };
    await this.changed({ kind: 'updated', userId: owner.id, rows: [changed] }, trx);
    return changed;
  }
}

export { prefixOf, ROOT_ID, type FileRow, type ListQuery, type SortOrder, type SortProp };
