import { ErrorCode, type OperationResult } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import type { FileRow } from './files.repo.ts';
import { failureOf, fullPathOf, toView } from './file-view.ts';
import { prefixOf, type FilesService, type Owner } from './files.service.ts';
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
      for (const row of roots) await this.trashRow(actor, row);
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
    const from = this.files.placeOf(owner, row);
    const to = this.blobs.trashed(owner.username, row.id);
    const now = Date.now();
    await this.files.journaled(
      owner.id,
      'trash',
      from,
      to,
      () => this.blobs.move(from, to),
      async (trx) => {
        await this.liveBytesGo(owner, row, trx);
        await this.repo.markTrashed(owner.id, row, now, trx);
        await this.repo.adjustChildren(row.parentId, -1, trx);
        await this.files.changed({ kind: 'trashed', userId: owner.id, trashId: row.id }, trx);
      },
    );
    this.files.notify(owner.id, 'deleteFile', { id: row.id, path: fullPathOf(row) });
  }

  /**
   * Delete live items for good, in one step per item: its bytes go aside and, in one
   * transaction, its rows go and its space comes back; then the bytes are removed. A crash
   * before the commit puts the bytes back; one after it leaves only bytes without rows,
   * removed at the next start.
   */
  async remove(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const roots = outermost(await this.files.liveItems(actor.id, ids));
      await this.files.itemLocks.assertFree(
        actor,
        roots.map((r) => scopeOf(r, 'membership')),
      );
      for (const row of roots) {
        const from = this.files.placeOf(actor, row);
        const aside = this.blobs.trashed(actor.username, row.id);
        await this.files.journaled(
          actor.id,
          'trash',
          from,
          aside,
          () => this.blobs.move(from, aside),
          async (trx) => {
            await this.liveBytesGo(actor, row, trx);
            await this.repo.markTrashed(actor.id, row, Date.now(), trx);
            await this.repo.adjustChildren(row.parentId, -1, trx);
            await this.files.changed({ kind: 'trashed', userId: actor.id, trashId: row.id }, trx);
            await this.files.changed({ kind: 'purged', userId: actor.id, trashId: row.id }, trx);
            const bytes = await this.repo.deleteTrashed(actor.id, row.id, trx);
            await this.repo.adjustUsed(actor.id, -bytes, trx);
          },
        );
        await this.blobs.remove(aside);
        await this.files.purged(actor.id);
        this.files.notify(actor.id, 'deleteFile', { id: row.id, path: fullPathOf(row) });
      }
      this.files.notify(actor.id, 'operationTips', { operation: 'delete', success: true, msg: '' });
      return roots.length;
    });
  }

  async restore(actor: Actor, ids: string[]): Promise<OperationResult[]> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const results: OperationResult[] = [];
      for (const id of new Set(ids)) {
        const row = await this.trashRoot(actor.id, id);
        try {
          results.push(await this.restoreRow(actor, row));
        } catch (err) {
          results.push(failureOf('restore', row, fullPathOf(row), err));
        }
      }
      this.files.report(actor.id, results);
      return results;
    });
  }

  private async trashRoot(userId: string, id: string): Promise<FileRow> {
    const row = await this.repo.byId(userId, id);
    if (!row || row.trashId !== row.id)
      throw new AppError(ErrorCode.FILE_NOT_FOUND, 'This item is not in the trash');
    return row;
  }

  private async restoreRow(actor: Actor, row: FileRow): Promise<OperationResult> {
    // the original folder, recreated if it went away meanwhile
    const parent = await this.files.ensureFolders(actor, parseFolderPath(row.path));
    const name = await this.files.freeName(actor.id, parent.id, row.name, row.isFolder === 1);
    // a numbered name ("a(1)") may push what is below it past what a disk holds
    await this.files.assertTreeFits(
      actor.id,
      row,
      parent.prefix,
      name,
      'fileIds',
      `"${name}" restored`,
    );
    await this.files.itemLocks.assertFree(actor, [newItemScope(parent.prefix, name)]);
    const from = this.blobs.trashed(actor.username, row.id);
    const to = this.blobs.item(actor.username, parent.prefix, name);
    await this.files.journaled(
      actor.id,
      'restore',
      from,
      to,
      () => this.blobs.move(from, to),
      async (trx) => {
        await this.repo.restoreTrashed(actor.id, row, parent, name, trx);
        await this.repo.adjustChildren(parent.id, 1, trx);
        // the folder comes back with the bytes below it; the folders above it take them
        const bytes = row.isFolder
          ? (await this.repo.subtreeTotals(actor.id, `${parent.prefix}${name}/`, trx)).bytes
          : row.size;
        await this.repo.addToFolderSizes(actor.id, parent.prefix, bytes, trx);
        await this.files.changed({ kind: 'restored', userId: actor.id }, trx);
      },
    );
    const restored = await this.files.mustFind(actor.id, row.id);
    this.files.notify(actor.id, 'createFile', toView(restored));
    return {
      operation: 'restore',
      from: fullPathOf(row),
      to: fullPathOf(restored),
      code: 0,
      msg: name === row.name ? '' : `Restored as "${name}"`,
    };
  }

  /** A live item leaves its folder: the folders above it no longer hold its bytes. */
  private async liveBytesGo(owner: Owner, row: FileRow, trx: Db): Promise<void> {
    const bytes = row.isFolder
      ? (await this.repo.subtreeTotals(owner.id, prefixOf(row), trx)).bytes
      : row.size;
    await this.repo.addToFolderSizes(owner.id, row.path, -bytes, trx);
  }

  /** Delete trashed items for good and give their space back. */
  async sweep(actor: Actor, ids: string[]): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const rows: FileRow[] = [];
      for (const id of new Set(ids)) rows.push(await this.trashRoot(actor.id, id));
      for (const row of rows) await this.sweepRow(actor, row);
      return rows.length;
    });
  }

  async clear(actor: Actor): Promise<number> {
    requireAuthority(actor, 'cloud:file:delete');
    return this.files.withLock(actor.id, async () => {
      const rows = await this.repo.trashRoots(actor.id);
      for (const row of rows) await this.sweepRow(actor, row);
      this.files.notify(actor.id, 'operationTips', {
        operation: 'clear-trash',
        success: true,
        msg: '',
      });
      return rows.length;
    });
  }

  private async sweepRow(owner: Owner, row: FileRow): Promise<void> {
    // database first: a crash leaves only unreferenced bytes in the trash folder, removed on boot
    await this.files.transaction(async (trx) => {
      await this.files.changed({ kind: 'purged', userId: owner.id, trashId: row.id }, trx);
      const bytes = await this.repo.deleteTrashed(owner.id, row.id, trx);
      await this.repo.adjustUsed(owner.id, -bytes, trx);
    });
    await this.blobs.remove(this.blobs.trashed(owner.username, row.id));
    await this.files.purged(owner.id);
  }
}
