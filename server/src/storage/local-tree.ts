import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { newId } from '../lib/ids.ts';

/**
 * The user's tree mirrored on disk (ARCHITECTURE §3): `/a/b/c.txt` of `alice` lives at
 * `<data>/files/alice/a/b/c.txt`. Internal areas (trash, temporary writes) sit beside the
 * users' trees, never inside one.
 */
export class LocalTree {
  readonly filesDir: string;
  readonly trashDir: string;
  readonly tmpDir: string;
  readonly uploadsDir: string;

  constructor(readonly dataDir: string) {
    this.filesDir = path.join(dataDir, 'files');
    this.trashDir = path.join(dataDir, 'trash');
    this.tmpDir = path.join(dataDir, 'tmp');
    this.uploadsDir = path.join(dataDir, 'uploads');
  }

  async init(): Promise<void> {
    for (const dir of [this.filesDir, this.trashDir, this.tmpDir, this.uploadsDir])
      await fsp.mkdir(dir, { recursive: true });
  }

  userRoot(username: string): string {
    return this.inside(this.filesDir, username);
  }

  /** Disk path of an item: parent path `/a/b/` and name; never outside the user's root. */
  pathOf(username: string, parentPath: string, name: string): string {
    const root = this.userRoot(username);
    return this.inside(root, path.join(parentPath, name));
  }

  folderPathOf(username: string, parentPath: string): string {
    return this.inside(this.userRoot(username), parentPath);
  }

  trashPathOf(username: string, trashId: string): string {
    return this.inside(path.join(this.trashDir, username), trashId);
  }

  uploadPath(sessionId: string): string {
    return this.inside(this.uploadsDir, sessionId);
  }

  tmpPath(): string {
    return path.join(this.tmpDir, newId());
  }

  private inside(root: string, relative: string): string {
    const full = path.resolve(root, `.${path.sep}${relative}`);
    if (full !== root && !full.startsWith(root + path.sep)) {
      throw new Error('path escapes its root');
    }
    return full;
  }

  /** Rename, creating the target's parent folders. Atomic within the data folder's disk. */
  async move(from: string, to: string): Promise<void> {
    await fsp.mkdir(path.dirname(to), { recursive: true });
    await fsp.rename(from, to);
  }

  /** Copy a file or a whole folder; reflinks where the filesystem has them. */
  async copy(from: string, to: string): Promise<void> {
    await fsp.mkdir(path.dirname(to), { recursive: true });
    await fsp.cp(from, to, {
      recursive: true,
      errorOnExist: true,
      force: false,
      preserveTimestamps: true,
      mode: fs.constants.COPYFILE_FICLONE,
    });
  }

  async remove(target: string): Promise<void> {
    await fsp.rm(target, { recursive: true, force: true });
  }

  async exists(target: string): Promise<boolean> {
    try {
      await fsp.lstat(target);
      return true;
    } catch {
      return false;
    }
  }

  async mkdir(target: string): Promise<void> {
    await fsp.mkdir(target, { recursive: true });
  }

  /** Write bytes crash-safely: a temporary file, fsync, then a rename into place. */
  async writeAtomic(target: string, content: Buffer | Readable, mtimeMs?: number): Promise<void> {
    const tmp = this.tmpPath();
    try {
      if (Buffer.isBuffer(content)) await fsp.writeFile(tmp, content);
      else await pipeline(content, fs.createWriteStream(tmp));
      const handle = await fsp.open(tmp, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      if (mtimeMs !== undefined) await fsp.utimes(tmp, new Date(), new Date(mtimeMs));
      await this.move(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
  }
}
