import { ErrorCode } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import type { Place } from '../../storage/blob-store.ts';
import { toView, type FileView } from '../files/file-view.ts';
import type { FilesService, Owner } from '../files/files.service.ts';
import type { TrashService } from '../files/trash.service.ts';
import { isVersioned, type HistoryService } from '../history/history.service.ts';
import type { UploadPolicy } from './upload-rules.ts';
import type { UploadRepo } from './upload.repo.ts';
import { newItemScope } from '../files/item-locks.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** Where an upload's finished bytes become a file of the tree: a merge's end, an instant copy. */
export class UploadPlacer {
  constructor(
    private readonly repo: UploadRepo,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly trash: TrashService,
    private readonly history: HistoryService,
  ) {}

  private get blobs() {
    return this.files.blobs;
  }

  /**
   * Put finished bytes at their place in the tree and index them. The placement is journaled
   * (`file_op`): its intent, holding the file's size against the quota, is recorded before the
   * rename, and the row (with the session marked done) commits with the intent's removal, so a
   * crash in between is rolled back at the next start.
   */
  async place(
    owner: Owner,
    filename: string,
    segments: string[],
    staged: Place,
    meta: { size: number; hash: string; lastModified: number | null },
    policy: UploadPolicy,
    sessionId?: string,
  ): Promise<FileView> {
    return this.files.withLock(owner.id, async () => {
      const folder = await this.files.ensureFolders(owner, segments);
      await this.files.assertNoMount(owner.id, folder.id, filename);
      const clash = await this.fileRows.childNamed(owner.id, folder.id, filename);
      // a new name in a locked folder, or a locked file replaced, is refused with the lock's holder
      await this.files.itemLocks.assertFree(owner, [newItemScope(folder.prefix, filename)]);
      if (clash) {
        if (clash.isFolder)
          throw new AppError(ErrorCode.EXISTS, `A folder named "${filename}" is already here`);
        if (!policy.replace)
          throw new AppError(ErrorCode.EXISTS, `"${filename}" already exists here`);
        if (isVersioned(clash)) {
          // a document keeps its id, shares and tags; what it held becomes a version
          const row = await this.history.replaceLocked(
            owner,
            policy.operator ?? owner.username,
            clash,
            staged,
            { size: meta.size, hash: meta.hash },
            { exceptSession: sessionId },
          );
          if (sessionId)
            await this.files.transaction((trx) => this.repo.setDone(trx, sessionId, row.id));
          return toView(row);
        }
        await this.files.assertSpace(owner.id, meta.size, { exceptSession: sessionId });
        // the user confirmed the overwrite: the previous file goes to the trash, nothing is lost
        await this.trash.trashRow(owner, clash);
      }
      const target = this.blobs.item(owner.username, folder.prefix, filename);
      if (meta.lastModified) {
        // a date the disk cannot hold leaves the file with the time of its upload
        await this.blobs.setModified(staged, meta.lastModified).catch(() => undefined);
      }
      const row = await this.files.journaled(
        owner.id,
        'move',
        staged,
        target,
        () => this.blobs.move(staged, target),
        async (trx) => {
          const inserted = await this.files.insertFile(
            owner,
            folder,
            filename,
            { size: meta.size, hash: meta.hash, updateDate: meta.lastModified ?? undefined },
            trx,
          );
          if (sessionId) await this.repo.setDone(trx, sessionId, inserted.id);
          return inserted;
        },
        { bytes: meta.size, exceptSession: sessionId },
      );
      const view = toView(row);
      this.files.notify(owner.id, 'createFile', view);
      return view;
    });
  }
}
