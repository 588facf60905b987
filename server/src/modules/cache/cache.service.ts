import {
  CACHE_KINDS,
  type BlobStore,
  type CacheKind,
  type Place,
} from '../../storage/blob-store.ts';
import type { CacheKeeper, CachedFileRow } from './cache-keeper.ts';

export interface CacheOptions {
  /** The cache holds at most about this many bytes after a sweep; 0: no bound. */
  maxBytes: number;
}

export interface CacheLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** What one sweep did. */
export interface SweepResult {
  /** Entries of content that no longer exists (a changed or deleted file), and their bytes. */
  stale: { entries: number; bytes: number };
  /** The least recently used entries removed to keep the cache within its bound. */
  evicted: { entries: number; bytes: number };
  /** What the cache holds after the sweep. */
  kept: { entries: number; bytes: number };
}

interface Entry {
  kind: CacheKind;
  key: string;
  place: Place;
  /** A folder (an HLS rendition) counts with everything in it. */
  bytes: number;
  mtimeMs: number;
  /** See `CacheKeeper.fileOf`. */
  fileId: string | null | undefined;
}

/**
 * An entry written this recently is never removed: it may be in the middle of being made (a
 * cover written before its facts are recorded, a rendition moved in before its key is) or
 * about to be served for the first time.
 */
const YOUNG_MS = 5 * 60_000;
/** A sweep over the bound removes entries until the cache holds this share of the bound. */
const LOW_WATER = 0.9;
/** File ids looked up at once. */
const BATCH = 500;

/**
 * The caches of derived files (thumbnails, covers, viewing copies, office PDFs, HLS renditions)
 * kept true and bounded: a sweep removes the entries of content that no longer exists (each
 * module says which keys are current through its `CacheKeeper`), then, over the size bound, the
 * least recently used entries. Entries are only ever removed whole; a request that loses the
 * race gets a "not found" and the next one makes the entry again.
 */
export class CacheService {
  private log: CacheLog | undefined;
  private running: Promise<SweepResult> | null = null;

  constructor(
    /** The rows of the files entries were made of (live or trashed, any owner). */
    private readonly existingRows: (ids: string[]) => Promise<CachedFileRow[]>,
    private readonly blobs: BlobStore,
    private readonly keepers: CacheKeeper[],
    private readonly options: CacheOptions,
  ) {}

  /** Where the sweep reports what it freed. */
  start(options: { log?: CacheLog } = {}): void {
    this.log = options.log;
  }

  /**
   * Remove stale entries, then the oldest over the bound. `now` is the sweep's clock (an entry
   * younger than a few minutes by it is left alone). One sweep at a time: a second call while
   * one runs gets that one's result.
   */
  sweep(options: { now?: number; signal?: AbortSignal } = {}): Promise<SweepResult> {
    if (!this.running)
      this.running = this.run(options.now ?? Date.now(), options.signal).finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async run(now: number, signal: AbortSignal | undefined): Promise<SweepResult> {
    const entries = await this.entries(signal);
    const rows = await this.rowsOf(entries);
    const result: SweepResult = {
      stale: { entries: 0, bytes: 0 },
      evicted: { entries: 0, bytes: 0 },
      kept: { entries: 0, bytes: 0 },
    };
    const kept: Entry[] = [];
    for (const entry of entries) {
      signal?.throwIfAborted();
      const young = now - entry.mtimeMs < YOUNG_MS;
      if (!young && this.isStale(entry, rows) && (await this.remove(entry))) {
        result.stale.entries += 1;
        result.stale.bytes += entry.bytes;
      } else kept.push(entry);
    }
    let total = kept.reduce((sum, e) => sum + e.bytes, 0);
    const { maxBytes } = this.options;
    if (maxBytes > 0 && total > maxBytes) {
      const target = Math.floor(maxBytes * LOW_WATER);
      const oldestFirst = kept
        .filter((e) => now - e.mtimeMs >= YOUNG_MS)
        .sort((a, b) => a.mtimeMs - b.mtimeMs);
      for (const entry of oldestFirst) {
        if (total <= target) break;
        signal?.throwIfAborted();
        if (!(await this.remove(entry))) continue;
        total -= entry.bytes;
        result.evicted.entries += 1;
        result.evicted.bytes += entry.bytes;
        kept.splice(kept.indexOf(entry), 1);
      }
    }
    result.kept = { entries: kept.length, bytes: total };
    this.log?.info(
      {
        staleEntries: result.stale.entries,
        staleBytes: result.stale.bytes,
        evictedEntries: result.evicted.entries,
        evictedBytes: result.evicted.bytes,
        keptEntries: result.kept.entries,
        keptBytes: result.kept.bytes,
        maxBytes,
      },
      `cache sweep freed ${result.stale.bytes + result.evicted.bytes} bytes`,
    );
    return result;
  }

  /** Every entry of every cache, with its size and age (one that vanishes meanwhile is skipped). */
  private async entries(signal: AbortSignal | undefined): Promise<Entry[]> {
    const entries: Entry[] = [];
    for (const kind of CACHE_KINDS) {
      const root = this.blobs.cacheRoot(kind);
      const keepers = this.keepers.filter((k) => k.kind === kind);
      for (const { name } of await this.blobs.list(root)) {
        signal?.throwIfAborted();
        const place = this.blobs.child(root, name);
        const stat = await this.blobs.stat(place).catch(() => null);
        if (!stat) continue;
        const bytes = stat.isFolder ? await this.folderBytes(place) : stat.size;
        let fileId: string | null | undefined;
        for (const keeper of keepers) {
          fileId = keeper.fileOf(name);
          if (fileId !== undefined) break;
        }
        entries.push({ kind, key: name, place, bytes, mtimeMs: stat.mtimeMs, fileId });
      }
    }
    return entries;
  }

  private async folderBytes(folder: Place): Promise<number> {
    let bytes = 0;
    for (const entry of await this.blobs.list(folder)) {
      const place = this.blobs.child(folder, entry.name);
      if (entry.isFolder) bytes += await this.folderBytes(place);
      else bytes += (await this.blobs.stat(place).catch(() => null))?.size ?? 0;
    }
    return bytes;
  }

  /** The rows of the files the entries were made of; a file missing here exists no more. */
  private async rowsOf(entries: Entry[]): Promise<Map<string, CachedFileRow>> {
    const ids = [
      ...new Set(entries.flatMap((e) => (typeof e.fileId === 'string' ? [e.fileId] : []))),
    ];
    const rows = new Map<string, CachedFileRow>();
    for (let i = 0; i < ids.length; i += BATCH)
      for (const row of await this.existingRows(ids.slice(i, i + BATCH))) rows.set(row.id, row);
    return rows;
  }

  /**
   * Made of a file that no longer exists, or of content the file no longer has. An entry no
   * module claims, or one tied to no file, is never stale: only the size bound removes it.
   */
  private isStale(entry: Entry, rows: Map<string, CachedFileRow>): boolean {
    if (typeof entry.fileId !== 'string') return false;
    const row = rows.get(entry.fileId);
    if (!row || Number(row.isFolder) === 1) return true;
    return !this.keepers.some(
      (k) =>
        k.kind === entry.kind &&
        k.fileOf(entry.key) === entry.fileId &&
        k.isCurrent(entry.key, row),
    );
  }

  private async remove(entry: Entry): Promise<boolean> {
    try {
      await this.blobs.remove(entry.place);
      return true;
    } catch (err) {
      // left for the next sweep (a folder another process holds, a disk error)
      this.log?.warn({ err, kind: entry.kind, key: entry.key }, 'cache entry not removed');
      return false;
    }
  }
}
