import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalStore } from '../../storage/local-store.ts';
import { writeBody } from './body-writer.ts';

let dataDir: string;
let store: LocalStore;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-body-'));
  store = new LocalStore(dataDir);
  await store.init();
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** `bytes` as a body arriving in pieces of `piece` bytes, as a socket gives them. */
function* pieces(bytes: Buffer, piece: number) {
  for (let at = 0; at < bytes.length; at += piece) yield bytes.subarray(at, at + piece);
}

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

describe('writing a request body', () => {
  it('writes 20 MiB arriving in 64 KiB pieces at its offset, told of each piece, and synced', async () => {
    const bytes = randomBytes(20 * 1024 * 1024 + 123);
    const place = store.upload('s1');
    const offset = 4096;
    await store.allocate(place, offset + bytes.length);
    const writer = await store.writer(place);
    const hash = createHash('sha256');
    let told = 0;
    const read = await writeBody(Readable.from(pieces(bytes, 64 * 1024)), {
      writer,
      offset,
      onPiece: (piece) => {
        told += piece.length;
        hash.update(piece);
      },
      brokeOff: (err) => err,
    });
    await writer.close();
    expect(read).toBe(bytes.length);
    expect(told).toBe(bytes.length);
    expect(hash.digest('hex')).toBe(sha(bytes));
    const onDisk = fs.readFileSync(place);
    expect(onDisk.subarray(0, offset).every((b) => b === 0)).toBe(true);
    expect(sha(onDisk.subarray(offset))).toBe(sha(bytes));
  });

  it('only counts a body without a writer', async () => {
    const read = await writeBody(Readable.from(pieces(Buffer.alloc(300_000, 1), 65536)), {
      writer: null,
      offset: 0,
      brokeOff: (err) => err,
    });
    expect(read).toBe(300_000);
  });

  it('stops at the piece its check refuses, and says why', async () => {
    const place = store.upload('s2');
    await store.allocate(place, 0);
    const writer = await store.writer(place);
    let seen = 0;
    await expect(
      writeBody(Readable.from(pieces(Buffer.alloc(3 * 1024 * 1024, 2), 65536)), {
        writer,
        offset: 0,
        onPiece: (piece) => {
          seen += piece.length;
          if (seen > 1024 * 1024) throw new Error('too large');
        },
        brokeOff: (err) => err,
      }),
    ).rejects.toThrow('too large');
    await writer.close();
    expect(seen).toBe(1024 * 1024 + 65536);
  });

  it('turns a body that breaks off into the error the caller chose', async () => {
    async function* cut() {
      yield Buffer.alloc(1000);
      throw new Error('aborted');
    }
    await expect(
      writeBody(Readable.from(cut()), {
        writer: null,
        offset: 0,
        brokeOff: (err) => new Error(`broke off: ${err.message}`),
      }),
    ).rejects.toThrow('broke off: aborted');
  });

  it('fails when the disk does not take the sync, after the file is written', async () => {
    const place = store.upload('s3');
    await store.allocate(place, 0);
    const real = await store.writer(place);
    // the store's own writer, its sync answering what a failing disk answers
    const writer = {
      ...real,
      sync: () => Promise.reject(Object.assign(new Error('EIO'), { code: 'EIO' })),
    };
    await expect(
      writeBody(Readable.from(pieces(Buffer.alloc(10 * 1024 * 1024, 3), 65536)), {
        writer,
        offset: 0,
        brokeOff: (err) => err,
      }),
    ).rejects.toThrow('EIO');
    await real.close();
  });
});
