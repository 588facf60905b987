import { createHash } from 'node:crypto';
import path from 'node:path';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import { toView } from '../files/file-view.ts';
import type { FileRow, FilesService, Owner } from '../files/files.service.ts';
import { scopeOf } from '../files/item-locks.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { ImageWork } from './image-work.ts';
import { storedWebp } from './programs/image-tools.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** Photos the "WebP storage" setting turns into WebP as they arrive (not animations). */
const STORED_AS_WEBP = new Set(['jpg', 'jpeg', 'jfif', 'png', 'tif', 'tiff']);

/** The "WebP storage" setting, and new photos stored as WebP under it. */
export class WebpStorageService {
  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly settings: SettingsService,
    private readonly work: ImageWork,
  ) {}

  private get blobs(): BlobStore {
    return this.files.blobs;
  }

  /** `GET /cloud/setting/webp`: whether uploaded photos are stored as WebP. */
  async setting(): Promise<{ enable: boolean }> {
    return { enable: await this.settings.get('webpStorage') };
  }

  /** `PUT /cloud/setting/webp`: an administrator's choice for the photos uploaded from now on. */
  async setSetting(actor: Actor, enable: boolean): Promise<void> {
    requireAuthority(actor, 'cloud:set:update');
    await this.settings.set('webpStorage', enable);
  }

  /** Whether a new file of this suffix is stored as WebP now. */
  async isDue(suffix: string): Promise<boolean> {
    return STORED_AS_WEBP.has(suffix.toLowerCase()) && (await this.settings.get('webpStorage'));
  }

  /**
   * A new photo stored as WebP: `photo.jpg` becomes `photo.webp` (a free name beside it), its
   * pixels and orientation kept, when that is smaller. The new bytes move in journaled, so a
   * crash leaves either the photo as it came or the WebP, never half of one.
   */
  async store(owner: Owner, row: FileRow): Promise<void> {
    await this.work.run(async (workDir, signal) => {
      signal.throwIfAborted();
      const scratch = this.work.scratchOf(workDir);
      const from = this.files.placeOf(owner, row);
      const local = await this.blobs.local(from);
      try {
        await storedWebp(
          { path: local.path, suffix: row.suffix },
          path.join(workDir, 'stored.webp'),
        );
      } finally {
        await local.release();
      }
      const staged = this.blobs.child(scratch, 'stored.webp');
      const stat = await this.blobs.stat(staged);
      if (!stat || stat.size >= row.size) return;
      const hash = createHash('sha256');
      for await (const chunk of this.blobs.read(staged)) hash.update(chunk as Buffer);
      const digest = hash.digest('hex');
      await this.files.withLock(owner.id, async () => {
        const current = await this.fileRows.live(owner.id, row.id);
        // changed meanwhile (renamed, moved, rewritten): left as it is
        if (!current || current.path !== row.path || current.name !== row.name) return;
        if (current.hash !== row.hash || current.size !== row.size) return;
        // a file locked over WebDAV is its client's: it stays as it is
        if (!(await this.files.itemLocks.isFree(owner, [scopeOf(current, 'membership')]))) return;
        const stem = row.name.slice(0, row.name.length - row.suffix.length - 1) || row.name;
        const name = await this.files.freeName(owner.id, row.parentId, `${stem}.webp`, false);
        const to = this.blobs.item(owner.username, row.path, name);
        await this.files.journaled(
          owner.id,
          'move',
          staged,
          to,
          () => this.blobs.move(staged, to),
          async (trx) => {
            await this.files.rewritten(
              owner,
              row,
              {
                name,
                suffix: 'webp',
                contentType: 'image/webp',
                fileType: 'image',
                size: stat.size,
                hash: digest,
              },
              trx,
            );
          },
        );
        // the photo as it came goes once the WebP stands in its place
        await this.blobs.remove(from);
        this.files.notify(
          owner.id,
          'updateFile',
          toView(await this.files.mustFind(owner.id, row.id)),
        );
      });
    });
  }
}
