import { inPool } from '../lib/pool.ts';
import type { BlobStore, Place } from './blob-store.ts';

/**
 * Cache entries of files deleted for good, removed in the background a few at a time: a large
 * purge neither waits for them nor floods the disk's queue ahead of the purge's own removals.
 * Only cache: an entry that stays (an error) is rebuilt or swept later, so failures are dropped.
 */
export function dropCached(blobs: BlobStore, places: Place[]): void {
  if (places.length === 0) return;
  void inPool(places, (place) => blobs.remove(place), 4).catch(() => undefined);
}
