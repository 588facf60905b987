import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Place } from './blob-store.ts';
import { LocalStore } from './local-store.ts';

let dataDir: string;
let store: LocalStore;

beforeEach(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-store-'));
  store = new LocalStore(dataDir);
  await store.init();
});

afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function text(place: Place, range?: { start: number; end: number }): Promise<string> {
  const parts: Buffer[] = [];
  for await (const piece of store.read(place, range)) parts.push(piece as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

describe('the local store', () => {
  it('mirrors the tree: an item of alice at /a/b.txt is a file under her folder', async () => {
    await store.write(store.item('alice', '/a/', 'b.txt'), Buffer.from('hello'));
    expect(fs.readFileSync(path.join(dataDir, 'files', 'alice', 'a', 'b.txt'), 'utf8')).toBe(
      'hello',
    );
    expect(await store.list(store.folder('alice', '/a/'))).toEqual([
      { name: 'b.txt', isFolder: false },
    ]);
    expect(await text(store.item('alice', '/a/', 'b.txt'), { start: 1, end: 3 })).toBe('ell');
    expect((await store.readHead(store.item('alice', '/a/', 'b.txt'), 2)).toString()).toBe('he');
  });

  it('never makes a place outside its area, whatever the names', () => {
    expect(() => store.item('alice', '/', '../bob/x')).toThrow(/escapes/);
    expect(() => store.item('alice', '/../../', 'etc')).toThrow(/escapes/);
    expect(() => store.folder('..', '/')).toThrow(/escapes/);
    expect(() => store.trashed('alice', '../../files/bob')).toThrow(/escapes/);
    expect(() => store.cached('thumbnail', '../../files/alice/a')).toThrow(/escapes/);
    expect(() => store.child(store.folder('alice', '/a/'), '../../b')).toThrow(/escapes/);
  });

  it('keeps the caches, uploads and trash apart from the users’ trees', () => {
    const tree = path.join(dataDir, 'files');
    for (const place of [
      store.cached('thumbnail', 'id-hash.webp'),
      store.upload('session'),
      store.trashed('alice', 'id'),
      store.staging(),
    ])
      expect(place.startsWith(tree + path.sep)).toBe(false);
  });

  it('writes crash-safely: a stream that breaks leaves nothing at the target', async () => {
    const target = store.item('alice', '/', 'broken.bin');
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('cut off'));
      },
    });
    await expect(store.write(target, failing)).rejects.toThrow(/cut off/);
    expect(await store.exists(target)).toBe(false);
    // and no scratch is left behind either
    expect(fs.readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
  });

  it('moves and copies folders with their contents, and removes them', async () => {
    await store.write(store.item('alice', '/a/', 'one.txt'), Buffer.from('1'));
    await store.move(store.folder('alice', '/a/'), store.item('alice', '/x/y/', 'a'));
    expect(await text(store.item('alice', '/x/y/a/', 'one.txt'))).toBe('1');
    await store.copy(store.item('alice', '/x/y/', 'a'), store.item('alice', '/', 'copy'));
    expect(await text(store.item('alice', '/copy/', 'one.txt'))).toBe('1');
    await expect(
      store.copy(store.item('alice', '/x/y/', 'a'), store.item('alice', '/', 'copy')),
    ).rejects.toThrow();
    await store.remove(store.item('alice', '/', 'copy'));
    expect(await store.stat(store.item('alice', '/', 'copy'))).toBeNull();
  });

  it('fills an allocated blob at any offset', async () => {
    const place = store.upload('s1');
    await store.allocate(place, 6);
    const writer = await store.writer(place);
    await writer.writev([Buffer.from('def')], 3);
    await writer.write(Buffer.from('abc'), 0, 3, 0);
    await writer.close();
    expect(await text(place)).toBe('abcdef');
    expect((await store.stat(place))?.size).toBe(6);
  });

  it('gives programs a scratch folder that moves into a cache and goes when released', async () => {
    const scratch = await store.scratch();
    fs.writeFileSync(path.join(scratch.path, 'index.m3u8'), '#EXTM3U');
    const entry = store.cached('hls', 'id-hash');
    await store.move(scratch.place, entry);
    expect(await text(store.child(entry, 'index.m3u8'))).toBe('#EXTM3U');
    await scratch.release();
    const other = await store.scratch();
    await other.release();
    expect(fs.existsSync(other.path)).toBe(false);
  });

  it('lists files and folders only: links on disk are not items', async () => {
    await store.makeFolder(store.folder('alice', '/d/'));
    fs.symlinkSync('/etc/passwd', path.join(dataDir, 'files', 'alice', 'link'));
    expect(await store.list(store.folder('alice', '/'))).toEqual([{ name: 'd', isFolder: true }]);
    expect(await store.list(store.folder('alice', '/missing/'))).toEqual([]);
  });

  it('tells which places are taken, reading a folder once for many and asking a few one by one', async () => {
    const many = Array.from({ length: 40 }, (_, i) => store.item('alice', '/big/', `f${i}`));
    for (const at of many.filter((_, i) => i % 3 === 0)) await store.write(at, Buffer.from('x'));
    // a link is something there too: a move must not land over it
    fs.symlinkSync('/etc/passwd', many[1]!);
    const few = [store.item('alice', '/small/', 'a'), store.item('alice', '/small/', 'b')];
    await store.write(few[1]!, Buffer.from('y'));
    const nowhere = store.item('alice', '/missing/', 'c');
    expect(await store.taken([...many, ...few, nowhere])).toEqual([
      ...many.map((_, i) => i % 3 === 0 || i === 1),
      false,
      true,
      false,
    ]);
    expect(await store.taken([])).toEqual([]);
  });

  it('moves into a folder that is not there yet, and tells a missing source', async () => {
    await store.write(store.item('alice', '/', 'one.txt'), Buffer.from('1'));
    await store.move(
      store.item('alice', '/', 'one.txt'),
      store.item('alice', '/new/deep/', 'one.txt'),
    );
    expect(await text(store.item('alice', '/new/deep/', 'one.txt'))).toBe('1');
    await expect(
      store.move(store.item('alice', '/', 'gone.txt'), store.item('alice', '/new/', 'gone.txt')),
    ).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('removes a file, a folder with its contents, and nothing without an error', async () => {
    await store.write(store.item('alice', '/d/e/', 'f.txt'), Buffer.from('1'));
    await store.write(store.item('alice', '/', 'g.txt'), Buffer.from('2'));
    await store.remove(store.item('alice', '/', 'g.txt'));
    await store.remove(store.folder('alice', '/d/'));
    await store.remove(store.item('alice', '/', 'never.txt'));
    expect(await store.list(store.folder('alice', '/'))).toEqual([]);
  });

  it('copies a file with its modification time, into a new folder, never over what is there', async () => {
    const from = store.item('alice', '/', 'a.txt');
    await store.write(from, Buffer.from('abc'), { mtimeMs: Date.UTC(2020, 0, 2) });
    const to = store.item('alice', '/new/', 'a.txt');
    await store.copy(from, to);
    expect(await text(to)).toBe('abc');
    expect((await store.stat(to))!.mtimeMs).toBe(Date.UTC(2020, 0, 2));
    await store.write(store.item('alice', '/', 'b.txt'), Buffer.from('other'));
    await expect(store.copy(store.item('alice', '/', 'b.txt'), to)).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(await text(to)).toBe('abc');
  });
});
