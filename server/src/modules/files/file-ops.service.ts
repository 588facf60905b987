import type { CopyAnswer, OperationResult } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { badParameter, exists } from '../../lib/errors.ts';
import { newId, sha256Bytes } from '../../lib/ids.ts';
import type { Place } from '../../storage/blob-store.ts';
import { typeFactsOf } from './file-types.ts';
import { newFileRow, withFolderSizes } from './file-row.ts';
import type { FileRow, NewFileRow } from './files.repo.ts';
import { failureOf, fullPathOf, toView, type FileView } from './file-view.ts';
import { prefixOf, type FilesService, type FolderRef, type Owner } from './files.service.ts';
import { newItemScope, scopeOf } from './item-locks.ts';
import { checkName, suffixOf } from './names.ts';
import { emptyFileContent } from './empty-files.ts';
import { moveSelection } from './move-selection.ts';
import type { TrashService } from './trash.service.ts';

export const JOB_COPY = 'copy';

/** Copies of more items or bytes than this run as a background task. */
export const BACKGROUND_COPY_ITEMS = 500;
export const BACKGROUND_COPY_BYTES = 256 * 1024 * 1024;

/** An item to copy and the name it takes in the target. */
interface PlannedCopy {
  row: FileRow;
  name: string;
}

export interface CopyPayload {
  froms: string[];
  to: string;
  override: boolean;
}

/** Rename, move, copy, favourites and new files: the rules of the file tree. */
export class FileOperations {
  constructor(
    private readonly files: FilesService,
    private readonly trash: TrashService,
    private readonly jobs: JobQueue,
  ) {}

  private get repo() {
    return this.files.repo;
  }

  private get subtree() {
    return this.files.subtree;
  }

  private get blobs() {
    return this.files.blobs;
  }

  // ---- rename -----------------------------------------------------------------------------

  async rename(actor: Actor, id: string, rawName: unknown): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:update');
    const name = checkName(rawName);
    return this.files.withLock(actor.id, async () => {
      const row = await this.files.mustFindLive(actor.id, id);
      if (row.name === name) return toView(row);
      const clash = await this.repo.childNamed(actor.id, row.parentId, name);
      if (clash && clash.id !== row.id) throw exists(`"${name}" already exists in this folder`);
      await this.files.assertNoMount(actor.id, row.parentId, name);
      await this.files.assertTreeFits(actor.id, row, row.path, name, 'newFileName', 'The new name');
      await this.files.itemLocks.assertFree(actor, [
        scopeOf(row, 'membership'),
        newItemScope(row.path, name),
      ]);
      const from = this.files.placeOf(actor, row);
      const to = this.blobs.item(actor.username, row.path, name);
      const typeFacts = typeFactsOf(name, row.isFolder === 1);
      const moveDisk = async () => {
        // a change of case only needs a step aside on case-insensitive disks
        if (row.name.toLowerCase() === name.toLowerCase()) {
          const aside = this.blobs.item(actor.username, row.path, `${row.name}.${newId()}`);
          await this.blobs.move(from, aside);
          await this.blobs.move(aside, to);
        } else await this.blobs.move(from, to);
      };
      await this.files.journaled(actor.id, 'move', from, to, moveDisk, async (trx) => {
        await this.repo.update(row.id, { name, updateDate: Date.now(), ...typeFacts }, trx);
        if (row.isFolder)
          await this.subtree.rewritePrefix(actor.id, prefixOf(row), `${row.path}${name}/`, trx);
        const renamed = { ...row, name, ...typeFacts };
        await this.files.changed({ kind: 'updated', userId: actor.id, rows: [renamed] }, trx);
      });
      const updated = toView(await this.files.mustFind(actor.id, id));
      this.files.notify(actor.id, 'operationFile', {
        operation: 'rename',
        from: fullPathOf(row),
        to: `${row.path}${name}`,
        code: 0,
        msg: '',
      } satisfies OperationResult);
      this.files.notify(actor.id, 'updateFile', updated);
      return updated;
    });
  }

  /** Rename the item at a full path such as `/a/b.txt`. */
  async renameAt(actor: Actor, fullPath: string, rawName: unknown): Promise<FileView> {
    const row = await this.files.byPath(actor.id, fullPath);
    return this.rename(actor, row.id, rawName);
  }

  // ---- move and copy ----------------------------------------------------------------------

  /** The items of `froms` whose names are taken in the target folder. */
  async conflicts(actor: Actor, froms: string[], toId: string): Promise<FileView[]> {
    const target = await this.files.folderById(actor.id, toId);
    const rows = await this.files.liveItems(actor.id, froms);
    const names = await this.repo.childNames(actor.id, target.id);
    return rows.filter((r) => names.has(r.name) && r.parentId !== target.id).map(toView);
  }

  /** Each item (but those already there) and everything below it fits in the target folder. */
  private async assertBatchFits(actor: Actor, rows: FileRow[], target: FolderRef): Promise<void> {
    for (const row of rows)
      if (row.parentId !== target.id)
        await this.files.assertTreeFits(
          actor.id,
          row,
          target.prefix,
          row.name,
          'to',
          `The target folder for "${row.name}"`,
        );
  }

  private assertNotInside(row: FileRow, target: FolderRef): void {
    if (row.isFolder && (target.id === row.id || target.prefix.startsWith(prefixOf(row)))) {
      throw badParameter(`"${row.name}" cannot be moved or copied into itself`);
    }
  }

  /** How much a copy of these items would write: items, bytes, and a name for the task list. */
  async measure(
    actor: Actor,
    froms: string[],
  ): Promise<{ items: number; bytes: number; name: string; path: string }> {
    const rows = await this.files.liveItems(actor.id, froms);
    let items = 0;
    let bytes = 0;
    for (const row of rows) {
      items += 1;
      if (row.isFolder) {
        const below = await this.subtree.subtreeTotals(actor.id, prefixOf(row));
        items += below.count;
        bytes += below.bytes;
      } else bytes += row.size;
    }
    const first = rows[0]!;
    return {
      items,
      bytes,
      name: rows.length === 1 ? first.name : `${first.name} +${rows.length - 1}`,
      path: first.path,
    };
  }

  async move(
    actor: Actor,
    froms: string[],
    toId: string,
    override: boolean,
  ): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:update');
    return this.files.withLock(actor.id, async () => {
      const target = await this.files.folderById(actor.id, toId);
      const rows = await this.files.liveItems(actor.id, froms);
      for (const row of rows) this.assertNotInside(row, target);
      // an item that would not fit in the target folder stops the whole move before anything moves
      await this.assertBatchFits(actor, rows, target);
      // a locked item, or a folder holding one, stops the whole move before anything moves
      await this.files.itemLocks.assertFree(
        actor,
        rows
          .filter((r) => r.parentId !== target.id)
          .flatMap((r) => [scopeOf(r, 'membership'), newItemScope(target.prefix, r.name)]),
      );
      return moveSelection(this.files, this.trash, actor, rows, target, override);
    });
  }

  /**
   * Move one item into a folder under a new name at once (WebDAV's MOVE to another folder and
   * name); the name must be free. Its id, tags, shares and properties follow it.
   */
  async moveAs(actor: Actor, id: string, toId: string, rawName: unknown): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:update');
    const name = checkName(rawName);
    return this.files.withLock(actor.id, async () => {
      const row = await this.files.mustFindLive(actor.id, id);
      const target = await this.files.folderById(actor.id, toId);
      this.assertNotInside(row, target);
      if (await this.repo.childNamed(actor.id, target.id, name))
        throw exists(`"${name}" already exists in the target folder`);
      await this.files.assertNoMount(actor.id, target.id, name);
      await this.files.assertTreeFits(actor.id, row, target.prefix, name, 'to', 'The destination');
      await this.files.itemLocks.assertFree(actor, [
        scopeOf(row, 'membership'),
        newItemScope(target.prefix, name),
      ]);
      const from = this.files.placeOf(actor, row);
      const to = this.blobs.item(actor.username, target.prefix, name);
      const typeFacts = typeFactsOf(name, row.isFolder === 1);
      await this.files.journaled(
        actor.id,
        'move',
        from,
        to,
        () => this.blobs.move(from, to),
        async (trx) => {
          await this.moveBytes(actor, row, target, trx);
          await this.repo.update(
            row.id,
            { parentId: target.id, path: target.prefix, name, ...typeFacts },
            trx,
          );
          if (row.isFolder)
            await this.subtree.rewritePrefix(
              actor.id,
              prefixOf(row),
              `${target.prefix}${name}/`,
              trx,
            );
          await this.repo.adjustChildren(row.parentId, -1, trx);
          await this.repo.adjustChildren(target.id, 1, trx);
          const renamed = { ...row, name, ...typeFacts };
          await this.files.changed({ kind: 'updated', userId: actor.id, rows: [renamed] }, trx);
        },
      );
      const moved = toView(await this.files.mustFind(actor.id, row.id));
      this.files.notifyGone(actor.id, row);
      this.files.notify(actor.id, 'createFile', moved);
      return moved;
    });
  }

  /** The bytes of an item about to move leave the folders above it and join those of `target`. */
  private async moveBytes(owner: Owner, row: FileRow, target: FolderRef, trx: Db): Promise<void> {
    const bytes = row.isFolder
      ? (await this.subtree.subtreeTotals(owner.id, prefixOf(row), trx)).bytes
      : row.size;
    await this.repo.addToFolderSizes(owner.id, row.path, -bytes, trx);
    await this.repo.addToFolderSizes(owner.id, target.prefix, bytes, trx);
  }

  /** Clear a name in the target folder: refuse, or with override move the holder to the trash. */
  private async makeRoom(
    actor: Actor,
    target: FolderRef,
    name: string,
    override: boolean,
  ): Promise<void> {
    // a mount cannot go to the trash to make room: refused even with override
    await this.files.assertNoMount(actor.id, target.id, name);
    const clash = await this.repo.childNamed(actor.id, target.id, name);
    if (!clash) return;
    if (!override) throw exists(`"${name}" already exists in the target folder`);
    await this.trash.trashRow(actor, clash);
  }

  /**
   * Copy items: at once, or (more than BACKGROUND_COPY_ITEMS items or BACKGROUND_COPY_BYTES
   * bytes) as a background task whose result arrives as an operationFile event.
   */
  async startCopy(
    actor: Actor,
    froms: string[],
    toId: string,
    override: boolean,
  ): Promise<{ answer: CopyAnswer; queued: boolean }> {
    requireAuthority(actor, 'cloud:file:upload');
    const size = await this.measure(actor, froms);
    // a copy that would not fit is refused now, not by a task that fails later
    await this.assertBatchFits(
      actor,
      await this.files.liveItems(actor.id, froms),
      await this.files.folderById(actor.id, toId),
    );
    if (size.items <= BACKGROUND_COPY_ITEMS && size.bytes <= BACKGROUND_COPY_BYTES)
      return { answer: await this.copy(actor, froms, toId, override), queued: false };
    await this.files.assertSpace(actor.id, size.bytes);
    const taskId = await this.jobs.enqueue<CopyPayload>(
      JOB_COPY,
      { froms, to: toId, override },
      { userId: actor.id, name: size.name, path: size.path },
    );
    return { answer: { taskId }, queued: true };
  }

  async copy(
    actor: Actor,
    froms: string[],
    toId: string,
    override: boolean,
  ): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:upload');
    return this.files.withLock(actor.id, async () => {
      const target = await this.files.folderById(actor.id, toId);
      const rows = await this.files.liveItems(actor.id, froms);
      for (const row of rows) this.assertNotInside(row, target);
      await this.assertBatchFits(actor, rows, target);
      let bytes = 0;
      for (const row of rows)
        bytes += row.isFolder
          ? (await this.subtree.subtreeTotals(actor.id, prefixOf(row))).bytes
          : row.size;
      await this.files.assertSpace(actor.id, bytes);
      // copying into a locked folder, or over a locked item, is refused before anything is copied
      await this.files.itemLocks.assertFree(
        actor,
        rows
          .filter((r) => r.parentId !== target.id)
          .map((r) => newItemScope(target.prefix, r.name)),
      );
      const failed = new Map<FileRow, OperationResult>();
      const planned = await this.planCopies(actor, rows, target, override, failed);
      let copied: FileRow[] = [];
      try {
        copied = await this.copyRows(actor, target, planned);
      } catch (err) {
        for (const { row, name } of planned)
          failed.set(row, failureOf('copy', row, `${target.prefix}${name}`, err));
      }
      const names = new Map(planned.map((p) => [p.row, p.name]));
      const results = rows.map(
        (row): OperationResult =>
          failed.get(row) ?? {
            operation: 'copy',
            from: fullPathOf(row),
            to: `${target.prefix}${names.get(row)}`,
            code: 0,
            msg: '',
          },
      );
      for (const row of copied) this.files.notify(actor.id, 'createFile', toView(row));
      this.files.report(actor.id, results);
      return results;
    });
  }

  /**
   * The name each item takes in the target: a numbered one beside itself, its own elsewhere
   * (what holds that name goes to the trash with `override`, else the item is refused). An
   * item that cannot be copied is told in `failed`; the others are answered.
   */
  private async planCopies(
    actor: Actor,
    rows: FileRow[],
    target: FolderRef,
    override: boolean,
    failed: Map<FileRow, OperationResult>,
  ): Promise<PlannedCopy[]> {
    const taken = await this.files.repo.childNames(actor.id, target.id);
    const chosen = new Set<string>();
    const planned: PlannedCopy[] = [];
    for (const row of rows) {
      let name = row.name;
      try {
        if (row.parentId === target.id)
          name = await this.files.freeName(
            actor.id,
            target.id,
            row.name,
            row.isFolder === 1,
            taken,
          );
        else if (chosen.has(name)) throw exists(`"${name}" already exists in the target folder`);
        else if (taken.has(name)) await this.makeRoom(actor, target, name, override);
        await this.files.assertTreeFits(actor.id, row, target.prefix, name, 'to', 'The copy');
        taken.add(name);
        chosen.add(name);
        planned.push({ row, name });
      } catch (err) {
        failed.set(row, failureOf('copy', row, `${target.prefix}${name}`, err));
      }
    }
    const scopes = planned.map((p) => newItemScope(target.prefix, p.name));
    if (await this.files.itemLocks.isFree(actor, scopes)) return planned;
    // a lock holds some of the names: those items are not copied, told why
    const free: PlannedCopy[] = [];
    for (const p of planned) {
      try {
        await this.files.itemLocks.assertFree(actor, [newItemScope(target.prefix, p.name)]);
        free.push(p);
      } catch (err) {
        failed.set(p.row, failureOf('copy', p.row, `${target.prefix}${p.name}`, err));
      }
    }
    return free;
  }

  /** Copy one item (and everything below it) under a name; the caller holds the lock. */
  async copyRow(owner: Owner, row: FileRow, target: FolderRef, name: string): Promise<FileRow> {
    await this.files.assertTreeFits(owner.id, row, target.prefix, name, 'to', 'The copy');
    await this.files.itemLocks.assertFree(owner, [newItemScope(target.prefix, name)]);
    const [created] = await this.copyRows(owner, target, [{ row, name }]);
    return created!;
  }

  /**
   * Copy items (and everything below them) into one folder under the names planned, as one
   * change: one journal entry, each item's bytes copied once, one transaction inserting every
   * new row. The caller holds the lock and checked the names and locks. Answers the top rows.
   */
  private async copyRows(
    owner: Owner,
    target: FolderRef,
    planned: PlannedCopy[],
  ): Promise<FileRow[]> {
    if (planned.length === 0) return [];
    const rows: NewFileRow[] = [];
    const tops: string[] = [];
    const copies: Array<{ source: Place; staged: Place; to: Place }> = [];
    for (const { row, name } of planned) {
      const top = newId();
      tops.push(top);
      rows.push(...(await this.copiedRows(owner, row, target, name, top)));
      copies.push({
        source: this.files.placeOf(owner, row),
        staged: this.blobs.staging(),
        to: this.blobs.item(owner.username, target.prefix, name),
      });
    }
    const bytes = rows.reduce((sum, c) => sum + (c.isFolder ? 0 : Number(c.size ?? 0)), 0);
    await this.files.journaledCopies(owner.id, copies, bytes, async (trx) => {
      await this.repo.insertMany(rows, trx);
      await this.repo.adjustChildren(target.id, planned.length, trx);
      await this.repo.addToFolderSizes(owner.id, target.prefix, bytes, trx);
      await this.repo.adjustUsed(owner.id, bytes, trx);
      await this.files.changed({ kind: 'created', userId: owner.id, rows }, trx);
    });
    const created = new Map((await this.files.repo.liveMany(owner.id, tops)).map((r) => [r.id, r]));
    return tops.map((id) => created.get(id)!);
  }

  /** The new rows of one item's copy as `name` in `target`, with new ids and folder sizes. */
  private async copiedRows(
    owner: Owner,
    row: FileRow,
    target: FolderRef,
    name: string,
    newRootId: string,
  ): Promise<NewFileRow[]> {
    const newPrefix = `${target.prefix}${name}/`;
    const descendants = row.isFolder ? await this.subtree.descendants(owner.id, prefixOf(row)) : [];
    const ids = new Map<string, string>([[row.id, newRootId]]);
    for (const d of descendants) ids.set(d.id, newId());
    const oldPrefix = prefixOf(row);
    // the copies keep the bytes' facts and dates; they are new rows, uploaded now
    const copyOf = (from: FileRow, parent: FolderRef, as: string, id: string) =>
      newFileRow(owner, parent, as, {
        id,
        isFolder: from.isFolder === 1,
        size: from.size,
        hash: from.hash,
        updateDate: from.updateDate,
        childrenCount: from.childrenCount,
        media: from.media,
      });
    return withFolderSizes([
      copyOf(row, target, name, newRootId),
      ...descendants.map((d) =>
        copyOf(
          d,
          {
            id: ids.get(d.parentId) ?? d.parentId,
            prefix: newPrefix + d.path.slice(oldPrefix.length),
          },
          d.name,
          ids.get(d.id)!,
        ),
      ),
    ]);
  }

  async duplicate(actor: Actor, fileId: string, rawName?: unknown): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    return this.files.withLock(actor.id, async () => {
      const row = await this.files.mustFindLive(actor.id, fileId);
      if (row.isFolder) throw badParameter('Only files can be duplicated; copy a folder instead');
      await this.files.assertSpace(actor.id, row.size);
      const parent: FolderRef = { id: row.parentId, prefix: row.path };
      let name: string;
      if (rawName !== undefined && rawName !== '') {
        name = checkName(rawName);
        if (await this.repo.childNamed(actor.id, row.parentId, name))
          throw exists(`"${name}" already exists in this folder`);
        await this.files.assertNoMount(actor.id, row.parentId, name);
      } else name = await this.files.freeName(actor.id, row.parentId, row.name, false);
      return toView(await this.copyRow(actor, row, parent, name));
    });
  }

  // ---- flags and new files ----------------------------------------------------------------

  async setFavorite(actor: Actor, ids: string[], favorite: boolean): Promise<void> {
    const rows = await this.files.liveItems(actor.id, ids);
    await this.repo.setFavorite(
      actor.id,
      rows.map((r) => r.id),
      favorite,
    );
    for (const r of rows)
      this.files.notify(actor.id, 'updateFile', { ...toView(r), isFavorite: favorite });
  }

  /** A new empty file: txt, md, a mind map, or a valid empty Word, Excel or PowerPoint document. */
  async addFile(
    actor: Actor,
    parentPath: unknown,
    rawName: unknown,
    folderId?: string,
  ): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const name = checkName(rawName);
    return this.files.withLock(actor.id, async () => {
      const parent = folderId
        ? await this.files.folderById(actor.id, folderId)
        : await this.files.resolveFolder(actor.id, parentPath);
      if (await this.repo.childNamed(actor.id, parent.id, name))
        throw exists(`"${name}" already exists in this folder`);
      await this.files.assertNoMount(actor.id, parent.id, name);
      await this.files.itemLocks.assertFree(actor, [newItemScope(parent.prefix, name)]);
      const content = await emptyFileContent(suffixOf(name), name);
      await this.files.assertSpace(actor.id, content.length);
      const target = this.blobs.item(actor.username, parent.prefix, name);
      if (await this.blobs.exists(target))
        throw exists('An item with this name is already on disk here; rebuild the index to see it');
      await this.blobs.write(target, content);
      const row = await this.files.insertFile(actor, parent, name, {
        size: content.length,
        hash: sha256Bytes(content),
      });
      this.files.notify(actor.id, 'createFile', toView(row));
      return toView(row);
    });
  }
}
