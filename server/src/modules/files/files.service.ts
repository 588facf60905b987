import { ErrorCode, type MountRef } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/access.ts';
import { requireAuthority } from '../../lib/access.ts';
import { AppError, badParameter, exists } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { LocalTree } from '../../storage/local-tree.ts';
import { contentTypeOf, fileTypeOf } from './file-types.ts';
import {
  FilesRepo,
  ROOT_ID,
  type FileRow,
  type MountEntry,
  type SortOrder,
  type SortProp,
} from './files.repo.ts';
import { checkName, folderPathOf, numberedName, parseFolderPath, suffixOf } from './names.ts';
import { KeyedMutex } from './mutex.ts';
import { lockUser, spaceFull, spaceLeft, type SpaceOptions } from './quota.ts';

/** A file or folder as the API shows it (FileIntroVO of API-NOTES §1.3). */
export interface FileView {
  id: string;
  name: string;
  path: string;
  isFolder: boolean;
  size: number;
  contentType: string;
  suffix: string;
  type: string;
  hash: string | null;
  uploadDate: string;
  updateDate: string;
  isFavorite: boolean;
  childrenCount: number;
  userId: string;
  trashDate?: string;
  /** Set on a mount listed in its folder: someone's shared folder placed here. */
  mount?: MountRef;
}

export interface Owner {
  id: string;
  username: string;
}

export type Publish = (userId: string, url: string, body: unknown) => void;

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
  | { kind: 'trashed'; userId: string; trashId: string }
  | { kind: 'restored'; userId: string };

export type FileChangeListener = (change: FileChange, trx: Db) => Promise<void>;

export interface ListParams {
  currentDirectory?: string;
  folderId?: string;
  queryFileType?: string;
  isFavorite?: boolean;
  /** The files with this tag, drive-wide. */
  tagId?: string;
  isFolder?: boolean;
  sortableProp?: SortProp;
  order?: SortOrder;
  pageIndex: number;
  pageSize: number;
  /** A folder listing shows the mounts placed in the folder among its folders. */
  withMounts?: boolean;
}

const VIEW_TYPES = new Set(['image', 'video', 'audio', 'document', 'text', 'archive', 'other']);

export function toView(row: FileRow): FileView {
  const view: FileView = {
    id: row.id,
    name: row.name,
    path: row.path,
    isFolder: row.isFolder === 1,
    size: row.size,
    contentType: row.contentType,
    suffix: row.suffix,
    type: row.fileType,
    hash: row.hash,
    uploadDate: formatDateTime(row.uploadDate),
    updateDate: formatDateTime(row.updateDate),
    isFavorite: row.isFavorite === 1,
    childrenCount: row.childrenCount,
    userId: row.userId,
  };
  if (row.trashedAt) view.trashDate = formatDateTime(row.trashedAt);
  return view;
}

/** A mount as an entry of the folder it sits in (`prefix`: that folder's child path). */
export function mountView(owner: Owner, mount: MountEntry, prefix: string): FileView {
  return {
    id: mount.mountId,
    name: mount.name,
    path: prefix,
    isFolder: true,
    // it takes no space in this drive
    size: 0,
    contentType: contentTypeOf('', true),
    suffix: '',
    type: 'folder',
    hash: null,
    uploadDate: formatDateTime(mount.createdAt),
    updateDate: formatDateTime(mount.updateDate),
    isFavorite: false,
    childrenCount: mount.childrenCount,
    userId: owner.id,
    mount: {
      mountId: mount.mountId,
      shareId: mount.shareId,
      fileId: mount.fileId,
      fileUsername: mount.ownerUsername,
      fileShowName: mount.ownerShowName,
    },
  };
}

/** `/a/b/` for the folder row `b` under `/a/`: the path of its children. */
export const prefixOf = (row: Pick<FileRow, 'path' | 'name'>) => `${row.path}${row.name}/`;

/** Where a folder is: its id ('0' for the root) and the path its children have. */
export interface FolderRef {
  id: string;
  prefix: string;
  /** Live children, when the folder's row was read. */
  children?: number;
}

export const ROOT: FolderRef = { id: ROOT_ID, prefix: '/' };

export class FilesService {
  readonly repo: FilesRepo;
  private readonly locks = new KeyedMutex();
  private readonly listeners: FileChangeListener[] = [];

  constructor(
    private readonly db: Db,
    readonly tree: LocalTree,
    private readonly publish: Publish = () => {},
  ) {
    this.repo = new FilesRepo(db);
  }

  /** Serialise tree changes per user so two operations never interleave on disk. */
  withLock<T>(userId: string, work: () => Promise<T>): Promise<T> {
    return this.locks.run(userId, work);
  }

  notify(userId: string, url: string, body: unknown): void {
    this.publish(userId, url, body);
  }

  onChange(listener: FileChangeListener): void {
    this.listeners.push(listener);
  }

  /** Tell the listeners about a change, inside the transaction that makes it. */
  async changed(change: FileChange, trx: Db): Promise<void> {
    for (const listener of this.listeners) await listener(change, trx);
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
    const trash = view === 'trash';
    const recently = view === 'recently';
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
    const { entries, total } = await this.repo.listEntries(
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

  /** The user's live rows among `ids` (in no particular order); others' and trashed ones left out. */
  liveMany(userId: string, ids: string[]): Promise<FileRow[]> {
    return this.repo.liveMany(userId, ids);
  }

  /** The live item at a full path such as `/a/b.txt`. */
  async byPath(userId: string, fullPath: string): Promise<FileRow> {
    const segments = parseFolderPath(fullPath);
    const name = segments.pop();
    if (!name) throw badParameter('Choose a file or folder');
    const row = await this.db
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('path', '=', folderPathOf(segments))
      .where('name', '=', name)
      .where('trashId', 'is', null)
      .executeTakeFirst();
    if (!row) throw new AppError(ErrorCode.FILE_NOT_FOUND, 'The file does not exist');
    return row;
  }

  /** Child folders of a folder, by name (the move/copy dialog tree). */
  async childFolders(owner: Owner, folderId: string | undefined): Promise<FileView[]> {
    const folder = await this.folderById(owner.id, folderId);
    const { rows } = await this.repo.list({
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

  diskPathOf(owner: Owner, row: Pick<FileRow, 'path' | 'name'>): string {
    return this.tree.pathOf(owner.username, row.path, row.name);
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
    await this.tree.mkdir(this.tree.pathOf(owner.username, parent.prefix, name));
    const now = Date.now();
    const row: FileRow = {
      id: newId(),
      userId: owner.id,
      parentId: parent.id,
      name,
      path: parent.prefix,
      isFolder: 1,
      size: 0,
      contentType: contentTypeOf('', true),
      suffix: '',
      fileType: 'folder',
      hash: null,
      uploadDate: now,
      updateDate: now,
      isFavorite: 0,
      media: null,
      childrenCount: 0,
      trashId: null,
      trashedAt: null,
    };
    await trx.transaction().execute(async (t) => {
      await t.insertInto('file').values(row).execute();
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
      const name = checkName(segment);
      const found = await this.repo.childNamed(owner.id, folder.id, name);
      if (!found) await this.assertNoMount(owner.id, folder.id, name);
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
    const suffix = suffixOf(name);
    const now = Date.now();
    const row: FileRow = {
      id: newId(),
      userId: owner.id,
      parentId: parent.id,
      name,
      path: parent.prefix,
      isFolder: 0,
      size: fields.size,
      contentType: contentTypeOf(suffix, false),
      suffix,
      fileType: fileTypeOf(suffix, false),
      hash: fields.hash,
      uploadDate: now,
      updateDate: fields.updateDate ?? now,
      isFavorite: 0,
      media: null,
      childrenCount: 0,
      trashId: null,
      trashedAt: null,
    };
    const write = async (t: Db) => {
      await t.insertInto('file').values(row).execute();
      await this.repo.adjustChildren(parent.id, 1, t);
      await this.repo.adjustUsed(owner.id, row.size, t);
      await this.changed({ kind: 'created', userId: owner.id, rows: [row] }, t);
    };
    // inside a caller's transaction (a journaled placement) or in one of its own
    if (trx.isTransaction) await write(trx);
    else await trx.transaction().execute(write);
    return row;
  }

  /** Bytes the user may still add (quota.ts: files, uploads under way, operations in flight). */
  spaceLeft(userId: string, options: SpaceOptions = {}): Promise<number> {
    return spaceLeft(this.db, userId, options);
  }

  /** Refuse with "space full" when `extraBytes` more would not fit. An early, friendly check. */
  async assertSpace(userId: string, extraBytes: number, options: SpaceOptions = {}): Promise<void> {
    if (extraBytes <= 0) return;
    if ((await this.spaceLeft(userId, options)) < extraBytes) throw spaceFull();
  }

  /**
   * The binding check: in one transaction holding the user's row, make sure `bytes` more fit
   * and run `reserve`, which records what takes the space (an upload session, an operation's
   * intent). Two requests at once are checked one after the other, so both cannot pass.
   */
  async withSpace<T>(
    userId: string,
    bytes: number,
    reserve: (trx: Db) => Promise<T>,
    options: Omit<SpaceOptions, 'trx'> = {},
  ): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await lockUser(trx, userId);
      if (bytes > 0 && (await spaceLeft(this.db, userId, { ...options, trx })) < bytes)
        throw spaceFull();
      return reserve(trx);
    });
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

  // ---- journaled disk changes -------------------------------------------------------------

  /**
   * A change of disk and database that survives a crash: the intent is written first, then
   * the disk changes, then the database commits and forgets the intent in one transaction.
   * An intent left behind by a crash is rolled back on boot (see recover()).
   */
  async journaled<T>(
    userId: string,
    kind: 'move' | 'copy' | 'trash' | 'restore',
    from: string,
    to: string,
    disk: () => Promise<void>,
    commit: (trx: Db) => Promise<T>,
    space?: { bytes: number; exceptSession?: string },
  ): Promise<T> {
    if (await this.tree.exists(to)) {
      throw exists('An item with this name is already on disk here; rebuild the index to see it');
    }
    const opId = newId();
    // an operation that adds bytes holds them from its intent to its commit (quota.ts)
    const bytes = space?.bytes ?? 0;
    const intent = (trx: Db) =>
      trx
        .insertInto('fileOp')
        .values({
          id: opId,
          userId,
          kind,
          fromPath: from,
          toPath: to,
          createdAt: Date.now(),
          bytes,
        })
        .execute();
    if (space) await this.withSpace(userId, bytes, intent, { exceptSession: space.exceptSession });
    else await intent(this.db);
    try {
      await disk();
    } catch (err) {
      await this.rollBack({ kind, fromPath: from, toPath: to });
      await this.db.deleteFrom('fileOp').where('id', '=', opId).execute();
      throw err;
    }
    try {
      return await this.db.transaction().execute(async (trx) => {
        const result = await commit(trx);
        await trx.deleteFrom('fileOp').where('id', '=', opId).execute();
        return result;
      });
    } catch (err) {
      await this.rollBack({ kind, fromPath: from, toPath: to });
      await this.db.deleteFrom('fileOp').where('id', '=', opId).execute();
      throw err;
    }
  }

  private async rollBack(op: { kind: string; fromPath: string; toPath: string }): Promise<void> {
    if (op.kind === 'copy') {
      await this.tree.remove(op.fromPath);
      await this.tree.remove(op.toPath);
      return;
    }
    if ((await this.tree.exists(op.toPath)) && !(await this.tree.exists(op.fromPath))) {
      await this.tree.move(op.toPath, op.fromPath);
    }
  }

  /** Boot: undo disk changes whose database commit never happened. */
  async recover(): Promise<number> {
    const ops = await this.db
      .selectFrom('fileOp')
      .selectAll()
      .orderBy('createdAt', 'desc')
      .execute();
    for (const op of ops) {
      await this.rollBack(op);
      await this.db.deleteFrom('fileOp').where('id', '=', op.id).execute();
    }
    await this.tree.remove(this.tree.tmpDir);
    await this.tree.init();
    await this.removeOrphanTrash();
    return ops.length;
  }

  /** Bytes in the trash whose rows were swept before a crash let the disk follow. */
  private async removeOrphanTrash(): Promise<void> {
    const { readdir } = await import('node:fs/promises');
    for (const user of await readdir(this.tree.trashDir).catch(() => [] as string[])) {
      const entries = await readdir(this.tree.trashPathOf(user, '')).catch(() => [] as string[]);
      for (let i = 0; i < entries.length; i += 500) {
        const batch = entries.slice(i, i + 500);
        const kept = await this.db
          .selectFrom('file')
          .select('id')
          .where('id', 'in', batch)
          .where('trashId', 'is not', null)
          .execute();
        const keep = new Set(kept.map((r) => r.id));
        for (const name of batch)
          if (!keep.has(name)) await this.tree.remove(this.tree.trashPathOf(user, name));
      }
    }
  }
}
