import { ErrorCode, type OperationResult } from '@nimbus/contract';
import type { Actor } from '../../lib/access.ts';
import { exists } from '../../lib/errors.ts';
import type { FileRow } from './files.repo.ts';
import { failureOf, fullPathOf, toView } from './file-view.ts';
import { prefixOf, type FilesService, type FolderRef } from './files.service.ts';
import { outermost, type TrashService } from './trash.service.ts';

/**
 * Move a selection into a folder as one change: one journal entry, each chosen item's bytes
 * moved once (a folder's go with it), one transaction of set-based statements. The caller holds
 * the lock and made the checks that stop the whole move (into itself, path limits, locks).
 * An item already in the folder is ignored; one whose name is taken there fails, unless
 * `override` sends the item holding the name to the trash first (never a mounted share).
 */
export async function moveSelection(
  files: FilesService,
  trash: TrashService,
  actor: Actor,
  rows: FileRow[],
  target: FolderRef,
  override: boolean,
): Promise<OperationResult[]> {
  const results = new Map<string, OperationResult>();
  const result = (row: FileRow, fields: Pick<OperationResult, 'code' | 'msg'>) =>
    results.set(row.id, {
      operation: 'move',
      from: fullPathOf(row),
      to: `${target.prefix}${row.name}`,
      ...fields,
    });
  const names = await files.repo.childNames(actor.id, target.id);
  const holders: FileRow[] = [];
  const moving: FileRow[] = [];
  const chosen = new Set<string>();
  // an item inside a chosen folder goes with it
  for (const row of outermost(rows)) {
    if (row.parentId === target.id) {
      result(row, { code: ErrorCode.IGNORE, msg: 'Already in this folder' });
      continue;
    }
    try {
      if (chosen.has(row.name)) throw exists(`"${row.name}" already exists in the target folder`);
      if (names.has(row.name)) {
        await files.assertNoMount(actor.id, target.id, row.name);
        if (!override) throw exists(`"${row.name}" already exists in the target folder`);
        const holder = await files.repo.childNamed(actor.id, target.id, row.name);
        if (holder) holders.push(holder);
      }
      chosen.add(row.name);
      moving.push(row);
    } catch (err) {
      results.set(row.id, failureOf('move', row, `${target.prefix}${row.name}`, err));
    }
  }
  try {
    if (holders.length > 0) await trash.trashRows(actor, outermost(holders));
    await moveRows(files, actor, moving, target);
    for (const row of moving) result(row, { code: 0, msg: '' });
  } catch (err) {
    for (const row of moving)
      results.set(row.id, failureOf('move', row, `${target.prefix}${row.name}`, err));
  }
  // items inside a chosen folder went with it and have no result of their own
  const out = rows.flatMap((row) => results.get(row.id) ?? []);
  files.report(actor.id, out);
  return out;
}

async function moveRows(
  files: FilesService,
  actor: Actor,
  rows: FileRow[],
  target: FolderRef,
): Promise<void> {
  if (rows.length === 0) return;
  const moves = rows.map((row) => ({
    from: files.placeOf(actor, row),
    to: files.blobs.item(actor.username, target.prefix, row.name),
  }));
  await files.journaledMany(actor.id, 'move', moves, async (trx) => {
    // the bytes of each item leave the folders above it and join those of the target
    const sizes: Array<{ prefix: string; bytes: number }> = [];
    for (const row of rows) {
      const bytes = row.isFolder
        ? (await files.subtree.subtreeTotals(actor.id, prefixOf(row), trx)).bytes
        : row.size;
      sizes.push({ prefix: row.path, bytes: -bytes }, { prefix: target.prefix, bytes });
    }
    await files.selection.addToFolderSizes(actor.id, sizes, trx);
    await files.selection.moveInto(actor.id, rows, target, trx);
    await files.selection.adjustChildren(
      rows.map((r) => r.parentId),
      -1,
      trx,
    );
    await files.selection.adjustChildren(
      rows.map(() => target.id),
      1,
      trx,
    );
  });
  // open folders on both sides follow the move
  for (const row of rows) files.notifyGone(actor.id, row);
  for (const row of await files.repo.liveMany(
    actor.id,
    rows.map((r) => r.id),
  ))
    files.notify(actor.id, 'createFile', toView(row));
}
