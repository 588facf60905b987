import path from 'node:path';
import { ErrorCode, THUMBNAIL_SIZE, type ImageFacts } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { BlobStore, Place } from '../../storage/blob-store.ts';
import { dropCached } from '../../storage/drop-cached.ts';
import { markUsed } from '../cache/cache-keeper.ts';
import type { FileChange, FileRow, FilesService, Owner } from '../files/files.service.ts';
import type { UsersService } from '../users/users.service.ts';
import type { ImageAccess, ImageFinder, FoundImage } from './image-access.ts';
import { imageKeys, versionOf } from './image-cache-keys.ts';
import type { ImageFactsReader } from './image-facts.ts';
import { noThumbnail, type ImageBytes, type ImageWork } from './image-work.ts';
import { canDrawPdf, firstPageOf } from './programs/pdf-page.ts';
import {
  isConvertedForViewing,
  isReadableImage,
  thumbnailOf,
  viewableWebp,
  type ImageFile,
} from './programs/image-tools.ts';
import type { WebpStorageService } from './webp-storage.service.ts';
import type { FilesRepo } from '../files/files.repo.ts';
import type { SelectionRepo } from '../files/selection.repo.ts';

/**
 * A picture that stands for a file that is no image (a video's frame, an album's cover, a
 * document's first page): another module makes it and says where it is, or null.
 */
export type CoverSource = (owner: Owner, row: FileRow) => Promise<Place | null>;

const notAnImage = () => new AppError(ErrorCode.FILE_NOT_FOUND, 'This file is no image');

/** The longer side of a document's first page drawn as its cover. */
const PAGE_SIDE = 768;

/**
 * Images of files (API-NOTES §1.6): thumbnails of 256 px cached by file id and content hash,
 * covers that other modules provide for videos, music and documents, photos the browser cannot
 * show converted to WebP for viewing, and the size and EXIF of every image recorded as it
 * arrives (image-facts.ts). Access is the files' own (image-access.ts): the owner, a mounter of
 * a share holding the file, or a visitor of such a share. Avatars and the WebP storage setting
 * are avatars.service.ts and webp-storage.service.ts; the making of every derived image is
 * image-work.ts.
 */
export class ImagesService {
  private readonly covers: Array<{ accepts: (row: FileRow) => boolean; source: CoverSource }> = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly fileSelection: SelectionRepo,
    private readonly finder: ImageFinder,
    private readonly facts: ImageFactsReader,
    private readonly work: ImageWork,
    private readonly webp: WebpStorageService,
    private readonly users: UsersService,
  ) {
    files.onChange((change, trx) =>
      change.kind === 'purged' ? this.forget(change, trx) : this.follow(change),
    );
    if (canDrawPdf())
      this.addCoverSource(
        (row) => row.suffix === 'pdf',
        (o, r) => this.pdfPage(o, r),
      );
  }

  private get blobs(): BlobStore {
    return this.files.blobs;
  }

  /** Let another module give the picture that stands for files it knows (see `CoverSource`). */
  addCoverSource(accepts: (row: FileRow) => boolean, source: CoverSource): void {
    this.covers.push({ accepts, source });
  }

  // ---- thumbnails and covers ------------------------------------------------------------------

  /** `GET /view/thumbnail?id`: the 256 px WebP of an image, or of the cover of another file. */
  async thumbnail(access: ImageAccess): Promise<ImageBytes> {
    const found = await this.finder.find(access);
    const { row } = found;
    const key = imageKeys.thumbnail(row);
    const place = this.blobs.cached('thumbnail', key);
    // the cover (a video's frame, a document's first page) is sought only for a thumbnail still
    // to make: the cache may have let it go while the thumbnail stayed
    const made = await this.blobs.stat(place);
    if (made) return this.work.webpBytes(place, `${row.name}.webp`, key, made);
    let source: ImageFile & { place: Place };
    if (row.fileType === 'image' && isReadableImage(row.suffix)) {
      source = { place: found.place, path: '', suffix: row.suffix };
    } else {
      const cover = await this.coverPlace(found);
      if (!cover) throw noThumbnail();
      source = { place: cover, path: '', suffix: 'jpg' };
    }
    await this.work.makeOnce(place, key, async (workDir, signal) => {
      const local = await this.blobs.local(source.place);
      try {
        const image = { path: local.path, suffix: source.suffix };
        const webp = await thumbnailOf(image, THUMBNAIL_SIZE, workDir, signal);
        await this.blobs.write(place, webp);
        // reading the picture anyway: its facts are recorded when missing (at best: the
        // thumbnail stands whatever becomes of them)
        if (source.place === found.place)
          await this.facts.record(row, image, workDir, signal).catch(() => undefined);
      } finally {
        await local.release();
      }
    });
    return this.work.webpBytes(place, `${row.name}.webp`, key);
  }

  /** `GET /view/cover?id`: the picture standing for a video, an album or a document. */
  async cover(access: ImageAccess): Promise<ImageBytes> {
    const found = await this.finder.find(access);
    const cover = await this.coverPlace(found);
    if (!cover) throw noThumbnail();
    const stat = await this.blobs.stat(cover);
    if (!stat) throw noThumbnail();
    markUsed(this.blobs, cover, stat.mtimeMs);
    const head = await this.blobs.readHead(cover, 12);
    const isPng = head[0] === 0x89 && head[1] === 0x50;
    const isWebp = head.subarray(8, 12).toString('latin1') === 'WEBP';
    const [type, suffix] = isPng
      ? ['image/png', 'png']
      : isWebp
        ? ['image/webp', 'webp']
        : ['image/jpeg', 'jpg'];
    return {
      blobs: this.blobs,
      place: cover,
      row: {
        name: `${found.row.name}.${suffix}`,
        contentType: type,
        suffix,
        hash: `${found.row.id}-${versionOf(found.row)}-cover`,
        size: stat.size,
        updateDate: stat.mtimeMs,
      },
    };
  }

  private async coverPlace(found: FoundImage): Promise<Place | null> {
    for (const { accepts, source } of this.covers) {
      if (!accepts(found.row)) continue;
      const place = await source(found.owner, found.row);
      if (place) return place;
    }
    return null;
  }

  /** A PDF's first page, drawn once per version of the file (the grid's tile of a PDF). */
  private pdfPage(owner: Owner, row: FileRow): Promise<Place | null> {
    return this.firstPageCover(row, () => Promise.resolve(this.files.placeOf(owner, row)));
  }

  /**
   * The first page of the PDF that stands for `row` (the file itself, or what another module
   * turned it into: an office document's PDF), drawn once per version of the file; null when
   * there is no PDF or its page cannot be drawn. The PDF is asked for only when the page is not
   * drawn yet, and outside the image gate: a slow conversion holds no image work up.
   */
  async firstPageCover(row: FileRow, pdfOf: () => Promise<Place>): Promise<Place | null> {
    if (!canDrawPdf()) return null;
    const key = imageKeys.firstPage(row);
    const place = this.blobs.cached('cover', key);
    try {
      if (await this.blobs.exists(place)) return place;
      const pdf = await pdfOf();
      await this.work.makeOnce(place, key, async (workDir, signal) => {
        const local = await this.blobs.local(pdf);
        try {
          const name = await firstPageOf(local.path, PAGE_SIDE, workDir, signal);
          await this.blobs.move(this.blobs.child(this.work.scratchOf(workDir), name), place);
        } finally {
          await local.release();
        }
      });
    } catch {
      return null;
    }
    return place;
  }

  // ---- viewing --------------------------------------------------------------------------------

  /**
   * `GET /view/image?id`: an image as the viewer shows it. HEIC, TIFF, camera RAW and Photoshop
   * documents are converted to WebP once (cached by content hash); anything the browser shows
   * itself is sent as it is.
   */
  async viewable(access: ImageAccess): Promise<ImageBytes> {
    const found = await this.finder.find(access);
    const { row } = found;
    if (row.fileType !== 'image') throw notAnImage();
    const asItIs = { blobs: this.blobs, place: found.place, row, previewOnly: found.previewOnly };
    if (!isConvertedForViewing(row.suffix)) return asItIs;
    const key = imageKeys.viewable(row);
    const place = this.blobs.cached('image', key);
    const made = this.work.makeOnce(place, key, async (workDir, signal) => {
      const local = await this.blobs.local(found.place);
      try {
        const out = path.join(workDir, 'view.webp');
        const image = { path: local.path, suffix: row.suffix };
        await viewableWebp(image, out, workDir, signal);
        await this.facts.record(row, image, workDir, signal).catch(() => undefined);
        await this.blobs.move(this.blobs.child(this.work.scratchOf(workDir), 'view.webp'), place);
      } finally {
        await local.release();
      }
    });
    try {
      await made;
    } catch {
      // a picture that cannot be converted (damaged, not what its name says) goes as the file
      // it is, served by what its bytes are: a RAW photo or a Photoshop document as a download
      return asItIs;
    }
    return this.work.webpBytes(place, `${row.name}.webp`, key);
  }

  // ---- facts ----------------------------------------------------------------------------------

  /** `GET /view/image/info?id`: an image's size and EXIF, read now when not yet recorded. */
  async info(access: ImageAccess): Promise<ImageFacts | null> {
    return this.facts.ofFile(await this.finder.find(access));
  }

  // ---- following the files ------------------------------------------------------------------

  /**
   * Files deleted for good take their thumbnails and viewing copies with them (read in the
   * purge's transaction; the cache files go in the background: a failure leaves only cache).
   */
  private async forget(change: { userId: string; trashIds: string[] }, trx: Db): Promise<void> {
    const rows = await this.fileSelection.trashedFilesOf(
      change.userId,
      change.trashIds,
      ['image', 'video', 'audio', 'document'],
      trx,
    );
    if (rows.length === 0) return;
    const places = rows.flatMap((row) => [
      this.blobs.cached('thumbnail', imageKeys.thumbnail(row)),
      this.blobs.cached('image', imageKeys.viewable(row)),
    ]);
    dropCached(this.blobs, places);
  }

  /** New and rewritten images get their facts read in the background, after the commit. */
  private follow(change: FileChange): Promise<void> {
    if (change.kind !== 'created' && change.kind !== 'updated') return Promise.resolve();
    const ids = change.rows
      .filter((r) => !r.isFolder && r.fileType === 'image' && isReadableImage(r.suffix ?? ''))
      .map((r) => r.id);
    if (ids.length === 0) return Promise.resolve();
    const userId = change.userId;
    const task = (async () => {
      // the change commits after its listeners: wait for it before reading the rows
      await new Promise((resolve) => setTimeout(resolve, 50));
      const owner = await this.users.accountById(userId);
      if (!owner) return;
      const isCreated = change.kind === 'created';
      for (const id of ids) {
        let row = await this.fileRows.live(userId, id);
        if (row && isCreated && (await this.webp.isDue(row.suffix))) {
          await this.webp.store(owner, row);
          row = await this.fileRows.live(userId, id);
        }
        if (!row || this.facts.recorded(row) !== undefined) continue;
        await this.facts.read({ owner, row, place: this.files.placeOf(owner, row) });
      }
    })()
      .catch(() => {
        // facts are read again when the file is next viewed
      })
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
    return Promise.resolve();
  }

  /** Wait for the background reading of facts (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
