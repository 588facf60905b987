/**
 * Bulk actions on one selection (issue targets; measured, never asserted in tests): trash,
 * restore, move, copy and delete for good of a selection of 20,000 items (files and folders with
 * files inside), one request each, in-process on a temporary SQLite data folder.
 * `NIMBUS_BENCH_BULK_ITEMS` changes the size of the selection (100000 for the larger target).
 * The seeding of the rows and files is each figure's reference: how busy the machine was.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../server/src/app.ts';
import { testConfig } from '../server/src/config.ts';
import { openDatabase } from '../server/src/db/index.ts';
import { newId } from '../server/src/lib/ids.ts';
import type { NewFileRow } from '../server/src/modules/files/files.repo.ts';
import { Report } from './harness.ts';

const ITEMS = Number(process.env.NIMBUS_BENCH_BULK_ITEMS ?? 20_000);
/** Of the selection, this many are folders holding FILES_PER_FOLDER files each. */
const FOLDERS = 20;
const FILES_PER_FOLDER = 50;

const report = new Report('bulk');

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-bench-bulk-'));
  const goal = ITEMS <= 20_000 ? 2 : 10;
  try {
    const config = testConfig({ dataDir, logLevel: 'silent' });
    const database = openDatabase(config);
    const app = await buildApp({ config, database, logger: false });
    const { users, files, fileOps, trash, db } = app.services;
    const owner = await users.initialize('bench', 'bench-password');
    const actor = (await app.services.auth.actorFor(owner.id))!;
    const selection = await files.newFolder(actor, '/', 'selection');
    const target = await files.newFolder(actor, '/', 'target');
    const userRoot = path.join(dataDir, 'files', 'bench');

    // ---- seed: rows and files straight into the database and the disk ----
    let t0 = performance.now();
    const now = Date.now();
    const all: NewFileRow[] = [];
    const row = (parentId: string, prefix: string, name: string, isFolder: boolean) => {
      const r: NewFileRow = {
        id: newId(),
        userId: owner.id,
        parentId,
        name,
        path: prefix,
        isFolder: isFolder ? 1 : 0,
        size: isFolder ? FILES_PER_FOLDER * 10 : 10,
        contentType: isFolder ? '' : 'text/plain',
        suffix: isFolder ? '' : 'txt',
        fileType: isFolder ? 'folder' : 'document',
        hash: null,
        uploadDate: now,
        updateDate: now,
        isFavorite: 0,
        media: null,
        childrenCount: isFolder ? FILES_PER_FOLDER : 0,
        trashId: null,
        trashedAt: null,
      };
      all.push(r);
      return r;
    };
    const selected: string[] = [];
    for (let f = 0; f < FOLDERS; f++) {
      const folder = row(selection.id, '/selection/', `folder-${f}`, true);
      selected.push(folder.id);
      fs.mkdirSync(path.join(userRoot, 'selection', folder.name));
      for (let i = 0; i < FILES_PER_FOLDER; i++) {
        const file = row(folder.id, `/selection/${folder.name}/`, `inner-${i}.txt`, false);
        fs.writeFileSync(path.join(userRoot, 'selection', folder.name, file.name), '0123456789');
      }
    }
    for (let i = selected.length; i < ITEMS; i++) {
      const file = row(
        selection.id,
        '/selection/',
        `file-${String(i).padStart(6, '0')}.txt`,
        false,
      );
      selected.push(file.id);
      fs.writeFileSync(path.join(userRoot, 'selection', file.name), '0123456789');
    }
    const bytes = all.reduce((sum, r) => sum + (r.isFolder ? 0 : Number(r.size)), 0);
    await db.transaction().execute(async (trx) => {
      await files.repo.insertMany(all, trx);
      await files.repo.update(selection.id, { childrenCount: ITEMS, size: bytes }, trx);
      await files.repo.adjustUsed(owner.id, bytes, trx);
    });
    const seedSeconds = (performance.now() - t0) / 1000;
    // the reference for how busy the machine was
    const seeded = `seeding ${all.length.toLocaleString('en')} rows and files: ${seedSeconds.toFixed(2)} s`;
    await new Promise((resolve) => setTimeout(resolve, 500));

    const measure = async (label: string, work: () => Promise<unknown>) => {
      t0 = performance.now();
      await work();
      const seconds = (performance.now() - t0) / 1000;
      report.record({
        what: `${label} ${ITEMS.toLocaleString('en')} items`,
        measured: `${seconds.toFixed(2)} s`,
        reference: seeded,
        target: `< ${goal} s`,
        met: seconds < goal,
      });
    };
    await measure('trash', () => trash.trash(actor, selected));
    await measure('restore', () => trash.restore(actor, selected));
    await measure('move', () => fileOps.move(actor, selected, target.id, false));
    const copies = await files.newFolder(actor, '/', 'copies');
    await measure('copy', () => fileOps.copy(actor, selected, copies.id, false));
    await trash.trash(actor, [copies.id]);
    await trash.sweep(actor, [copies.id]);
    await trash.trash(actor, selected);
    await measure('delete for good (from the trash)', () => trash.sweep(actor, selected));

    // what the selection left behind must add up: no bytes, no rows, the folder sizes at zero
    const left = await files.space.spaceUse(owner.id);
    const folders = await files.subtree.liveTree(owner.id);
    const sizes = folders.folders.map((f) => Number(f.size));
    if (left.files !== 0 || left.trash !== 0 || sizes.some((s) => s !== 0))
      throw new Error(`bytes left: ${JSON.stringify({ left, sizes })}`);
    await app.close();
    await database.close();
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  report.print();
}

await main();
