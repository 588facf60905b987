import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { programOrFail } from './tools.ts';

const run = promisify(execFile);

/**
 * A 7z made by 7-Zip from files written to a scratch folder: `entries` maps a relative path to
 * its text (a path ending in `/` is a folder); `links` maps names to symlink targets.
 */
export async function sevenZipOf(
  entries: Record<string, string>,
  links: Record<string, string> = {},
): Promise<Buffer> {
  const sevenZip = programOrFail('7zz');
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nimbus-7z-'));
  try {
    const src = path.join(dir, 'src');
    await fs.mkdir(src);
    for (const [name, text] of Object.entries(entries)) {
      const target = path.join(src, name);
      if (name.endsWith('/')) await fs.mkdir(target, { recursive: true });
      else {
        await fs.mkdir(path.dirname(target), { recursive: true });
        await fs.writeFile(target, text);
      }
    }
    for (const [name, target] of Object.entries(links))
      await fs.symlink(target, path.join(src, name));
    const archive = path.join(dir, 'out.7z');
    // -snl keeps symlinks as links; names are stored relative to src
    await run(sevenZip, ['a', '-bd', '-snl', archive, '.'], { cwd: src });
    return await fs.readFile(archive);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * A RAR (the 1.5–4 format) of stored files, written byte by byte: no RAR maker ships with
 * Debian, and this is the layout every reader accepts. Names use `\` as RAR writes them.
 */
export function rarOf(entries: Record<string, string>): Buffer {
  const withCrc = (body: Buffer) => {
    const crc = Buffer.alloc(2);
    crc.writeUInt16LE(zlib.crc32(body) & 0xffff);
    return Buffer.concat([crc, body]);
  };
  const parts: Buffer[] = [Buffer.from('Rar!\x1a\x07\x00', 'latin1')];
  const main = Buffer.alloc(11);
  main.writeUInt8(0x73, 0);
  main.writeUInt16LE(0, 1);
  main.writeUInt16LE(13, 3);
  parts.push(withCrc(main));
  // 2026-01-02 03:04:00 as a DOS date and time
  const dosTime = ((2026 - 1980) << 25) | (1 << 21) | (2 << 16) | (3 << 11) | (4 << 5);
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text, 'utf8');
    const nameBytes = Buffer.from(name.replace(/\//g, '\\'), 'utf8');
    const head = Buffer.alloc(30);
    head.writeUInt8(0x74, 0);
    head.writeUInt16LE(0x8000, 1);
    head.writeUInt16LE(32 + nameBytes.length, 3);
    head.writeUInt32LE(data.length, 5);
    head.writeUInt32LE(data.length, 9);
    head.writeUInt8(0, 13);
    head.writeUInt32LE(zlib.crc32(data) >>> 0, 14);
    head.writeUInt32LE(dosTime >>> 0, 18);
    head.writeUInt8(20, 22);
    head.writeUInt8(0x30, 23);
    head.writeUInt16LE(nameBytes.length, 24);
    head.writeUInt32LE(0x20, 26);
    parts.push(withCrc(Buffer.concat([head, nameBytes])), data);
  }
  const end = Buffer.alloc(5);
  end.writeUInt8(0x7b, 0);
  end.writeUInt16LE(0x4000, 1);
  end.writeUInt16LE(7, 3);
  parts.push(withCrc(end));
  return Buffer.concat(parts);
}
