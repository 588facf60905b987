import { createHash } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Writable, type Readable } from 'node:stream';
import type { BlobEntry, Place } from '../../storage/blob-store.ts';
import { folderSums, newFileRow } from './file-row.ts';
import type { FileRow, NewFileRow } from './files.repo.ts';
import { prefixOf, type FilesService, type FolderRef, type Owner } from './files.service.ts';
import { checkName } from './names.ts';

/** The SHA-256 of a stream of bytes (read from the store). */
export async function hashBytes(
  bytes: Readable,
  onBytes?: (bytes: number) => void,
): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(
    bytes,
    new Writable({
      write(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        onBytes?.(chunk.length);
        done();
      },
    }),
  );
  return hash.digest('hex');
}

/** A name found on disk that Nimbus could not hold (bad characters, too long) is skipped. */
function acceptableName(name: string): boolean {
  try {
    return checkName(name) === name;
  } catch {
    return false;
  }
}

export interface SyncStats {
  folders: number;
  added: number;
  updated: number;
  removed: number;
}

/**
 * Reconciles the database with the disk, one folder at a time, so memory stays bounded by the
 * largest single folder whatever the size of the tree (index rebuild, spec §1 General settings).
 */
export class TreeIndexer {
  constructor(private readonly files: FilesService) {}

  private get repo() {
    return this.files.repo;
  }

  private get subtree() {
    return this.files.subtree;
  }

  private get blobs() {
    return this.files.blobs;
  }

  /** Rows for everything inside `folder` (just extracted or copied in), under `parent`. */
  async indexNew(
    owner: Owner,
    folder: Place,
    parent: FolderRef,
    rows: NewFileRow[] = [],
  ): Promise<NewFileRow[]> {
    for (const entry of await this.blobs.list(folder)) {
      if (!acceptableName(entry.name)) continue;
      const full = this.blobs.child(folder, entry.name);
      const row = await this.rowFor(owner, parent, entry.name, full, entry.isFolder);
      rows.push(row);
      if (entry.isFolder)
        await this.indexNew(
          owner,
          full,
          { id: row.id, prefix: `${parent.prefix}${entry.name}/` },
          rows,
        );
    }
    return rows;
  }

  private async rowFor(
    owner: Owner,
    parent: FolderRef,
    name: string,
    full: Place,
    isFolder: boolean,
  ): Promise<FileRow> {
    const stat = await this.blobs.stat(full);
    if (!stat) throw new Error(`"${name}" vanished while it was being indexed`);
    return newFileRow(owner, parent, name, {
      isFolder,
      size: isFolder ? 0 : stat.size,
      hash: isFolder ? null : await hashBytes(this.blobs.read(full)),
      updateDate: Math.floor(stat.mtimeMs),
      childrenCount: isFolder
        ? (await this.blobs.list(full)).filter((e) => acceptableName(e.name)).length
        : 0,
    });
  }

  /**
   * Bring the rows below `start` in line with the disk. `onFolder` is told after each folder,
   * with the number done and the number known so far.
   */
  async sync(
    owner: Owner,
    start: FolderRef,
    onFolder?: (done: number, known: number) => Promise<void> | void,
  ): Promise<SyncStats> {
    const stats: SyncStats = { folders: 0, added: 0, updated: 0, removed: 0 };
    const queue: FolderRef[] = [start];
    let known = 1;
    while (queue.length > 0) {
      const folder = queue.shift()!;
      await this.files.withLock(owner.id, () => this.syncOne(owner, folder, stats, queue));
      stats.folders += 1;
      known = Math.max(known, stats.folders + queue.length);
      await onFolder?.(stats.folders, known);
    }
    return stats;
  }

  private async syncOne(
    owner: Owner,
    folder: FolderRef,
    stats: SyncStats,
    queue: FolderRef[],
  ): Promise<void> {
    const dir = this.blobs.folder(owner.username, folder.prefix);
    const onDisk = new Map<string, BlobEntry>(
      (await this.blobs.list(dir)).filter((e) => acceptableName(e.name)).map((e) => [e.name, e]),
    );
    const rows = await this.repo.liveChildren(owner.id, folder.id);
    const inDb = new Map(rows.map((r) => [r.name, r]));

    for (const row of rows) {
      const entry = onDisk.get(row.name);
      if (!entry || entry.isFolder !== (row.isFolder === 1)) {
        await this.removeRow(owner, row);
        stats.removed += 1;
        inDb.delete(row.name);
        continue;
      }
      if (row.isFolder) {
        queue.push({ id: row.id, prefix: prefixOf(row) });
        continue;
      }
      const full = this.blobs.child(dir, row.name);
      const stat = await this.blobs.stat(full);
      if (!stat) continue; // gone since the listing: the next pass removes its row
      if (stat.size !== row.size || Math.floor(stat.mtimeMs) !== row.updateDate) {
        const hash = await hashBytes(this.blobs.read(full));
        await this.files.transaction(async (trx) => {
          await this.repo.update(
            row.id,
            { size: stat.size, hash, updateDate: Math.floor(stat.mtimeMs) },
            trx,
          );
          await this.repo.addToFolderSizes(owner.id, row.path, stat.size - row.size, trx);
          await this.repo.adjustUsed(owner.id, stat.size - row.size, trx);
          await this.files.changed(
            { kind: 'updated', userId: owner.id, rows: [{ ...row, size: stat.size, hash }] },
            trx,
          );
        });
        stats.updated += 1;
      }
    }
    for (const [name, entry] of onDisk) {
      if (inDb.has(name)) continue;
      const full = this.blobs.child(dir, name);
      const row = await this.rowFor(owner, folder, name, full, entry.isFolder);
      row.childrenCount = 0;
      await this.files.transaction(async (trx) => {
        await this.repo.insertMany([row], trx);
        await this.repo.addToFolderSizes(owner.id, row.path, row.size, trx);
        await this.repo.adjustUsed(owner.id, row.size, trx);
        await this.files.changed({ kind: 'created', userId: owner.id, rows: [row] }, trx);
      });
      stats.added += 1;
      if (entry.isFolder) queue.push({ id: row.id, prefix: prefixOf(row) });
    }
    if (folder.id !== '0') {
      const count = onDisk.size;
      await this.repo.update(folder.id, { childrenCount: count });
    }
  }

  /** A row (and its subtree) whose bytes vanished from disk. */
  private async removeRow(owner: Owner, row: FileRow): Promise<void> {
    await this.files.transaction(async (trx) => {
      let bytes = row.isFolder ? 0 : row.size;
      if (row.isFolder)
        bytes += (await this.subtree.subtreeTotals(owner.id, prefixOf(row), trx)).bytes;
      await this.repo.deleteLive(owner.id, row, trx);
      await this.repo.addToFolderSizes(owner.id, row.path, -bytes, trx);
      await this.repo.adjustUsed(owner.id, -bytes, trx);
    });
  }

  /**
   * Folder sizes repaired: under the owner's lock, one pass over their live files sums the bytes
   * below each folder, and the folders whose stored size drifted from it are set right, in one
   * transaction. Answers the number of folders set right.
   */
  async recalculateFolderSizes(
    owner: Owner,
    onProgress?: (percent: number) => void,
  ): Promise<number> {
    const wrong = await this.files.withLock(owner.id, async () => {
      const { folders, files } = await this.subtree.liveTree(owner.id);
      onProgress?.(50);
      const sums = folderSums(folders.map(prefixOf), files);
      const fixes = folders
        .map((f) => ({ id: f.id, size: sums.get(prefixOf(f)) ?? 0, was: Number(f.size) }))
        .filter((f) => f.size !== f.was);
      if (fixes.length > 0)
        await this.files.transaction((trx) => this.repo.setFolderSizes(fixes, trx));
      return fixes.length;
    });
    onProgress?.(100);
    return wrong;
  }
}
