import type { Readable } from 'node:stream';

declare const placeBrand: unique symbol;

/**
 * Where some bytes live in a store: made by the store (never by hand), kept as text (the crash
 * journal records places), and meaningful only to the store that made it. For the local store it
 * is a path on disk; an object store would make keys of the file id.
 */
export type Place = string & { readonly [placeBrand]: true };

export interface BlobStat {
  size: number;
  mtimeMs: number;
  isFolder: boolean;
}

export interface BlobEntry {
  name: string;
  isFolder: boolean;
}

/** Bytes `start` to `end`, both included (HTTP's Range). */
export interface ByteRange {
  start: number;
  end: number;
}

/** A file on this server's own disk, for programs that read or write files (ffmpeg, soffice…). */
export interface LocalFile {
  path: string;
  /** Done with it: a copy made for the program goes; the store's own file stays. */
  release(): Promise<void>;
}

/** Writes at any offset of one blob, for chunks that arrive out of order. */
export interface PositionalWriter {
  writev(buffers: Buffer[], position: number): Promise<number>;
  write(buffer: Buffer, offset: number, length: number, position: number): Promise<number>;
  /**
   * The bytes written so far on the disk (fdatasync). Called while more bytes arrive, it lets
   * the disk write the upload as it comes in instead of all of it at the end.
   */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Derived bytes, safe to delete: each kind has its own area, apart from the users' trees, keyed
 * by file id and content hash so a changed file never meets a stale entry.
 */
export const CACHE_KINDS = ['thumbnail', 'image', 'office', 'hls', 'cover', 'text'] as const;
export type CacheKind = (typeof CACHE_KINDS)[number];

/**
 * The one way to the bytes of files (ARCHITECTURE §3). Every module reads and writes content
 * through it; none builds a disk path or calls `fs` on the users' data itself. Places name the
 * users' items (by owner and path), the trash, upload sessions, scratch space and the caches.
 */
export interface BlobStore {
  init(): Promise<void>;

  /**
   * Whether the store can serve now: resolves when its areas are there and it can write (a
   * small probe, written and removed), rejects naming what failed otherwise (readiness).
   */
  probe(): Promise<void>;

  // ---- places ----------------------------------------------------------------------------
  /** An item of `owner`'s tree: its parent folder's path (`/` or `/a/b/`) and its name. */
  item(owner: string, parentPath: string, name: string): Place;
  /** A folder of `owner`'s tree by its path (`/` for the root, `/a/b/`). */
  folder(owner: string, folderPath: string): Place;
  /** All of `owner`'s trashed items. */
  trashRoot(owner: string): Place;
  /** One trashed item, by the id of the item that was deleted. */
  trashed(owner: string, trashId: string): Place;
  /** The bytes of an upload under way. */
  upload(sessionId: string): Place;
  /** Where every upload under way keeps its bytes (list it to find abandoned ones). */
  uploadsRoot(): Place;
  /** A fresh place nothing else uses, for bytes being prepared before they move into a tree. */
  staging(): Place;
  /** The earlier contents kept of one file (history), by its owner's and the file's ids. */
  versionsOf(ownerId: string, fileId: string): Place;
  /** One earlier content of a file. */
  version(ownerId: string, fileId: string, versionId: string): Place;
  /** Every file's versions of one owner (list it to find versions of files gone). */
  versionsRoot(ownerId: string): Place;
  /** One entry of a cache: a file, or a folder of files (an HLS rendition). */
  cached(kind: CacheKind, key: string): Place;
  /** Every entry of one cache. */
  cacheRoot(kind: CacheKind): Place;
  /** A member of a folder place. */
  child(folder: Place, name: string): Place;
  /**
   * Where the consistency check moves bytes no row owns (`npm run check -- --repair`), apart
   * from the trees and never emptied by Nimbus: an operator looks and decides.
   */
  lostAndFound(): Place;

  // ---- reading ---------------------------------------------------------------------------
  stat(at: Place): Promise<BlobStat | null>;
  exists(at: Place): Promise<boolean>;
  /** Which of these places hold something, in their order: `exists` for a whole selection. */
  taken(places: Place[]): Promise<boolean[]>;
  /** The members of a folder; none when it is not there. */
  list(at: Place): Promise<BlobEntry[]>;
  read(at: Place, range?: ByteRange): Readable;
  /** Up to `bytes` bytes from the start. */
  readHead(at: Place, bytes: number): Promise<Buffer>;
  /** The bytes as a file on this server's disk, for a program to read. */
  local(at: Place): Promise<LocalFile>;

  // ---- writing ---------------------------------------------------------------------------
  /** Crash-safe: the bytes are complete and durable before they appear at `at`. */
  write(at: Place, content: Buffer | Readable, options?: { mtimeMs?: number }): Promise<void>;
  makeFolder(at: Place): Promise<void>;
  /** A file or a whole folder, atomic where the store can be. Creates the target's parents. */
  move(from: Place, to: Place): Promise<void>;
  /** A file or a whole folder; never over something that is there. */
  copy(from: Place, to: Place): Promise<void>;
  /** A file or a whole folder; nothing there is not an error. */
  remove(at: Place): Promise<void>;
  setModified(at: Place, mtimeMs: number): Promise<void>;
  /** A blob of `size` zero bytes, to be filled at any offset by `writer`. */
  allocate(at: Place, size: number): Promise<void>;
  writer(at: Place): Promise<PositionalWriter>;
  /** Flush what was written at a place to stable storage. */
  sync(at: Place): Promise<void>;
  /**
   * A folder on this server's disk for a program's output (an archive's contents, an HLS
   * rendition); `move(scratch.place, to)` takes it into the store.
   */
  scratch(): Promise<LocalFile & { place: Place }>;
}
