import { archiveKindOf, ErrorCode } from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { DEFAULT_LIMITS, extractArchive } from './archive.ts';
import { newFileRow, withFolderSizes } from './file-row.ts';
import { newItemScope } from './item-locks.ts';
import { checkPlace } from './names.ts';
import { toView, type FileView } from './file-view.ts';
import type { FilesService } from './files.service.ts';
import type { TreeIndexer } from './tree-index.ts';

/** Extraction of zip, tar, tar.gz, 7z and rar archives into the tree. */
export class ExtractService {
  constructor(
    private readonly files: FilesService,
    private readonly indexer: TreeIndexer,
  ) {}

  /**
   * Extract a zip, tar, tar.gz, 7z or rar into a new folder named after it, inside `destFolderId` (or
   * beside the archive). Entries escaping the folder, links, and archives expanding past the
   * limits or the quota are refused, and nothing of the archive stays behind.
   */
  async unzip(actor: Actor, fileId: string, destFolderId?: string): Promise<FileView> {
    requireAuthority(actor, 'cloud:file:upload');
    const { files } = this;
    const blobs = files.blobs;
    const row = await files.mustFindLive(actor.id, fileId);
    const kind = archiveKindOf(row.name);
    if (row.isFolder || !kind)
      throw new AppError(
        ErrorCode.UNRECOGNIZED_FILE,
        'Only zip, tar, tar.gz, 7z and rar archives can be extracted',
      );
    const scratch = await blobs.scratch();
    const staging = scratch.place;
    const archive = await blobs.local(files.placeOf(actor, row));
    try {
      const room = Math.max(0, await files.spaceLeft(actor.id));
      const expanded = await extractArchive(archive.path, scratch.path, kind, {
        ...DEFAULT_LIMITS,
        maxBytes: Math.min(DEFAULT_LIMITS.maxBytes, room),
      }).catch((err: unknown) => {
        if (
          err instanceof AppError &&
          /allowed size/.test(err.message) &&
          room < DEFAULT_LIMITS.maxBytes
        ) {
          throw new AppError(
            ErrorCode.SPACE_FULL,
            'Not enough space left in your drive to extract this archive',
          );
        }
        throw err;
      });
      return await files.withLock(actor.id, async () => {
        await files.assertSpace(actor.id, expanded);
        const target = destFolderId
          ? await files.folderById(actor.id, destFolderId)
          : { id: row.parentId, prefix: row.path };
        const base =
          row.name.replace(/(\.tar\.gz|\.tgz|\.tar|\.zip|\.jar|\.7z|\.rar)$/i, '') || row.name;
        const name = await files.freeName(actor.id, target.id, base, true);
        const folderId = newId();
        const to = blobs.item(actor.username, target.prefix, name);
        const rows = withFolderSizes(
          await this.indexer.indexNew(actor, staging, {
            id: folderId,
            prefix: `${target.prefix}${name}/`,
          }),
        );
        // the archive's deepest entry below the folder it gets must still fit on the disk
        checkPlace(target.prefix, name);
        await files.itemLocks.assertFree(actor, [newItemScope(target.prefix, name)]);
        for (const r of rows) checkPlace(r.path, r.name);
        const folderRow = newFileRow(actor, target, name, {
          isFolder: true,
          id: folderId,
          childrenCount: rows.filter((r) => r.parentId === folderId).length,
        });
        const bytes = rows.reduce((sum, r) => sum + (r.isFolder ? 0 : Number(r.size ?? 0)), 0);
        folderRow.size = bytes;
        await files.journaled(
          actor.id,
          'copy',
          staging,
          to,
          () => blobs.move(staging, to),
          async (trx) => {
            await files.repo.insertMany([folderRow, ...rows], trx);
            await files.repo.adjustChildren(target.id, 1, trx);
            await files.repo.addToFolderSizes(actor.id, target.prefix, bytes, trx);
            await files.repo.adjustUsed(actor.id, bytes, trx);
            await files.changed(
              { kind: 'created', userId: actor.id, rows: [folderRow, ...rows] },
              trx,
            );
          },
          { bytes },
        );
        const created = toView(await files.mustFind(actor.id, folderId));
        files.notify(actor.id, 'createFile', created);
        return created;
      });
    } finally {
      await archive.release();
      await scratch.release();
    }
  }
}
