import type { BlobStore, CacheKind, Place } from '../../storage/blob-store.ts';
import type { FileRow } from '../files/files.repo.ts';

/** What the cache sweep reads of a file to judge the entries made of it. */
export type CachedFileRow = Pick<
  FileRow,
  'id' | 'isFolder' | 'hash' | 'size' | 'updateDate' | 'suffix' | 'fileType' | 'media'
>;

/**
 * How one module names its entries of one cache kind, so that the sweep tells an entry of a
 * file's current content from one of content that is gone. Each module builds its keys with
 * the same functions it judges them with: the sweep never guesses a key's shape.
 */
export interface CacheKeeper {
  readonly kind: CacheKind;
  /**
   * The id of the file an entry was made of; null for an entry of this module tied to no file
   * (left to the size bound); undefined when the key is not one of this module's.
   */
  fileOf(key: string): string | null | undefined;
  /** Whether `key` is what this module makes of the file's current content. */
  isCurrent(key: string, row: CachedFileRow): boolean;
}

const LEADING_FILE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=-)/i;

/** The file id a cache key begins with (file ids are UUIDs, followed by `-`), or undefined. */
export function fileIdAtStart(key: string): string | undefined {
  return LEADING_FILE_ID.exec(key)?.[0];
}

/** An entry's modification time is moved on at most this often (a write per view is waste). */
const MARK_EVERY_MS = 10 * 60_000;

/**
 * A cache entry was just served: its modification time becomes now, so the size bound removes
 * the least recently used entries first. Never fails and is never waited for: the entry may be
 * gone meanwhile, and a missed mark only makes the entry look older.
 */
export function markUsed(blobs: BlobStore, at: Place, mtimeMs?: number): void {
  void (async () => {
    const now = Date.now();
    const last = mtimeMs ?? (await blobs.stat(at))?.mtimeMs;
    if (last === undefined || now - last < MARK_EVERY_MS) return;
    await blobs.setModified(at, now);
  })().catch(() => undefined);
}
