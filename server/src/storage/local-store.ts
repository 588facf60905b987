import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { newId } from '../lib/ids.ts';
import { inPool } from '../lib/pool.ts';
import type {
  BlobEntry,
  BlobStat,
  BlobStore,
  ByteRange,
  CacheKind,
  LocalFile,
  Place,
  PositionalWriter,
} from './blob-store.ts';

const READ_CHUNK = 1024 * 1024;
/** From this many places in one folder, `taken` reads the folder rather than each place. */
const READ_FOLDER_FROM = 32;

/**
 * The users' trees mirrored on disk (ARCHITECTURE §3): `/a/b/c.txt` of `alice` lives at
 * `<data>/files/alice/a/b/c.txt`, so people can read their data without Nimbus. The internal
 * areas (trash, uploads, scratch, caches) sit beside the trees, never inside one. A place is the
 * absolute path on disk.
 */
export class LocalStore implements BlobStore {
  private readonly filesDir: string;
  private readonly trashDir: string;
  private readonly tmpDir: string;
  private readonly uploadsDir: string;
  private readonly cacheDir: string;
  private readonly versionsDir: string;

  constructor(readonly dataDir: string) {
    this.filesDir = path.join(dataDir, 'files');
    this.trashDir = path.join(dataDir, 'trash');
    this.tmpDir = path.join(dataDir, 'tmp');
    this.uploadsDir = path.join(dataDir, 'uploads');
    this.cacheDir = path.join(dataDir, 'cache');
    this.versionsDir = path.join(dataDir, 'versions');
  }

  /** Make the areas; scratch left by a crash goes. */
  async init(): Promise<void> {
    await fsp.rm(this.tmpDir, { recursive: true, force: true });
    for (const dir of [
      this.filesDir,
      this.trashDir,
      this.tmpDir,
      this.uploadsDir,
      this.cacheDir,
      this.versionsDir,
    ])
      await fsp.mkdir(dir, { recursive: true });
  }

  async probe(): Promise<void> {
    for (const dir of [this.filesDir, this.tmpDir]) {
      const stat = await fsp.stat(dir);
      if (!stat.isDirectory()) throw new Error(`${path.basename(dir)} is not a folder`);
    }
    const probe = path.join(this.tmpDir, `.probe-${newId()}`);
    await fsp.writeFile(probe, '');
    await fsp.rm(probe, { force: true });
  }

  // ---- places ----------------------------------------------------------------------------
  item(owner: string, parentPath: string, name: string): Place {
    return inside(this.folder(owner, parentPath), segment(name));
  }

  folder(owner: string, folderPath: string): Place {
    const names = folderPath.split('/').filter((n) => n !== '');
    return inside(this.userRoot(owner), names.map(segment).join(path.sep));
  }

  trashRoot(owner: string): Place {
    return inside(this.trashDir, segment(owner));
  }

  trashed(owner: string, trashId: string): Place {
    return inside(this.trashRoot(owner), segment(trashId));
  }

  upload(sessionId: string): Place {
    return inside(this.uploadsDir, segment(sessionId));
  }

  uploadsRoot(): Place {
    return this.uploadsDir as Place;
  }

  staging(): Place {
    return path.join(this.tmpDir, newId()) as Place;
  }

  versionsRoot(ownerId: string): Place {
    return inside(this.versionsDir, segment(ownerId));
  }

  versionsOf(ownerId: string, fileId: string): Place {
    return inside(this.versionsRoot(ownerId), segment(fileId));
  }

  version(ownerId: string, fileId: string, versionId: string): Place {
    return inside(this.versionsOf(ownerId, fileId), segment(versionId));
  }

  cached(kind: CacheKind, key: string): Place {
    return inside(this.cacheRoot(kind), segment(key));
  }

  cacheRoot(kind: CacheKind): Place {
    return inside(this.cacheDir, kind);
  }

  child(folder: Place, name: string): Place {
    return inside(folder, segment(name));
  }

  lostAndFound(): Place {
    return inside(this.dataDir, 'lost+found');
  }

  private userRoot(owner: string): Place {
    return inside(this.filesDir, segment(owner));
  }

  // ---- reading ---------------------------------------------------------------------------
  async stat(at: Place): Promise<BlobStat | null> {
    try {
      const stat = await fsp.stat(at);
      return { size: stat.size, mtimeMs: stat.mtimeMs, isFolder: stat.isDirectory() };
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async exists(at: Place): Promise<boolean> {
    try {
      await fsp.lstat(at);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * A folder that receives many of the places is read once (one readdir, not a stat per
   * place); the few others are asked one by one.
   */
  async taken(places: Place[]): Promise<boolean[]> {
    const byFolder = new Map<string, Place[]>();
    for (const at of places) {
      const folder = path.dirname(at);
      const members = byFolder.get(folder);
      if (members) members.push(at);
      else byFolder.set(folder, [at]);
    }
    const found = new Set<string>();
    await inPool([...byFolder], async ([folder, members]) => {
      if (members.length < READ_FOLDER_FROM) {
        for (const at of members) if (await this.exists(at)) found.add(at);
        return;
      }
      let names: string[];
      try {
        names = await fsp.readdir(folder);
      } catch (err) {
        if (missing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return;
        throw err;
      }
      const present = new Set(names);
      for (const at of members) if (present.has(path.basename(at))) found.add(at);
    });
    return places.map((at) => found.has(at));
  }

  async list(at: Place): Promise<BlobEntry[]> {
    let entries: fs.Dirent[];
    try {
      entries = await fsp.readdir(at, { withFileTypes: true });
    } catch (err) {
      if (missing(err) || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
      throw err;
    }
    // links and devices are not items of a tree
    return entries
      .filter((e) => e.isFile() || e.isDirectory())
      .map((e) => ({ name: e.name, isFolder: e.isDirectory() }));
  }

  read(at: Place, range?: ByteRange): Readable {
    return fs.createReadStream(at, {
      start: range?.start,
      end: range?.end,
      highWaterMark: READ_CHUNK,
    });
  }

  async readHead(at: Place, bytes: number): Promise<Buffer> {
    const handle = await fsp.open(at, 'r');
    try {
      const buffer = Buffer.alloc(bytes);
      const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async local(at: Place): Promise<LocalFile> {
    return { path: at, release: async () => {} };
  }

  // ---- writing ---------------------------------------------------------------------------
  async write(at: Place, content: Buffer | Readable, options?: { mtimeMs?: number }) {
    const tmp = this.staging();
    try {
      if (Buffer.isBuffer(content)) await fsp.writeFile(tmp, content);
      else await pipeline(content, fs.createWriteStream(tmp));
      await this.sync(tmp);
      if (options?.mtimeMs !== undefined)
        await fsp.utimes(tmp, new Date(), new Date(options.mtimeMs));
      await this.move(tmp, at);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }

  async makeFolder(at: Place): Promise<void> {
    await fsp.mkdir(at, { recursive: true });
  }

  /**
   * A rename, creating the target's parents: atomic within the data folder's disk. The parents
   * are made only when the rename finds them missing (most moves go into a folder that is there).
   */
  async move(from: Place, to: Place): Promise<void> {
    try {
      await fsp.rename(from, to);
    } catch (err) {
      if (!missing(err)) throw err;
      await fsp.mkdir(path.dirname(to), { recursive: true });
      await fsp.rename(from, to);
    }
  }

  /**
   * Reflinks where the filesystem has them, keeping the modification times. A file is one
   * copy call (the target's parents made only when missing); a folder is copied whole.
   */
  async copy(from: Place, to: Place): Promise<void> {
    const source = await fsp.stat(from);
    if (source.isDirectory()) {
      await fsp.mkdir(path.dirname(to), { recursive: true });
      await fsp.cp(from, to, {
        recursive: true,
        errorOnExist: true,
        force: false,
        preserveTimestamps: true,
        mode: fs.constants.COPYFILE_FICLONE,
      });
      return;
    }
    const mode = fs.constants.COPYFILE_FICLONE | fs.constants.COPYFILE_EXCL;
    try {
      await fsp.copyFile(from, to, mode);
    } catch (err) {
      if (!missing(err)) throw err;
      await fsp.mkdir(path.dirname(to), { recursive: true });
      await fsp.copyFile(from, to, mode);
    }
    await fsp.utimes(to, source.atime, source.mtime);
  }

  /** A file goes with one unlink; a folder with everything in it. */
  async remove(at: Place): Promise<void> {
    try {
      await fsp.unlink(at);
    } catch (err) {
      if (missing(err)) return;
      const code = (err as NodeJS.ErrnoException).code;
      // a folder: unlink(2) answers EISDIR on Linux, EPERM elsewhere
      if (code !== 'EISDIR' && code !== 'EPERM') throw err;
      await fsp.rm(at, { recursive: true, force: true });
    }
  }

  async setModified(at: Place, mtimeMs: number): Promise<void> {
    const when = new Date(mtimeMs);
    await fsp.utimes(at, when, when);
  }

  async allocate(at: Place, size: number): Promise<void> {
    const handle = await fsp.open(at, 'w');
    try {
      await handle.truncate(size);
    } finally {
      await handle.close();
    }
  }

  async writer(at: Place): Promise<PositionalWriter> {
    const handle = await fsp.open(at, 'r+');
    return {
      writev: async (buffers, position) => (await handle.writev(buffers, position)).bytesWritten,
      write: async (buffer, offset, length, position) =>
        (await handle.write(buffer, offset, length, position)).bytesWritten,
      sync: () => handle.datasync(),
      close: () => handle.close(),
    };
  }

  async sync(at: Place): Promise<void> {
    const handle = await fsp.open(at, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async scratch(): Promise<LocalFile & { place: Place }> {
    const place = this.staging();
    await fsp.mkdir(place, { recursive: true });
    return { path: place, place, release: () => this.remove(place) };
  }
}

/** `relative` under `root`, never outside it (a name of `..` cannot climb out). */
function inside(root: string, relative: string): Place {
  const full = path.resolve(root, `.${path.sep}${relative}`);
  if (full !== root && !full.startsWith(root + path.sep)) throw new Error('path escapes its root');
  return full as Place;
}

/** One name of a path: never empty, `.`, `..`, nor holding a separator or a NUL. */
function segment(name: string): string {
  if (name === '' || name === '.' || name === '..' || /[/\\\0]/.test(name))
    throw new Error(`path escapes its root: "${name}" is not a name`);
  return name;
}

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}
