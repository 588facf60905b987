import type { Db } from '../../db/index.ts';
import type { ChangedRow, FileChange, FilesService } from '../files/files.service.ts';
import { contentKindOf } from './content/extract.ts';
import type { ContentLanes } from './index-lanes.ts';
import type { DocSource, DocState, SearchRepo } from './search.repo.ts';

/** The content state a new or changed file starts in. */
export function initialState(row: ChangedRow): DocState {
  const kind = contentKindOf({
    suffix: row.suffix ?? '',
    fileType: row.fileType ?? 'other',
    isFolder: Number(row.isFolder),
    size: Number(row.size ?? 0),
  });
  return kind ? 'pending' : 'none';
}

/** A new document for a file row. */
export const docOf = (userId: string, row: ChangedRow): DocSource => ({
  fileId: row.id,
  userId,
  name: row.name,
  live: !row.trashId,
  state: initialState(row),
});

/**
 * Following the tree: names follow every change inside the transaction that makes it
 * (`FilesService.onChange`); files whose bytes changed are marked pending for the text lane.
 */
export class TreeFollower {
  constructor(
    private readonly repo: SearchRepo,
    private readonly lanes: ContentLanes,
    files: FilesService,
  ) {
    files.onChange((change, trx) => this.follow(change, trx));
  }

  private async follow(change: FileChange, trx: Db): Promise<void> {
    switch (change.kind) {
      case 'created': {
        const docs = change.rows.map((row) => docOf(change.userId, row));
        await this.repo.addDocs(trx, docs);
        if (docs.some((d) => d.state === 'pending' && d.live))
          this.lanes.kick(change.userId, 'text');
        return;
      }
      case 'updated':
        await this.update(trx, change.userId, change.rows);
        return;
      case 'trashed':
        await this.repo.markTrashed(trx, change.userId, change.trashIds);
        return;
      case 'restored':
        if ((await this.repo.markRestored(trx, change.userId)) > 0)
          this.lanes.kick(change.userId, 'text');
        return;
      case 'purged':
        // the index rows go with the file rows (foreign keys)
        return;
    }
  }

  /** Rows renamed or rewritten: new names indexed, changed bytes read again. */
  private async update(trx: Db, userId: string, rows: ChangedRow[]): Promise<void> {
    if (rows.length === 0) return;
    const docs = await this.repo.docsOfFiles(
      trx,
      rows.map((r) => r.id),
    );
    const byFile = new Map(docs.map((d) => [d.fileId, d]));
    const missing: DocSource[] = [];
    let pending = false;
    for (const row of rows) {
      const doc = byFile.get(row.id);
      if (!doc) {
        missing.push(docOf(userId, row));
        continue;
      }
      if (doc.name !== row.name)
        await this.repo.renameDocs(trx, [{ fileId: row.id, name: row.name }]);
      const wanted = initialState(row);
      if (wanted === 'none') {
        if (doc.state !== 'none') {
          await this.repo.clearContent(trx, doc.docKey);
          await this.repo.updateDoc(
            doc.docKey,
            { state: 'none', contentHash: null, message: null },
            trx,
          );
        }
      } else if (
        row.hash !== undefined &&
        (doc.contentHash !== (row.hash ?? '') || doc.state === 'none')
      ) {
        await this.repo.updateDoc(
          doc.docKey,
          { state: 'pending', message: null, updatedAt: Date.now() },
          trx,
        );
        pending ||= doc.live === 1;
      }
    }
    if (missing.length > 0) {
      await this.repo.addDocs(trx, missing);
      pending ||= missing.some((m) => m.state === 'pending' && m.live);
    }
    if (pending) this.lanes.kick(userId, 'text');
  }
}
