import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import type { FileOperations } from '../files/file-ops.service.ts';
import { toView } from '../files/file-view.ts';
import {
  prefixOf,
  ROOT,
  type FileRow,
  type FilesService,
  type FolderRef,
} from '../files/files.service.ts';
import { checkName } from '../files/names.ts';
import { spaceFull } from '../files/quota.ts';
import type { TrashService } from '../files/trash.service.ts';
import { isVersioned, type HistoryService } from '../history/history.service.ts';
import { conflict, DavError, notFound } from './webdav-errors.ts';
import { splitPath } from './webdav-headers.ts';
import type { OpenShare, ShareAccess, ShareCredentials } from '../share/share-access.ts';
import type { MountService } from '../share/mount.service.ts';
import type { FileWriter, ShareVisitorService } from '../share/share-visitor.service.ts';
import { bytesGrant, requireDownload } from '../files/bytes-grant.ts';
import { DavLocks } from './webdav-locks.ts';
import { isFolderItem, type DavItem } from './webdav-item.ts';
import { DavMounts } from './webdav-mounts.ts';
import { writeBody } from '../upload/body-writer.ts';
import { WebdavRepo, type PropertyRow } from './webdav.repo.ts';
import type { FilesRepo } from '../files/files.repo.ts';
import type { FolderListingRepo } from '../files/folder-listing.repo.ts';

/** `/a/b` as the parent path rows carry: `/a/`. */
const rowPathOf = (folderPath: string) => (folderPath === '/' ? '/' : `${folderPath}/`);

/** Dead properties one item may keep. */
export const MAX_PROPS_PER_ITEM = 500;

/** A page of a folder read at a time when listing it. */
const PAGE = 2000;

/**
 * The tree as WebDAV sees it, through the services the web API uses: reading through the files
 * service, new folders and files with its rules and its quota check, rename, move and copy
 * through the file operations, deletes to the trash; and WebDAV's own state, the locks and the
 * dead properties.
 */
export class WebdavService {
  readonly repo: WebdavRepo;
  readonly locks: DavLocks;
  private readonly mounted: DavMounts;

  constructor(
    db: Db,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly folderListing: FolderListingRepo,
    private readonly fileOps: FileOperations,
    private readonly trash: TrashService,
    private readonly history: HistoryService,
    private readonly shares: ShareAccess,
    private readonly visitors: ShareVisitorService,
    private readonly mounts: MountService,
  ) {
    this.repo = new WebdavRepo(db);
    this.locks = new DavLocks(this.repo);
    this.mounted = new DavMounts(fileRows, shares);
  }

  get blobs() {
    return this.files.blobs;
  }

  /** Where a file's bytes are in the store. */
  placeOf(owner: { id: string; username: string }, row: FileRow) {
    return this.files.placeOf(owner, row);
  }

  // ---- reading ----------------------------------------------------------------------------

  /** The item at a path, or null. */
  async find(userId: string, path: string): Promise<DavItem | null> {
    if (path === '/') return { kind: 'root', path: '/' };
    const { parent, name } = splitPath(path);
    const row = await this.fileRows.liveAt(userId, rowPathOf(parent), name);
    if (row) return { kind: 'row', path, row };
    return this.mounted.find(userId, path);
  }

  /** The mounts placed in a folder, open (none inside a mounted share: those are its owner's). */
  mountsIn(userId: string, folder: DavItem): Promise<DavItem[]> {
    return this.mounted.placedIn(userId, folder);
  }

  /** Whose tree an item is in: the user's own, or a mounted share's owner. */
  ownerOf(actor: { id: string; username: string }, item: DavItem) {
    return item.kind === 'row' && item.mount ? item.mount.open.owner : actor;
  }

  async mustFind(userId: string, path: string): Promise<DavItem> {
    const item = await this.find(userId, path);
    if (!item) throw notFound();
    return item;
  }

  /** The folder a new item at `path` goes into; 409 when it is missing or not a folder. */
  async parentOf(userId: string, path: string): Promise<FolderRef> {
    const { parent } = splitPath(path);
    const item = await this.find(userId, parent);
    if (!item || !isFolderItem(item)) throw conflict('The folder to put this in does not exist');
    // inside a mount, a folder of the share's owner
    return folderRefOf(item);
  }

  /** A folder's items, a page at a time (folders first, by name). */
  async *children(userId: string, folder: DavItem): AsyncGenerator<FileRow[]> {
    const ref = folderRefOf(folder);
    if (folder.kind === 'row' && folder.mount) userId = folder.mount.open.owner.id;
    for (let offset = 0; ; offset += PAGE) {
      const { rows } = await this.folderListing.list({
        userId,
        parentId: ref.id,
        sortProp: 'name',
        order: 'ascending',
        offset,
        limit: PAGE,
        knownTotal: folder.kind === 'row' ? folder.row.childrenCount : undefined,
      });
      if (rows.length > 0) yield rows;
      if (rows.length < PAGE) return;
    }
  }

  /** Dead properties of one item; the root keeps none. */
  props(item: DavItem): Promise<PropertyRow[]> {
    // a mount keeps none of its own; the owner's shared folder's belong to the owner's tree
    if (item.kind === 'root' || item.mount?.isRoot) return Promise.resolve([]);
    return this.repo.propsOf(item.row.id);
  }

  /** Dead properties of every item of a folder, by item id, in one query. */
  async childProps(userId: string, folder: DavItem): Promise<Map<string, PropertyRow[]>> {
    if (folder.kind === 'row' && folder.mount) userId = folder.mount.open.owner.id;
    const rows = await this.repo.propsOfChildren(userId, folderRefOf(folder).id);
    const byId = new Map<string, PropertyRow[]>();
    for (const r of rows) byId.set(r.fileId, [...(byId.get(r.fileId) ?? []), r]);
    return byId;
  }

  // ---- writing ----------------------------------------------------------------------------

  /** MKCOL: in a mount, a new folder as the share page makes one (the upload permission). */
  async makeFolder(actor: Actor, path: string): Promise<void> {
    const { name } = splitPath(path);
    const tree = await this.mounted.treeAt(actor.id, path);
    const parent = await this.parentOf(actor.id, path);
    if (tree)
      await this.visitors.newFolder(credsOf(actor, tree.open), splitPath(tree.rest).parent, name);
    else await this.files.newFolder(actor, undefined, name, parent.id);
  }

  /** Who writes a file at `path`: the user in their own tree, or a share's owner for them. */
  private async writerAt(actor: Actor, path: string): Promise<FileWriter> {
    const tree = await this.mounted.treeAt(actor.id, path);
    if (tree) return this.visitors.fileWriter(credsOf(actor, tree.open));
    return { owner: actor, operator: actor.username, mayReplace: () => undefined };
  }

  /**
   * Write a file from a request body: streamed into a staging place while hashed and counted
   * (more than the space left stops it), then put in place as an upload would be, the binding
   * quota check made when it lands. A text, document or office file it replaces keeps its id
   * and what it held becomes a version; any other file it replaces goes to the trash, like the
   * web's "overwrite". Inside a mount the file is the share's owner's: written with the share's
   * permissions, counted against the owner's quota. Answers the row and whether the name was free.
   */
  async writeFile(
    actor: Actor,
    path: string,
    body: Readable,
    options: { expectedBytes?: number; mtimeMs?: number },
  ): Promise<{ created: boolean; row: FileRow }> {
    const { name: rawName } = splitPath(path);
    const name = checkName(rawName);
    const writer = await this.writerAt(actor, path);
    const owner = writer.owner;
    requireAuthority(owner, 'cloud:file:upload');
    const parent = await this.parentOf(actor.id, path);
    const existing = await this.fileRows.childNamed(owner.id, parent.id, name);
    if (existing?.isFolder) throw new DavError(405, 'A folder has this name');
    // refused before a byte is read
    if (existing) writer.mayReplace();
    let room = await this.files.spaceLeft(owner.id);
    if (options.expectedBytes !== undefined && options.expectedBytes > room) throw spaceFull();
    const hash = createHash('sha256');
    let size = 0;
    const staged = this.blobs.staging();
    const updateDate = options.mtimeMs ?? Date.now();
    try {
      // one pass: counted (more than the space left stops it), hashed and written as it
      // arrives, synced as it goes (so the disk writes while the socket reads)
      await this.blobs.allocate(staged, 0);
      const out = await this.blobs.writer(staged);
      try {
        await writeBody(body, {
          writer: out,
          offset: 0,
          onPiece: (piece) => {
            size += piece.length;
            if (size > room) throw spaceFull();
            hash.update(piece);
          },
          brokeOff: (err) => err,
        });
      } finally {
        await out.close();
      }
      await this.blobs.setModified(staged, updateDate);
      if (options.expectedBytes !== undefined && size !== options.expectedBytes)
        throw new DavError(400, 'The body is shorter than announced');
      room = 0;
      const digest = hash.digest('hex');
      return await this.files.withLock(owner.id, async () => {
        const folder = await this.parentOf(actor.id, path);
        await this.files.assertNoMount(owner.id, folder.id, name);
        const clash = await this.fileRows.childNamed(owner.id, folder.id, name);
        if (clash?.isFolder) throw new DavError(405, 'A folder has this name');
        if (clash) writer.mayReplace();
        if (clash && isVersioned(clash)) {
          const facts = { size, hash: digest };
          const row = await this.history.replaceLocked(
            owner,
            writer.operator,
            clash,
            staged,
            facts,
          );
          return { created: false, row };
        }
        if (clash) await this.trash.trashRow(owner, clash);
        const target = this.blobs.item(owner.username, folder.prefix, name);
        const row = await this.files.journaled(
          owner.id,
          'move',
          staged,
          target,
          () => this.blobs.move(staged, target),
          (trx) =>
            this.files.insertFile(owner, folder, name, { size, hash: digest, updateDate }, trx),
          { bytes: size },
        );
        this.files.notify(owner.id, 'createFile', toView(row));
        return { created: !clash, row };
      });
    } finally {
      await this.blobs.remove(staged).catch(() => undefined);
    }
  }

  /**
   * To the trash, like a delete in the web app; inside a mount, to the share owner's trash as
   * the share page deletes (the delete permission). The mount itself is the user's: removing it
   * unmounts the share and leaves its files alone.
   */
  async remove(actor: Actor, item: DavItem): Promise<void> {
    if (item.kind === 'root') throw new DavError(403, 'The root cannot be deleted');
    if (item.mount?.isRoot) await this.mounts.unmount(actor, item.mount.id);
    else if (item.mount) await this.visitors.remove(credsOf(actor, item.mount.open), [item.row.id]);
    else await this.trash.trash(actor, [item.row.id]);
    await this.locks.release(actor.id, item.path);
  }

  /**
   * MOVE and COPY; what the destination holds is replaced (to the trash). Within one tree, the
   * user's own or one mounted share, the file operations do it; in a share as its owner, when
   * the share grants it (a move the edit permission, a copy the upload permission, replacing
   * the delete permission), a rename within a folder as the share page renames. Between trees
   * a file is copied as a download from one and a write into the other, each with its own
   * rules; folders are copied and anything is moved within one tree only (502, RFC 4918).
   */
  async transfer(
    actor: Actor,
    item: DavItem,
    to: string,
    how: { move: boolean; deep: boolean; replacing: DavItem | null },
  ): Promise<void> {
    const verb = how.move ? 'moved' : 'copied';
    if (item.kind === 'root') throw new DavError(403, `The root cannot be ${verb}`);
    const into = await this.mounted.treeAt(actor.id, to);
    if (into?.rest === '')
      throw new DavError(403, 'A mounted share is at the destination; remove the mount first');
    if (item.mount?.isRoot && how.move)
      throw new DavError(
        403,
        'A mount cannot be renamed or moved; remove it and mount the share again',
      );
    const from = item.mount ?? null;
    if ((from?.id ?? null) !== (into?.placed.mount.id ?? null)) {
      if (how.move || item.row.isFolder)
        throw new DavError(
          502,
          how.move
            ? 'Items are moved within your drive or within one mounted share: copy, then delete'
            : 'Folders are copied within your drive or within one mounted share',
        );
      return this.copyAcross(actor, item, to, how.replacing);
    }
    const { name } = splitPath(to);
    if (!from) {
      if (how.replacing) await this.remove(actor, how.replacing);
      if (how.move) await this.moveRow(actor, item.row, to, name);
      else await this.copyRows(actor, actor, item.row, to, how.deep);
    } else {
      const creds = credsOf(actor, from.open);
      const { owner } = await this.visitors.actFor(creds, how.move ? 'edit' : 'upload');
      if (how.replacing) {
        await this.visitors.actFor(creds, 'delete');
        await this.remove(actor, how.replacing);
      }
      const target = await this.parentOf(actor.id, to);
      if (how.move && target.id === item.row.parentId)
        await this.visitors.rename(creds, { fileId: item.row.id }, name);
      else if (how.move) await this.fileOps.moveAs(owner, item.row.id, target.id, name);
      else await this.copyRows(actor, owner, item.row, to, how.deep);
    }
    if (how.move) await this.locks.release(actor.id, item.path);
  }

  /** MOVE in the user's own tree: rename, move, or both. */
  private async moveRow(actor: Actor, row: FileRow, to: string, name: string): Promise<void> {
    const target = await this.parentOf(actor.id, to);
    if (target.id === row.parentId) await this.fileOps.rename(actor, row.id, name);
    else await this.fileOps.moveAs(actor, row.id, target.id, name);
  }

  /**
   * A file copied from one tree into another: its bytes read as a download of the source (a
   * mounted share's download permission) and written as a PUT at the destination would be.
   */
  private async copyAcross(
    actor: Actor,
    item: DavItem & { kind: 'row' },
    to: string,
    replacing: DavItem | null,
  ): Promise<void> {
    if (item.mount) requireDownload(bytesGrant(actor, item.mount.open));
    if (replacing?.kind === 'row' && replacing.row.isFolder) await this.remove(actor, replacing);
    const place = this.placeOf(this.ownerOf(actor, item), item.row);
    await this.writeFile(actor, to, this.blobs.read(place), { expectedBytes: item.row.size });
  }

  /**
   * COPY within one tree, as `owner` (the user, or a mounted share's owner): the item (with
   * depth infinity everything under it) and its dead properties.
   */
  private async copyRows(
    actor: Actor,
    owner: Actor,
    row: FileRow,
    to: string,
    deep: boolean,
  ): Promise<void> {
    requireAuthority(owner, 'cloud:file:upload');
    const name = checkName(splitPath(to).name);
    const target = await this.parentOf(actor.id, to);
    const pairs: [string, string][] = [];
    await this.files.withLock(owner.id, async () => {
      if (await this.fileRows.childNamed(owner.id, target.id, name))
        throw new DavError(412, 'The destination exists');
      if (row.isFolder && !deep) {
        const folder = await this.files.insertFolder(owner, target, name);
        this.files.notify(owner.id, 'createFile', toView(folder));
        pairs.push([row.id, folder.id]);
        return;
      }
      const before = row.isFolder
        ? await this.files.subtree.descendants(owner.id, prefixOf(row))
        : [];
      const copy = await this.fileOps.copyRow(owner, row, target, name);
      pairs.push([row.id, copy.id]);
      if (before.length === 0) return;
      // the copies below the new folder, matched to their originals by their place in it
      const after = await this.files.subtree.descendants(owner.id, prefixOf(copy));
      const byPlace = new Map(
        after.map((r) => [`${r.path.slice(prefixOf(copy).length)}${r.name}`, r.id]),
      );
      for (const b of before) {
        const copied = byPlace.get(`${b.path.slice(prefixOf(row).length)}${b.name}`);
        if (copied) pairs.push([b.id, copied]);
      }
    });
    await this.repo.copyProps(pairs);
  }

  /** An empty file where a lock was taken on a name with nothing yet (RFC 4918 §7.3). */
  async touch(actor: Actor, path: string): Promise<void> {
    await this.writeFile(actor, path, Readable.from([]), { expectedBytes: 0 });
  }

  /**
   * A lock on an item inside a mount announces a change of it: the share's edit permission.
   * (A lock on a free name makes an empty file: the upload permission, as any new file.)
   */
  async mayLock(actor: Actor, item: DavItem): Promise<void> {
    if (item.kind === 'row' && item.mount && !item.mount.isRoot)
      await this.visitors.actFor(credsOf(actor, item.mount.open), 'edit');
  }

  /** Set and remove dead properties of an item, all or none (in a mount, the edit permission). */
  async updateProps(
    actor: Actor,
    item: DavItem,
    changes: ({ name: string; value: string } | { name: string; value: null })[],
  ): Promise<void> {
    if (item.kind === 'root') throw new DavError(403, 'The root keeps no properties');
    if (item.mount?.isRoot) throw new DavError(403, 'A mount keeps no properties of its own');
    if (item.mount) await this.visitors.actFor(credsOf(actor, item.mount.open), 'edit');
    if (!(await this.repo.updateProps(item.row.id, changes, MAX_PROPS_PER_ITEM)))
      throw new DavError(507, `An item keeps at most ${MAX_PROPS_PER_ITEM} properties`);
  }
}

/** A change through a mount asks the share's gate as the signed-in mounter. */
const credsOf = (actor: Actor, open: OpenShare): ShareCredentials => ({
  share: open.share.id,
  actor,
});

function folderRefOf(item: DavItem): FolderRef {
  if (item.kind === 'root') return ROOT;
  // a mount shows the shared folder under the mount's name; its rows are under the real one
  const row = item.mount?.isRoot ? item.mount.open.root : item.row;
  return { id: row.id, prefix: prefixOf(row), children: row.childrenCount };
}
