import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import tar from 'tar-stream';
import { ErrorCode, type ArchiveEntry, type ArchiveListing } from '@nimbus/contract';
import { AppError } from '../../lib/errors.ts';
import { formatDateTime } from '../../lib/time.ts';
import type { ArchiveKind } from '@nimbus/contract';

const unreadable = (reason: string) =>
  new AppError(ErrorCode.DECOMPRESS_FAILED, `The archive cannot be read: ${reason}`);

/** An entry as the archive names it; folders end with `/`. */
interface RawEntry {
  name: string;
  isFolder: boolean;
  size: number;
  mtime: Date | null;
}

/** The entries of an archive as a listing: clean paths, folders it only implies added, sorted. */
export function listingOf(kind: ArchiveKind, raw: RawEntry[], truncated: boolean): ArchiveListing {
  const byPath = new Map<string, ArchiveEntry>();
  const add = (segments: string[], entry: Omit<ArchiveEntry, 'path' | 'name'>) => {
    const path = segments.join('/');
    const known = byPath.get(path);
    // a file and a folder of one name: the folder wins, the archive is odd anyway
    if (known && (known.isFolder || !entry.isFolder)) return;
    byPath.set(path, { path, name: segments[segments.length - 1]!, ...entry });
  };
  for (const entry of raw) {
    const segments = entry.name
      .replace(/\\/g, '/')
      .split('/')
      .filter((s) => s !== '' && s !== '.');
    if (segments.length === 0) continue;
    for (let i = 1; i < segments.length; i++)
      add(segments.slice(0, i), { isFolder: true, size: 0, updateDate: '' });
    add(segments, {
      isFolder: entry.isFolder,
      size: entry.isFolder ? 0 : entry.size,
      updateDate: entry.mtime ? formatDateTime(entry.mtime.getTime()) : '',
    });
  }
  const entries = [...byPath.values()].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  return { kind, entries, truncated };
}

/** A zip's entries from its central directory: nothing is inflated. */
export function zipEntries(
  file: string,
  max: number,
): Promise<{ raw: RawEntry[]; truncated: boolean }> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, decodeStrings: true, strictFileNames: false, validateEntrySizes: false },
      (err, zip) => {
        if (err || !zip) return reject(unreadable(err?.message ?? 'unknown error'));
        const raw: RawEntry[] = [];
        const finish = (truncated: boolean) => {
          zip.close();
          resolve({ raw, truncated });
        };
        zip.on('error', (e: Error) => {
          zip.close();
          reject(unreadable(e.message));
        });
        zip.on('end', () => finish(false));
        zip.on('entry', (entry: yauzl.Entry) => {
          if (raw.length >= max) return finish(true);
          raw.push({
            name: entry.fileName,
            isFolder: entry.fileName.endsWith('/'),
            size: entry.uncompressedSize,
            mtime: entry.getLastModDate(),
          });
          zip.readEntry();
        });
        zip.readEntry();
      },
    );
  });
}

/** A tar's entries from its headers, skipping the bodies (a tar.gz is inflated as it is read). */
export async function tarEntries(
  bytes: Readable,
  gzip: boolean,
  max: number,
): Promise<{ raw: RawEntry[]; truncated: boolean }> {
  const extract = tar.extract();
  const source = gzip ? bytes.pipe(createGunzip()) : bytes;
  const raw: RawEntry[] = [];
  let truncated = false;
  const failed = new Promise<never>((_, reject) => {
    const fail = (e: Error) => reject(unreadable(e.message));
    bytes.once('error', fail);
    source.once('error', fail);
  });
  failed.catch(() => undefined);
  source.pipe(extract);
  try {
    const read = (async () => {
      for await (const entry of extract) {
        const { header } = entry;
        if (header.type === 'file' || header.type === 'directory')
          raw.push({
            name: header.name,
            isFolder: header.type === 'directory',
            size: header.size ?? 0,
            mtime: header.mtime ?? null,
          });
        entry.resume();
        if (raw.length >= max) {
          truncated = true;
          break;
        }
      }
    })();
    await Promise.race([read, failed]);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unreadable((err as Error).message);
  } finally {
    bytes.destroy();
    source.destroy();
  }
  return { raw, truncated };
}
