import { AVATAR_SIZE, THUMBNAIL_SIZE } from '@nimbus/contract';
import { fileIdAtStart, type CacheKeeper } from '../cache/cache-keeper.ts';
import type { FileRow } from '../files/files.repo.ts';

type Versioned = Pick<FileRow, 'id' | 'hash' | 'size' | 'updateDate'>;

/** The content's version: its hash, or its size and date for a file not yet hashed. */
export const versionOf = (row: Pick<FileRow, 'hash' | 'size' | 'updateDate'>) =>
  row.hash ?? `${row.size.toString(16)}-${row.updateDate.toString(16)}`;

/** The names of this module's cache entries: each made of one file's current content. */
export const imageKeys = {
  /** `thumbnail`: the 256 px WebP of an image or of another file's cover. */
  thumbnail: (row: Versioned) => `${row.id}-${versionOf(row)}-${THUMBNAIL_SIZE}.webp`,
  /** `thumbnail`: a picture of the drive chosen as someone's avatar. */
  avatar: (row: Versioned) => `avatar-${row.id}-${versionOf(row)}-${AVATAR_SIZE}.webp`,
  /** `thumbnail`: an initial on a colour, for a person without a chosen picture (no file). */
  initial: (digest: string) => `avatar-initial-${digest.slice(0, 32)}.webp`,
  /** `image`: what the viewer shows of a picture the browser cannot show itself. */
  viewable: (row: Versioned) => `${row.id}-${versionOf(row)}.webp`,
  /** `cover`: a PDF's first page (a PDF's or an office document's tile). */
  firstPage: (row: Versioned) => `${row.id}-${versionOf(row)}-page1.png`,
};

const AVATAR = 'avatar-';
const INITIAL = 'avatar-initial-';

/** Which of the images module's cache entries are made of a file's current content. */
export const imageCacheKeepers: CacheKeeper[] = [
  {
    kind: 'thumbnail',
    fileOf: (key) =>
      key.startsWith(INITIAL)
        ? null
        : fileIdAtStart(key.startsWith(AVATAR) ? key.slice(AVATAR.length) : key),
    isCurrent: (key, row) => key === imageKeys.thumbnail(row) || key === imageKeys.avatar(row),
  },
  {
    kind: 'image',
    fileOf: (key) => fileIdAtStart(key),
    isCurrent: (key, row) => key === imageKeys.viewable(row),
  },
  {
    kind: 'cover',
    fileOf: (key) => (key.endsWith('-page1.png') ? fileIdAtStart(key) : undefined),
    isCurrent: (key, row) => key === imageKeys.firstPage(row),
  },
];
