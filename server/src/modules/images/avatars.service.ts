import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { AVATAR_FOLDER, AVATAR_SIZE, MAX_AVATAR_BYTES } from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { AppError, badParameter } from '../../lib/errors.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { FilesService } from '../files/files.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { imageKeys } from './image-cache-keys.ts';
import type { ImageBytes, ImageWork } from './image-work.ts';
import { avatarOf, isReadableImage, rasterise } from './programs/image-tools.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/** A default avatar's colours, picked by the name so a person keeps theirs. */
const AVATAR_COLOURS = ['#409eff', '#67c23a', '#e6a23c', '#f56c6c', '#8e6bd8', '#2bb3a3'];

/** Avatars: a person's chosen picture drawn square, else their initial on a colour of their own. */
export class AvatarsService {
  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly users: UsersService,
    private readonly work: ImageWork,
  ) {}

  private get blobs(): BlobStore {
    return this.files.blobs;
  }

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
      found && account.avatar ? await this.fileRows.live(account.id, account.avatar) : undefined;
    if (chosen && chosen.fileType === 'image' && isReadableImage(chosen.suffix)) {
      const key = imageKeys.avatar(chosen);
      const place = this.blobs.cached('thumbnail', key);
      const from = this.files.placeOf(owner, chosen);
      // a picture that cannot be drawn (damaged, not what its name says) leaves the initial
      const drawn = await this.work
        .makeOnce(place, key, async (workDir, signal) => {
          const local = await this.blobs.local(from);
          try {
            const image = { path: local.path, suffix: chosen.suffix };
            await this.blobs.write(place, await avatarOf(image, AVATAR_SIZE, workDir, signal));
          } finally {
            await local.release();
          }
        })
        .then(
          () => true,
          () => false,
        );
      if (drawn) return this.work.webpBytes(place, `${account.username}.webp`, key);
    }
    const name = account.showName || account.username;
    const digest = createHash('sha256').update(`${account.id}\0${name}`).digest('hex');
    const key = imageKeys.initial(digest);
    const place = this.blobs.cached('thumbnail', key);
    await this.work.makeOnce(place, key, async () => {
      const colour = AVATAR_COLOURS[parseInt(digest.slice(0, 8), 16) % AVATAR_COLOURS.length]!;
      const initial = [...name.trim()][0]?.toUpperCase() ?? '?';
      await this.blobs.write(place, await rasterise(initialSvg(initial, colour)));
    });
    return this.work.webpBytes(place, `${account.username}.webp`, key);
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
