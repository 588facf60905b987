import { createDeflateRaw, crc32 } from 'node:zlib';
import { Readable } from 'node:stream';

/** One entry of a zip being written. Folder names end with `/`. */
export interface ZipEntry {
  name: string;
  isFolder: boolean;
  mtime: Date;
  /** The bytes of a file, opened when the writer reaches it. */
  open?: () => Readable | Promise<Readable>;
  /** Deflate this entry; already-compressed data is better stored. */
  compress?: boolean;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;

interface Written {
  name: Buffer;
  isFolder: boolean;
  method: number;
  flags: number;
  time: number;
  date: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

function dosDateTime(d: Date): { time: number; date: number } {
  const year = Math.max(1980, d.getFullYear());
  return {
    time: (d.getHours() << 11) | (d.getMinutes() << 5) | Math.floor(d.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((d.getMonth() + 1) << 5) | d.getDate(),
  };
}

function localHeader(e: Written): Buffer {
  const b = Buffer.alloc(30);
  b.writeUInt32LE(0x04034b50, 0);
  b.writeUInt16LE(e.isFolder ? 20 : 45, 4);
  b.writeUInt16LE(e.flags, 6);
  b.writeUInt16LE(e.method, 8);
  b.writeUInt16LE(e.time, 10);
  b.writeUInt16LE(e.date, 12);
  // crc and sizes follow in the data descriptor (zero here), folders have none
  b.writeUInt16LE(e.name.length, 26);
  b.writeUInt16LE(0, 28);
  return Buffer.concat([b, e.name]);
}

function dataDescriptor(e: Written): Buffer {
  const zip64 = e.size >= MAX32 || e.compressed >= MAX32;
  const b = Buffer.alloc(zip64 ? 24 : 16);
  b.writeUInt32LE(0x08074b50, 0);
  b.writeUInt32LE(e.crc >>> 0, 4);
  if (zip64) {
    b.writeBigUInt64LE(BigInt(e.compressed), 8);
    b.writeBigUInt64LE(BigInt(e.size), 16);
  } else {
    b.writeUInt32LE(e.compressed, 8);
    b.writeUInt32LE(e.size, 12);
  }
  return b;
}

function centralHeader(e: Written): Buffer {
  const needSize = e.size >= MAX32 || e.compressed >= MAX32;
  const needOffset = e.offset >= MAX32;
  const extraFields: Buffer[] = [];
  if (needSize) {
    const f = Buffer.alloc(16);
    f.writeBigUInt64LE(BigInt(e.size), 0);
    f.writeBigUInt64LE(BigInt(e.compressed), 8);
    extraFields.push(f);
  }
  if (needOffset) {
    const f = Buffer.alloc(8);
    f.writeBigUInt64LE(BigInt(e.offset), 0);
    extraFields.push(f);
  }
  let extra = Buffer.alloc(0);
  if (extraFields.length > 0) {
    const body = Buffer.concat(extraFields);
    const head = Buffer.alloc(4);
    head.writeUInt16LE(0x0001, 0);
    head.writeUInt16LE(body.length, 2);
    extra = Buffer.concat([head, body]);
  }
  const b = Buffer.alloc(46);
  b.writeUInt32LE(0x02014b50, 0);
  b.writeUInt16LE((3 << 8) | 45, 4); // made by: unix, 4.5
  b.writeUInt16LE(needSize || needOffset ? 45 : 20, 6);
  b.writeUInt16LE(e.flags, 8);
  b.writeUInt16LE(e.method, 10);
  b.writeUInt16LE(e.time, 12);
  b.writeUInt16LE(e.date, 14);
  b.writeUInt32LE(e.crc >>> 0, 16);
  b.writeUInt32LE(needSize ? MAX32 : e.compressed, 20);
  b.writeUInt32LE(needSize ? MAX32 : e.size, 24);
  b.writeUInt16LE(e.name.length, 28);
  b.writeUInt16LE(extra.length, 30);
  b.writeUInt16LE(0, 32); // comment
  b.writeUInt16LE(0, 34); // disk
  b.writeUInt16LE(0, 36); // internal attributes
  const mode = e.isFolder ? 0o40755 : 0o100644;
  b.writeUInt32LE(((mode << 16) | (e.isFolder ? 0x10 : 0)) >>> 0, 38);
  b.writeUInt32LE(needOffset ? MAX32 : e.offset, 42);
  return Buffer.concat([b, e.name, extra]);
}

function endRecords(count: number, cdOffset: number, cdSize: number): Buffer {
  const parts: Buffer[] = [];
  const zip64 = count >= MAX16 || cdOffset >= MAX32 || cdSize >= MAX32;
  if (zip64) {
    const rec = Buffer.alloc(56);
    rec.writeUInt32LE(0x06064b50, 0);
    rec.writeBigUInt64LE(44n, 4);
    rec.writeUInt16LE((3 << 8) | 45, 12);
    rec.writeUInt16LE(45, 14);
    rec.writeUInt32LE(0, 16);
    rec.writeUInt32LE(0, 20);
    rec.writeBigUInt64LE(BigInt(count), 24);
    rec.writeBigUInt64LE(BigInt(count), 32);
    rec.writeBigUInt64LE(BigInt(cdSize), 40);
    rec.writeBigUInt64LE(BigInt(cdOffset), 48);
    const loc = Buffer.alloc(20);
    loc.writeUInt32LE(0x07064b50, 0);
    loc.writeUInt32LE(0, 4);
    loc.writeBigUInt64LE(BigInt(cdOffset + cdSize), 8);
    loc.writeUInt32LE(1, 16);
    parts.push(rec, loc);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Math.min(count, MAX16), 8);
  end.writeUInt16LE(Math.min(count, MAX16), 10);
  end.writeUInt32LE(Math.min(cdSize, MAX32), 12);
  end.writeUInt32LE(Math.min(cdOffset, MAX32), 16);
  parts.push(end);
  return Buffer.concat(parts);
}

/**
 * A zip (with zip64 where sizes or counts need it) written as it is read: no temporary file,
 * the first bytes leave at once, and memory stays at one chunk per read.
 */
export async function* zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
): AsyncGenerator<Buffer> {
  const written: Written[] = [];
  let offset = 0;
  for await (const entry of entries) {
    const { time, date } = dosDateTime(entry.mtime);
    const name = Buffer.from(
      entry.isFolder && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name,
      'utf8',
    );
    const e: Written = {
      name,
      isFolder: entry.isFolder,
      method: entry.isFolder || !entry.compress ? 0 : 8,
      flags: FLAG_UTF8 | (entry.isFolder ? 0 : FLAG_DESCRIPTOR),
      time,
      date,
      crc: 0,
      compressed: 0,
      size: 0,
      offset,
    };
    const header = localHeader(e);
    yield header;
    offset += header.length;
    if (!entry.isFolder && entry.open) {
      const source = await entry.open();
      let crc = 0;
      let size = 0;
      let compressed = 0;
      if (e.method === 8) {
        const deflate = createDeflateRaw({ level: 6 });
        const feeding = (async () => {
          try {
            for await (const chunk of source) {
              const buf = chunk as Buffer;
              crc = crc32(buf, crc);
              size += buf.length;
              if (!deflate.write(buf)) await new Promise((r) => deflate.once('drain', r));
            }
            deflate.end();
          } catch (err) {
            deflate.destroy(err as Error);
          }
        })();
        for await (const out of deflate) {
          compressed += (out as Buffer).length;
          yield out as Buffer;
        }
        await feeding;
      } else {
        for await (const chunk of source) {
          const buf = chunk as Buffer;
          crc = crc32(buf, crc);
          size += buf.length;
          yield buf;
        }
        compressed = size;
      }
      e.crc = crc;
      e.size = size;
      e.compressed = compressed;
      offset += compressed;
      const descriptor = dataDescriptor(e);
      yield descriptor;
      offset += descriptor.length;
    }
    written.push(e);
  }
  const cdOffset = offset;
  let cdSize = 0;
  for (const e of written) {
    const h = centralHeader(e);
    cdSize += h.length;
    yield h;
  }
  yield endRecords(written.length, cdOffset, cdSize);
}

/** A small zip in memory (generated documents). */
export async function zipToBuffer(
  files: Array<{ name: string; content: Buffer | string }>,
): Promise<Buffer> {
  const mtime = new Date();
  const entries: ZipEntry[] = files.map((f) => ({
    name: f.name,
    isFolder: false,
    mtime,
    compress: true,
    open: () =>
      Readable.from([Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content, 'utf8')]),
  }));
  const parts: Buffer[] = [];
  for await (const part of zipStream(entries)) parts.push(part);
  return Buffer.concat(parts);
}
