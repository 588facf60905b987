import { ErrorCode, TRASH_EXPIRY_OPERATION, type OperationResult } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { inPool } from '../../lib/pool.ts';
import type { FileRow } from './files.repo.ts';
import { failureOf, fullPathOf, toView } from './file-view.ts';
import { prefixOf, type FilesService, type FolderRef, type Owner } from './files.service.ts';
import type { Restored } from './selection.repo.ts';
import { parseFolderPath } from './names.ts';
import { newItemScope, scopeOf } from './item-locks.ts';

/** The rows not inside a folder among them: `/a/` and `/a/b.txt` give `/a/`. */
export function outermost<T extends Pick<FileRow, 'path' | 'name' | 'isFolder'>>(rows: T[]): T[] {
  const folders = new Set(rows.filter((r) => r.isFolder).map(prefixOf));
  if (folders.size === 0) return rows;
  return rows.filter((row) => {
    // every ancestor of `/a/b/c/`: `/a/`, `/a/b/`, `/a/b/c/`
    for (let at = row.path.indexOf('/', 1); at !== -1; at = row.path.indexOf('/', at + 1))
      if (folders.has(row.path.slice(0, at + 1))) return false;
    return true;
  });
}

/**
 * The trash: deleted items keep their rows (marked with the deleted item's id) and their bytes
 * move to `<data>/trash/<user>/<id>` until they are restored or swept.
 */
export class TrashService {
  constructor(private readonly files: FilesService) {}

  private get repo() {
    return this.files.repo;
  }

  private get blobs() {
    return this.files.blobs;
  }

  private get selection() {
    return this.files.selection;
  }

  /** Move items to the trash; an item inside another of the same request goes with it. */
  async trash(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const roots = outermost(await this.files.liveItems(actor.id, ids));
      // a locked item, or a folder holding one, stops the whole delete before anything goes
      await this.files.itemLocks.assertFree(
        actor,
        roots.map((r) => scopeOf(r, 'membership')),
      );
      await this.trashRows(actor, roots);
      this.files.notify(actor.id, 'operationTips', { operation: 'delete', success: true, msg: '' });
      return roots.length;
    });
  }

  /** The item at a full path such as `/a/b.txt`, to the trash. */
  async trashAt(actor: Actor, fullPath: string): Promise<void> {
    const row = await this.files.byPath(actor.id, fullPath);
    await this.trash(actor, [row.id]);
  }

  /** Move one live item to the trash; the caller holds the lock. */
  async trashRow(owner: Owner, row: FileRow): Promise<void> {
    await this.files.itemLocks.assertFree(owner, [scopeOf(row, 'membership')]);
    await this.trashRows(owner, [row]);
  }

  /**
   * Move live items, none inside another, to the trash as one change: one journal entry, each
   * item's bytes moved once, one transaction of set-based statements. The caller holds the lock
   * and checked the locks. `purge`: deleted for good in the same transaction.
   */
  async trashRows(owner: Owner, roots: FileRow[], purge = false): Promise<void> {
    const trashIds = roots.map((r) => r.id);
    const moves = roots.map((row) => ({
      from: this.files.placeOf(owner, row),
      to: this.blobs.trashed(owner.username, row.id),
    }));
    await this.files.journaledMany(owner.id, 'trash', moves, async (trx) => {
      await this.selection.markTrashed(owner.id, roots, Date.now(), trx);
      // the folders above each item no longer hold its bytes
      const bytes = await this.selection.entryBytes(owner.id, trashIds, trx);
      await this.selection.addToFolderSizes(
        owner.id,
        roots.map((r) => ({ prefix: r.path, bytes: -(bytes.get(r.id) ?? 0) })),
        trx,
      );
      await this.selection.adjustChildren(
        roots.map((r) => r.parentId),
        -1,
        trx,
      );
      await this.files.changed({ kind: 'trashed', userId: owner.id, trashIds }, trx);
      if (purge) await this.purgeEntries(owner, trashIds, trx);
    });
    for (const row of roots) this.files.notifyGone(owner.id, row);
  }

  /**
   * Delete live items for good: their bytes go aside and, in one transaction, their rows go and
   * their space comes back; then the bytes are removed. A crash before the commit puts the bytes
   * back; one after it leaves only bytes without rows, removed at the next start.
   */
  async remove(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const roots = outermost(await this.files.liveItems(actor.id, ids));
      await this.files.itemLocks.assertFree(
        actor,
        roots.map((r) => scopeOf(r, 'membership')),
      );
      await this.trashRows(actor, roots, true);
      await this.removeBytes(actor, roots);
      this.files.notify(actor.id, 'operationTips', { operation: 'delete', success: true, msg: '' });
      return roots.length;
    });
  }

  /** Trash entries' rows go for good and their space comes back, in the caller's transaction. */
  private async purgeEntries(owner: Owner, trashIds: string[], trx: Db): Promise<void> {
    await this.files.changed({ kind: 'purged', userId: owner.id, trashIds }, trx);
    const bytes = await this.selection.deleteEntries(owner.id, trashIds, trx);
    await this.repo.adjustUsed(owner.id, -bytes, trx);
  }

  /** The bytes of trash entries whose rows went, removed; then what kept things about them. */
  private async removeBytes(owner: Owner, entries: FileRow[]): Promise<void> {
    await inPool(entries, (row) => this.blobs.remove(this.blobs.trashed(owner.username, row.id)));
    await this.files.purged(owner.id);
  }

  /**
   * Bring trash entries back where they were, as one change: each in its folder (recreated if
   * it went away meanwhile), under a numbered name when its own is taken. An entry that cannot
   * come back (its tree would not fit on the disk, a lock) is told in its result; the others
   * come back all at once.
   */
  async restore(actor: Actor, ids: string[]): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const unique = [...new Set(ids)];
      const found = new Map(
        (await this.selection.trashRootsAmong(actor.id, unique)).map((r) => [r.id, r]),
      );
      if (found.size !== unique.length)
        throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This item is not in the trash');
      const rows = unique.map((id) => found.get(id)!);
      const failed = new Map<string, OperationResult>();
      const planned = await this.planRestore(actor, rows, failed);
      try {
        await this.restoreRows(actor, planned);
      } catch (err) {
        for (const { row } of planned)
          failed.set(row.id, failureOf('restore', row, fullPathOf(row), err));
      }
      const places = new Map(planned.map((p) => [p.row.id, p]));
      const results = rows.map((row): OperationResult => {
        const failure = failed.get(row.id);
        if (failure) return failure;
        const { parent, name } = places.get(row.id)!;
        return {
          operation: 'restore',
          from: fullPathOf(row),
          to: `${parent.prefix}${name}`,
          code: 0,
          msg: name === row.name ? '' : `Restored as "${name}"`,
        };
      });
      this.files.report(actor.id, results);
      const failure = results.find((r) => r.code !== 0);
      this.files.notify(actor.id, 'operationTips', {
        operation: 'restore',
        success: !failure,
        msg: failure?.msg ?? '',
      });
      return results;
    });
  }

  /** Where each entry comes back: its folder (made again if gone) and a free name there. */
  private async planRestore(
    actor: Actor,
    rows: FileRow[],
    failed: Map<string, OperationResult>,
  ): Promise<Restored[]> {
    const folders = new Map<string, FolderRef>();
    const taken = new Map<string, Set<string>>();
    const planned: Restored[] = [];
    for (const row of rows) {
      try {
        let parent = folders.get(row.path);
        if (!parent) {
          parent = await this.files.ensureFolders(actor, parseFolderPath(row.path));
          folders.set(row.path, parent);
        }
        let names = taken.get(parent.id);
        if (!names) {
          names = await this.files.repo.childNames(actor.id, parent.id);
          taken.set(parent.id, names);
        }
        const name = await this.files.freeName(
          actor.id,
          parent.id,
          row.name,
          row.isFolder === 1,
          names,
        );
        // a numbered name ("a(1)") may push what is below it past what a disk holds
        await this.files.assertTreeFits(
          actor.id,
          row,
          parent.prefix,
          name,
          'fileIds',
          `"${name}" restored`,
        );
        names.add(name);
        planned.push({ row, parent, name });
      } catch (err) {
        failed.set(row.id, failureOf('restore', row, fullPathOf(row), err));
      }
    }
    const scopes = planned.map((p) => newItemScope(p.parent.prefix, p.name));
    if (await this.files.itemLocks.isFree(actor, scopes)) return planned;
    // a lock holds some places: those entries stay in the trash, told why
    const free: Restored[] = [];
    for (const p of planned) {
      try {
        await this.files.itemLocks.assertFree(actor, [newItemScope(p.parent.prefix, p.name)]);
        free.push(p);
      } catch (err) {
        failed.set(p.row.id, failureOf('restore', p.row, fullPathOf(p.row), err));
      }
    }
    return free;
  }

  /** Entries back in the tree as one change: one journal entry, set-based statements. */
  private async restoreRows(owner: Owner, planned: Restored[]): Promise<void> {
    if (planned.length === 0) return;
    const trashIds = planned.map((p) => p.row.id);
    const moves = planned.map(({ row, parent, name }) => ({
      from: this.blobs.trashed(owner.username, row.id),
      to: this.blobs.item(owner.username, parent.prefix, name),
    }));
    await this.files.journaledMany(owner.id, 'restore', moves, async (trx) => {
      // each entry comes back with the bytes below it; the folders above it take them
      const bytes = await this.selection.entryBytes(owner.id, trashIds, trx);
      await this.selection.restoreEntries(owner.id, planned, trx);
      await this.selection.adjustChildren(
        planned.map((p) => p.parent.id),
        1,
        trx,
      );
      await this.selection.addToFolderSizes(
        owner.id,
        planned.map((p) => ({ prefix: p.parent.prefix, bytes: bytes.get(p.row.id) ?? 0 })),
        trx,
      );
      await this.files.changed({ kind: 'restored', userId: owner.id }, trx);
    });
    for (const row of await this.files.repo.liveMany(owner.id, trashIds))
      this.files.notify(owner.id, 'createFile', toView(row));
  }

  /** Delete trashed items for good and give their space back. */
  async sweep(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const unique = [...new Set(ids)];
      const rows = await this.selection.trashRootsAmong(actor.id, unique);
      if (rows.length !== unique.length)
        throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This item is not in the trash');
      await this.sweepRows(actor, rows);
      this.files.notify(actor.id, 'operationTips', { operation: 'sweep', success: true, msg: '' });
      return rows.length;
    });
  }

  async clear(actor: Actor): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const rows = await this.repo.trashRoots(actor.id);
      await this.sweepRows(actor, rows);
      this.files.notify(actor.id, 'operationTips', {
        operation: 'clear-trash',
        success: true,
        msg: '',
      });
      return rows.length;
    });
  }

  /**
   * Retention: the owner's trash entries put there before `before` go for good, exactly as the
   * owner's own sweep takes them (space, the versions and caches of their files, live events),
   * `batch` at a time so the owner's lock is never held long. Running it again, or after a
   * crash, finds only what is still there. Answers the entries that went.
   */
  async expire(owner: Owner, before: number, batch = 200): Promise<FileRow[]> {
    const gone: FileRow[] = [];
    for (;;) {
      const rows = await this.files.withLock(owner.id, async () => {
        const due = await this.repo.trashRootsBefore(owner.id, before, batch);
        await this.sweepRows(owner, due);
        return due;
      });
      gone.push(...rows);
      if (rows.length < batch) break;
    }
    // the trash view reloads; no notice pops up for what nobody asked for just now
    if (gone.length > 0)
      this.files.notify(owner.id, 'operationTips', {
        operation: TRASH_EXPIRY_OPERATION,
        success: true,
        msg: '',
      });
    return gone;
  }

  private async sweepRows(owner: Owner, rows: FileRow[]): Promise<void> {
    if (rows.length === 0) return;
    // database first: a crash leaves only unreferenced bytes in the trash folder, removed on boot
    await this.files.transaction((trx) =>
      this.purgeEntries(
        owner,
        rows.map((r) => r.id),
        trx,
      ),
    );
    await this.removeBytes(owner, rows);
  }
}
