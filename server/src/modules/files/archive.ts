import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createGunzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import tar from 'tar-stream';
import { ErrorCode, type ArchiveKind } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { checkName, checkPathLength } from './names.ts';
import { repackAsTar } from './programs/repack.ts';

export interface ExtractLimits {
  /** Most bytes the archive may expand to. */
  maxBytes: number;
  /** Most entries. */
  maxEntries: number;
  /** Largest allowed ratio of expanded to archive size (zip bombs). */
  maxRatio: number;
}

export const DEFAULT_LIMITS: ExtractLimits = {
  maxBytes: 20 * 1024 ** 3,
  maxEntries: 100_000,
  maxRatio: 200,
};

const refuse = (message: string) => new AppError(ErrorCode.DECOMPRESS_FAILED, message);

/**
 * The safe relative segments of an entry name, or a refusal: absolute names, `..`, drive letters
 * and names Nimbus cannot hold all stop the whole extraction (zip-slip).
 */
export function entrySegments(raw: string): string[] {
  const name = raw.replace(/\\/g, '/');
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name))
    throw refuse(`The archive has an entry outside its folder: ${raw}`);
  const segments = name.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..'))
    throw refuse(`The archive has an entry outside its folder: ${raw}`);
  try {
    const checked = segments.map((s) => checkName(s));
    checkPathLength(checked, 'The entry path');
    return checked;
  } catch (err) {
    throw refuse(
      `The archive has an entry with a name that cannot be used: ${raw} (${(err as Error).message})`,
    );
  }
}

/** The archive's entries as a tar stream to read: the file itself, un-gzipped, or re-packed. */
export function tarSourceOf(file: string, kind: Exclude<ArchiveKind, 'zip'>): Readable {
  if (kind === 'tar') return fs.createReadStream(file);
  if (kind === 'tgz') {
    const raw = fs.createReadStream(file);
    const gunzip = createGunzip();
    raw.once('error', (err) => gunzip.destroy(err));
    gunzip.once('close', () => raw.destroy());
    return raw.pipe(gunzip);
  }
  return repackAsTar(file);
}

/** Counts bytes as they pass and stops at the budget, whatever the archive claimed. */
class Budget {
  used = 0;
  entries = 0;
  constructor(
    private readonly limits: ExtractLimits,
    private readonly archiveBytes: number,
  ) {}

  entry(): void {
    this.entries += 1;
    if (this.entries > this.limits.maxEntries)
      throw refuse(`The archive has more than ${this.limits.maxEntries} entries`);
  }

  meter(): Transform {
    return new Transform({
      transform: (chunk: Buffer, _enc, done) => {
        this.used += chunk.length;
        if (this.used > this.limits.maxBytes)
          return done(refuse('The archive expands beyond the allowed size'));
        if (
          this.used > 1024 * 1024 &&
          this.used / Math.max(1, this.archiveBytes) > this.limits.maxRatio
        ) {
          return done(refuse('The archive expands too much for its size (a possible zip bomb)'));
        }
        done(null, chunk);
      },
    });
  }
}

/**
 * What an archive has placed so far, by relative path: a name is placed once, and never as both
 * a file and a folder. Names are compared as Nimbus stores them (NFC), so `café` written in two
 * Unicode forms is one name.
 */
class Placements {
  private readonly kinds = new Map<string, 'file' | 'folder'>();

  /** Record an entry, or refuse it before anything of it is written. */
  place(raw: string, segments: string[], kind: 'file' | 'folder'): void {
    for (let i = 1; i < segments.length; i += 1) {
      const parent = segments.slice(0, i).join('/');
      if (this.kinds.get(parent) === 'file') throw bothKinds(raw);
      this.kinds.set(parent, 'folder');
    }
    const key = segments.join('/');
    const before = this.kinds.get(key);
    if (before === undefined) this.kinds.set(key, kind);
    else if (before !== kind) throw bothKinds(raw);
    else if (kind === 'file') throw refuse(`The archive holds the entry ${raw} more than once`);
  }
}

const bothKinds = (raw: string) => refuse(`The archive holds ${raw} both as a file and a folder`);

async function writeEntry(target: string, source: Readable, budget: Budget): Promise<void> {
  // An entry can fail while its folder is made (an archive cut off inside it); a pipeline over
  // a stream already destroyed would never settle, so that failure is caught here.
  let failure: Error | undefined;
  const onError = (err: Error) => (failure ??= err);
  source.on('error', onError);
  try {
    await fsp.mkdir(path.dirname(target), { recursive: true });
    if (failure || source.destroyed)
      throw failure ?? refuse('The archive cannot be read: it ends in the middle of an entry');
    await pipeline(source, budget.meter(), fs.createWriteStream(target, { flags: 'wx' }));
  } finally {
    source.off('error', onError);
  }
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: true, strictFileNames: false, validateEntrySizes: true },
      (err, zip) =>
        err || !zip
          ? reject(refuse(`The archive cannot be read: ${err?.message ?? 'unknown error'}`))
          : resolve(zip),
    ),
  );
}

// Unix file types kept in the upper half of a zip entry's external attributes
const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

/** A zip entry made on Unix that is neither a plain file nor a folder (a link, a device…). */
function isSpecialZipEntry(entry: yauzl.Entry): boolean {
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
  return madeOnUnix && type !== 0 && type !== S_IFREG && type !== S_IFDIR;
}

async function extractZip(
  file: string,
  dest: string,
  budget: Budget,
  limits: ExtractLimits,
): Promise<void> {
  const zip = await openZip(file);
  const placed = new Placements();
  try {
    // the central directory declares every size: refuse a bomb before writing anything
    if (zip.entryCount > limits.maxEntries)
      throw refuse(`The archive has more than ${limits.maxEntries} entries`);
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) =>
        reject(
          /absolute path|invalid relative path/.test(err.message)
            ? refuse(
                `The archive has an entry outside its folder: ${err.message.replace(/^.*?path: /, '')}`,
              )
            : refuse(`The archive cannot be read: ${err.message}`),
        ),
      );
      zip.on('end', () => resolve());
      const extractEntry = async (entry: yauzl.Entry): Promise<void> => {
        budget.entry();
        const segments = entrySegments(entry.fileName);
        // links and devices are never followed or created
        if (segments.length === 0 || isSpecialZipEntry(entry)) return;
        const target = path.join(dest, ...segments);
        if (entry.fileName.endsWith('/')) {
          placed.place(entry.fileName, segments, 'folder');
          await fsp.mkdir(target, { recursive: true });
          return;
        }
        placed.place(entry.fileName, segments, 'file');
        if (entry.uncompressedSize > limits.maxBytes)
          throw refuse('The archive expands beyond the allowed size');
        const stream = await new Promise<Readable>((res, rej) =>
          zip.openReadStream(entry, (err, s) =>
            err || !s ? rej(refuse(`The archive cannot be read: ${err?.message}`)) : res(s),
          ),
        );
        await writeEntry(target, stream, budget);
      };
      zip.on('entry', (entry: yauzl.Entry) => {
        extractEntry(entry).then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

async function extractTar(source: Readable, dest: string, budget: Budget): Promise<void> {
  const extract = tar.extract();
  const placed = new Placements();
  const consume = async () => {
    for await (const entry of extract) {
      const header = entry.header;
      budget.entry();
      const segments = entrySegments(header.name);
      if (segments.length === 0 || (header.type !== 'file' && header.type !== 'directory')) {
        // links and devices are never followed or created
        entry.resume();
        continue;
      }
      const target = path.join(dest, ...segments);
      if (header.type === 'directory') {
        placed.place(header.name, segments, 'folder');
        await fsp.mkdir(target, { recursive: true });
        entry.resume();
      } else {
        placed.place(header.name, segments, 'file');
        await writeEntry(target, entry as unknown as Readable, budget);
      }
    }
  };
  // Both sides settle before either error is reported: a refused entry ends the reading side
  // early ("premature close"), and the entry's own reason is the one worth telling.
  const [consumed, piped] = await Promise.allSettled([consume(), pipeline(source, extract)]);
  for (const outcome of [consumed, piped]) {
    if (outcome.status === 'rejected' && outcome.reason instanceof AppError) throw outcome.reason;
  }
  for (const outcome of [piped, consumed]) {
    if (outcome.status === 'rejected')
      throw refuse(`The archive cannot be read: ${(outcome.reason as Error).message}`);
  }
}

/** Extract an archive into an empty folder; on any refusal the caller discards that folder. */
export async function extractArchive(
  file: string,
  dest: string,
  kind: ArchiveKind,
  limits: ExtractLimits = DEFAULT_LIMITS,
): Promise<number> {
  const { size } = await fsp.stat(file);
  const budget = new Budget(limits, size);
  await fsp.mkdir(dest, { recursive: true });
  try {
    if (kind === 'zip') await extractZip(file, dest, budget, limits);
    else await extractTar(tarSourceOf(file, kind), dest, budget);
  } catch (err) {
    // damaged content (bad deflate data, sizes that disagree) is the archive's fault; a failing
    // disk (a system call's error) is not
    if (err instanceof AppError || typeof (err as NodeJS.ErrnoException).syscall === 'string')
      throw err;
    throw refuse(`The archive cannot be read: ${(err as Error).message}`);
  }
  return budget.used;
}
