import { createHash } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  AVATAR_FOLDER,
  AVATAR_SIZE,
  ErrorCode,
  MAX_AVATAR_BYTES,
  THUMBNAIL_SIZE,
  imageFacts,
  type ImageFacts,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter } from '../../lib/errors.ts';
import { Gate } from '../../lib/gate.ts';
import type { BlobStat, BlobStore, Place } from '../../storage/blob-store.ts';
import { toView } from '../files/file-view.ts';
import type { FileChange, FileRow, FilesService, Owner } from '../files/files.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { ShareAccess, ShareCredentials, ShareTarget } from '../share/share-access.ts';
import { bytesGrant, previewOnlyOf } from '../files/bytes-grant.ts';
import type { ShareVisitorService } from '../share/share-visitor.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { markUsed } from '../cache/cache-keeper.ts';
import { imageKeys, versionOf } from './image-cache-keys.ts';
import { canDrawPdf, firstPageOf } from './programs/pdf-page.ts';
import {
  avatarOf,
  factsNeedDecoding,
  factsOf,
  isConvertedForViewing,
  isReadableImage,
  rasterise,
  storedWebp,
  thumbnailOf,
  viewableWebp,
  type ImageFile,
} from './programs/image-tools.ts';
import { scopeOf } from '../files/item-locks.ts';

/** Derived image bytes to send: where they are, and how they are named and typed. */
export interface ImageBytes {
  blobs: BlobStore;
  place: Place;
  stat?: BlobStat;
  made?: boolean;
  row: Pick<FileRow, 'name' | 'contentType' | 'hash' | 'size' | 'updateDate' | 'suffix'>;
  /** A file's own bytes in a share without downloads: only what a preview shows. */
  previewOnly?: () => Error;
}

/**
 * A picture that stands for a file that is no image (a video's frame, an album's cover, a
 * document's first page): another module makes it and says where it is, or null.
 */
export type CoverSource = (owner: Owner, row: FileRow) => Promise<Place | null>;

/** A file and whose tree it is in, once access has been checked. */
interface Found {
  owner: Owner;
  row: FileRow;
  place: Place;
  previewOnly?: () => Error;
}

const noThumbnail = () => new AppError(ErrorCode.FILE_NOT_FOUND, 'This file has no thumbnail');
const notAnImage = () => new AppError(ErrorCode.FILE_NOT_FOUND, 'This file is no image');

/** Photos the "WebP storage" setting turns into WebP as they arrive (not animations). */
const STORED_AS_WEBP = new Set(['jpg', 'jpeg', 'jfif', 'png', 'tif', 'tiff']);

/** The longer side of a document's first page drawn as its cover. */
const PAGE_SIDE = 768;

/** A default avatar's colours, picked by the name so a person keeps theirs. */
const AVATAR_COLOURS = ['#409eff', '#67c23a', '#e6a23c', '#f56c6c', '#8e6bd8', '#2bb3a3'];

/**
 * Images (API-NOTES §1.6): thumbnails of 256 px cached by file id and content hash, covers that
 * other modules provide for videos, music and documents, photos the browser cannot show
 * converted to WebP for viewing, avatars, and the size and EXIF of every image recorded as it
 * arrives. Access is the files' own: the owner, a mounter of a share holding the file, or a
 * visitor of such a share.
 */
export class ImagesService {
  private readonly gate: Gate;
  /** Derived images being made, by cache key: a second request waits for the first. */
  private readonly making = new Map<string, Promise<void>>();
  private readonly covers: Array<{ accepts: (row: FileRow) => boolean; source: CoverSource }> = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly files: FilesService,
    private readonly shareAccess: ShareAccess,
    private readonly visitors: ShareVisitorService,
    private readonly users: UsersService,
    private readonly settings: SettingsService,
    options: { parallel: number },
  ) {
    // spec: image work never takes more than the configured parallel tasks
    this.gate = new Gate(Math.max(1, options.parallel));
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

  // ---- access -------------------------------------------------------------------------------

  private async ownFile(actor: Actor, id: string): Promise<Found> {
    const { owner, row, open } = await this.shareAccess.fileForActor(actor, id);
    if (row.isFolder) throw noThumbnail();
    return {
      owner,
      row,
      place: this.files.placeOf(owner, row),
      previewOnly: previewOnlyOf(bytesGrant(actor, open)),
    };
  }

  private async sharedFile(creds: ShareCredentials, target: ShareTarget): Promise<Found> {
    // a thumbnail is a preview: a share without downloads still shows it
    const bytes = await this.visitors.bytes(creds, target, { download: false, fresh: false });
    const account = await this.users.accountById(bytes.row.userId);
    if (!account) throw noThumbnail();
    return {
      owner: { id: account.id, username: account.username },
      row: bytes.row,
      place: bytes.place,
      previewOnly: bytes.previewOnly,
    };
  }

  // ---- thumbnails and covers ------------------------------------------------------------------

  /** `GET /view/thumbnail?id`: the 256 px WebP of an image, or of the cover of another file. */
  async thumbnail(actor: Actor, id: string): Promise<ImageBytes> {
    return this.thumbnailOf(await this.ownFile(actor, id));
  }

  /** `GET /public/s/view/thumbnail`: the same for a visitor of a share holding the file. */
  async sharedThumbnail(creds: ShareCredentials, target: ShareTarget): Promise<ImageBytes> {
    return this.thumbnailOf(await this.sharedFile(creds, target));
  }

  /** `GET /view/cover?id`: the picture standing for a video, an album or a document. */
  async cover(actor: Actor, id: string): Promise<ImageBytes> {
    return this.coverOf(await this.ownFile(actor, id));
  }

  async sharedCover(creds: ShareCredentials, target: ShareTarget): Promise<ImageBytes> {
    return this.coverOf(await this.sharedFile(creds, target));
  }

  private async thumbnailOf(found: Found): Promise<ImageBytes> {
    const { row } = found;
    const key = imageKeys.thumbnail(row);
    const place = this.blobs.cached('thumbnail', key);
    // the cover (a video's frame, a document's first page) is sought only for a thumbnail still
    // to make: the cache may have let it go while the thumbnail stayed
    const made = await this.blobs.stat(place);
    if (made) return this.webpBytes(place, `${row.name}.webp`, key, made);
    let source: ImageFile & { place: Place };
    if (row.fileType === 'image' && isReadableImage(row.suffix)) {
      source = { place: found.place, path: '', suffix: row.suffix };
    } else {
      const cover = await this.coverPlace(found);
      if (!cover) throw noThumbnail();
      source = { place: cover, path: '', suffix: 'jpg' };
    }
    await this.makeOnce(place, key, async (workDir, signal) => {
      const local = await this.blobs.local(source.place);
      try {
        const image = { path: local.path, suffix: source.suffix };
        const webp = await thumbnailOf(image, THUMBNAIL_SIZE, workDir, signal);
        await this.blobs.write(place, webp);
        // reading the picture anyway: its facts are recorded when missing (at best: the
        // thumbnail stands whatever becomes of them)
        if (source.place === found.place)
          await this.recordFacts(row, image, workDir, signal).catch(() => undefined);
      } finally {
        await local.release();
      }
    });
    return this.webpBytes(place, `${row.name}.webp`, key);
  }

  private async coverOf(found: Found): Promise<ImageBytes> {
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

  private async coverPlace(found: Found): Promise<Place | null> {
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
      await this.makeOnce(place, key, async (workDir, signal) => {
        const local = await this.blobs.local(pdf);
        try {
          const name = await firstPageOf(local.path, PAGE_SIDE, workDir, signal);
          await this.blobs.move(this.blobs.child(this.scratchOf(workDir), name), place);
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
  async viewable(actor: Actor, id: string): Promise<ImageBytes> {
    return this.viewableOf(await this.ownFile(actor, id));
  }

  async sharedViewable(creds: ShareCredentials, target: ShareTarget): Promise<ImageBytes> {
    return this.viewableOf(await this.sharedFile(creds, target));
  }

  private async viewableOf(found: Found): Promise<ImageBytes> {
    const { row } = found;
    if (row.fileType !== 'image') throw notAnImage();
    const asItIs = { blobs: this.blobs, place: found.place, row, previewOnly: found.previewOnly };
    if (!isConvertedForViewing(row.suffix)) return asItIs;
    const key = imageKeys.viewable(row);
    const place = this.blobs.cached('image', key);
    const made = this.makeOnce(place, key, async (workDir, signal) => {
      const local = await this.blobs.local(found.place);
      try {
        const out = path.join(workDir, 'view.webp');
        const image = { path: local.path, suffix: row.suffix };
        await viewableWebp(image, out, workDir, signal);
        await this.recordFacts(row, image, workDir, signal).catch(() => undefined);
        await this.blobs.move(this.blobs.child(this.scratchOf(workDir), 'view.webp'), place);
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
    return this.webpBytes(place, `${row.name}.webp`, key);
  }

  // ---- facts ----------------------------------------------------------------------------------

  /** `GET /view/image/info?id`: an image's size and EXIF, read now when not yet recorded. */
  async info(actor: Actor, id: string): Promise<ImageFacts | null> {
    const found = await this.ownFile(actor, id);
    return this.factsOfFile(found);
  }

  async sharedInfo(creds: ShareCredentials, target: ShareTarget): Promise<ImageFacts | null> {
    return this.factsOfFile(await this.sharedFile(creds, target));
  }

  private async factsOfFile(found: Found): Promise<ImageFacts | null> {
    const { row } = found;
    if (row.fileType !== 'image' || !isReadableImage(row.suffix)) return null;
    const recorded = this.recorded(row);
    if (recorded !== undefined) return recorded;
    await this.readFacts(found);
    return this.recorded(await this.files.mustFind(found.owner.id, row.id)) ?? null;
  }

  /** The recorded facts of this version of the file; undefined when not yet read. */
  private recorded(row: FileRow): ImageFacts | null | undefined {
    if (!row.media) return undefined;
    try {
      const media = JSON.parse(row.media) as { image?: unknown; imageOf?: unknown };
      if (media.imageOf !== versionOf(row)) return undefined;
      if (media.image === null) return null;
      const parsed = imageFacts.safeParse(media.image);
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  private async readFacts(found: Found): Promise<void> {
    const { row } = found;
    // a header is read without decoding the picture: no image work to count
    if (!factsNeedDecoding(row.suffix)) {
      const local = await this.blobs.local(found.place);
      try {
        const image = { path: local.path, suffix: row.suffix };
        await this.recordFacts(row, image, '', AbortSignal.timeout(60_000));
      } finally {
        await local.release();
      }
      return;
    }
    await this.work(async (workDir, signal) => {
      const local = await this.blobs.local(found.place);
      try {
        await this.recordFacts(row, { path: local.path, suffix: row.suffix }, workDir, signal);
      } finally {
        await local.release();
      }
    });
  }

  private async recordFacts(
    row: FileRow,
    image: ImageFile,
    workDir: string,
    signal: AbortSignal,
  ): Promise<void> {
    if (this.recorded(row) !== undefined) return;
    const facts = await factsOf(image, workDir, signal);
    await this.files.setMediaKeys(row.userId, row.id, { image: facts, imageOf: versionOf(row) });
  }

  /** New and rewritten images get their facts read in the background, after the commit. */
  /**
   * Files deleted for good take their thumbnails and viewing copies with them (read in the
   * purge's transaction; the cache files go in the background: a failure leaves only cache).
   */
  private async forget(change: { userId: string; trashIds: string[] }, trx: Db): Promise<void> {
    const rows = await this.files.purgedFiles(change, ['image', 'video', 'audio', 'document'], trx);
    if (rows.length === 0) return;
    const places = rows.flatMap((row) => [
      this.blobs.cached('thumbnail', imageKeys.thumbnail(row)),
      this.blobs.cached('image', imageKeys.viewable(row)),
    ]);
    void Promise.all(places.map((place) => this.blobs.remove(place))).catch(() => undefined);
  }

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
      const asWebp = change.kind === 'created' && (await this.settings.get('webpStorage'));
      for (const id of ids) {
        let row = await this.files.liveRow(userId, id);
        if (row && asWebp && STORED_AS_WEBP.has(row.suffix.toLowerCase())) {
          await this.storeAsWebp(owner, row);
          row = await this.files.liveRow(userId, id);
        }
        if (!row || this.recorded(row) !== undefined) continue;
        await this.readFacts({ owner, row, place: this.files.placeOf(owner, row) });
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

  // ---- WebP storage ---------------------------------------------------------------------------

  /** `GET /cloud/setting/webp`: whether uploaded photos are stored as WebP. */
  async webpStorage(): Promise<{ enable: boolean }> {
    return { enable: await this.settings.get('webpStorage') };
  }

  /** `PUT /cloud/setting/webp`: an administrator's choice for the photos uploaded from now on. */
  async setWebpStorage(actor: Actor, enable: boolean): Promise<void> {
    requireAuthority(actor, 'cloud:set:update');
    await this.settings.set('webpStorage', enable);
  }

  /**
   * A new photo stored as WebP: `photo.jpg` becomes `photo.webp` (a free name beside it), its
   * pixels and orientation kept, when that is smaller. The new bytes move in journaled, so a
   * crash leaves either the photo as it came or the WebP, never half of one.
   */
  private async storeAsWebp(owner: Owner, row: FileRow): Promise<void> {
    await this.work(async (workDir, signal) => {
      signal.throwIfAborted();
      const scratch = this.scratchOf(workDir);
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
        const current = await this.files.liveRow(owner.id, row.id);
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

  // ---- avatars --------------------------------------------------------------------------------

  /**
   * `GET /view/thumbnail/user/{username}`: the person's avatar, a square of their chosen
   * picture (an image of their own drive), else their initial on a colour of their own.
   */
  async avatar(username: string): Promise<ImageBytes> {
    const found = await this.users.accountByUsername(username);
    // a name nobody has gets an initial like anyone's: the answer tells no one who has an account
    const account = found ?? {
      id: `nobody:${username}`,
      username,
      showName: '',
      avatar: null,
    };
    const owner = { id: account.id, username: account.username };
    const chosen =
      found && account.avatar ? await this.files.liveRow(account.id, account.avatar) : undefined;
    if (chosen && chosen.fileType === 'image' && isReadableImage(chosen.suffix)) {
      const key = imageKeys.avatar(chosen);
      const place = this.blobs.cached('thumbnail', key);
      const from = this.files.placeOf(owner, chosen);
      // a picture that cannot be drawn (damaged, not what its name says) leaves the initial
      const drawn = await this.makeOnce(place, key, async (workDir, signal) => {
        const local = await this.blobs.local(from);
        try {
          const image = { path: local.path, suffix: chosen.suffix };
          await this.blobs.write(place, await avatarOf(image, AVATAR_SIZE, workDir, signal));
        } finally {
          await local.release();
        }
      }).then(
        () => true,
        () => false,
      );
      if (drawn) return this.webpBytes(place, `${account.username}.webp`, key);
    }
    const name = account.showName || account.username;
    const digest = createHash('sha256').update(`${account.id}\0${name}`).digest('hex');
    const key = imageKeys.initial(digest);
    const place = this.blobs.cached('thumbnail', key);
    await this.makeOnce(place, key, async () => {
      const colour = AVATAR_COLOURS[parseInt(digest.slice(0, 8), 16) % AVATAR_COLOURS.length]!;
      const initial = [...name.trim()][0]?.toUpperCase() ?? '?';
      await this.blobs.write(place, await rasterise(initialSvg(initial, colour)));
    });
    return this.webpBytes(place, `${account.username}.webp`, key);
  }

  /** `PUT /user/avatar`: one of the actor's own pictures becomes their avatar (none: the initial). */
  async chooseAvatar(actor: Actor, fileId: string | undefined): Promise<string | null> {
    if (fileId) {
      const row = await this.files.mustFindLive(actor.id, fileId);
      if (row.isFolder || row.fileType !== 'image' || !isReadableImage(row.suffix))
        throw badParameter('fileId: choose a picture (JPEG, PNG, WebP, GIF, HEIC…)');
    }
    await this.users.setAvatar(actor.id, fileId ?? null);
    return fileId ?? null;
  }

  /**
   * `POST /user/avatar/upload`: a picture uploaded into the actor's Avatars folder (a free name,
   * counted in their space) becomes their avatar.
   */
  async uploadAvatar(actor: Actor, filename: string, content: Readable): Promise<string> {
    requireAuthority(actor, 'cloud:file:upload');
    const suffix = (/\.([^.]+)$/.exec(filename)?.[1] ?? '').toLowerCase();
    if (!isReadableImage(suffix))
      throw badParameter('file: choose a picture (JPEG, PNG, WebP, GIF, HEIC…)');
    const { staged, size, hash } = await this.files
      .stage(content, MAX_AVATAR_BYTES)
      .catch((err: unknown) => {
        if (err instanceof AppError) throw badParameter('file: a picture of 10 MB at most');
        throw err;
      });
    try {
      const folder = await this.files.withLock(actor.id, () =>
        this.files.ensureFolders(actor, [AVATAR_FOLDER]),
      );
      const row = await this.files.addStaged(actor, folder, `avatar.${suffix}`, staged, {
        size,
        hash,
      });
      await this.users.setAvatar(actor.id, row.id);
      return row.id;
    } finally {
      await this.blobs.remove(staged);
    }
  }

  // ---- making derived images --------------------------------------------------------------------

  private async webpBytes(
    place: Place,
    name: string,
    key: string,
    known?: BlobStat,
  ): Promise<ImageBytes> {
    const stat = known ?? (await this.blobs.stat(place));
    if (!stat) throw noThumbnail();
    markUsed(this.blobs, place, stat.mtimeMs);
    return {
      blobs: this.blobs,
      place,
      stat,
      // drawn by sharp as WebP here: shown as such without a look at its first bytes
      made: true,
      row: {
        name,
        contentType: 'image/webp',
        suffix: 'webp',
        hash: createHash('sha256').update(key).digest('hex'),
        size: stat.size,
        updateDate: stat.mtimeMs,
      },
    };
  }

  /**
   * Make a cache entry unless it is there: one maker per key (a grid asking twice waits for
   * the first), at most `parallel` at a time. A picture that cannot be read is no thumbnail.
   */
  private async makeOnce(
    place: Place,
    key: string,
    make: (workDir: string, signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    if (await this.blobs.exists(place)) return;
    let running = this.making.get(key);
    if (!running) {
      running = this.work(make).finally(() => this.making.delete(key));
      this.making.set(key, running);
    }
    try {
      await running;
    } catch {
      throw noThumbnail();
    }
  }

  /** Run image work in a scratch folder of its own, within the parallel limit. */
  private work(run: (workDir: string, signal: AbortSignal) => Promise<void>): Promise<void> {
    return this.gate.run('images', async () => {
      const scratch = await this.blobs.scratch();
      this.scratches.set(scratch.path, scratch.place);
      try {
        await run(scratch.path, AbortSignal.timeout(120_000));
      } finally {
        this.scratches.delete(scratch.path);
        await scratch.release();
      }
    });
  }

  private readonly scratches = new Map<string, Place>();

  private scratchOf(workDir: string): Place {
    const place = this.scratches.get(workDir);
    if (!place) throw new Error('Not a scratch folder of image work');
    return place;
  }
}

/** A round avatar with one letter, drawn by Nimbus itself (no text of the person is markup). */
function initialSvg(initial: string, colour: string): string {
  const letter = initial.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${AVATAR_SIZE}" height="${AVATAR_SIZE}">` +
    `<rect width="100%" height="100%" fill="${colour}"/>` +
    `<text x="50%" y="50%" dy="0.35em" text-anchor="middle" font-family="sans-serif" ` +
    `font-size="${AVATAR_SIZE * 0.5}" fill="#fff">${letter}</text></svg>`
  );
}
