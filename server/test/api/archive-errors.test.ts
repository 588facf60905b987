import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import tar from 'tar-stream';
import { zipToBuffer } from '../../src/lib/zip.ts';

type ZipInput = Parameters<typeof zipToBuffer>[0];
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';

// Every refused archive must be answered with a 4xx and leave the process running: a promise
// rejected with nobody listening would stop the whole server.
const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
beforeAll(() => {
  process.on('unhandledRejection', record);
});
afterAll(() => {
  process.off('unhandledRejection', record);
});

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();
beforeEach(async () => {
  unhandled.length = 0;
});

type TarEntry = {
  name: string;
  type?: 'file' | 'directory' | 'symlink';
  content?: Buffer | string;
};

async function tarOf(entries: TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  for (const e of entries) {
    if (e.type === 'directory') pack.entry({ name: e.name, type: 'directory' });
    else if (e.type === 'symlink')
      pack.entry({ name: e.name, type: 'symlink', linkname: '/etc/passwd' });
    else pack.entry({ name: e.name }, e.content ?? 'x');
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of pack) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** A zip whose entry `linkName` is marked as a symbolic link (Unix mode in the external attributes). */
async function zipWithSymlink(entries: ZipInput, linkName: string): Promise<Buffer> {
  const zip = await zipToBuffer(entries);
  const signature = Buffer.from([0x50, 0x4b, 0x01, 0x02]);
  let at = zip.indexOf(signature);
  while (at >= 0) {
    const nameLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    if (name === linkName) zip.writeUInt32LE((0o120777 << 16) >>> 0, at + 38);
    at = zip.indexOf(signature, at + 4);
  }
  return zip;
}

/** A zip whose deflated entry has its compressed bytes overwritten. */
async function damagedZip(): Promise<Buffer> {
  const text = Array.from({ length: 4000 }, (_, i) => `line ${i} of the text`).join('\n');
  const zip = await zipToBuffer([{ name: 'notes.txt', content: text }]);
  const dataStart = 30 + zip.readUInt16LE(26) + zip.readUInt16LE(28);
  zip.fill(0xff, dataStart + 10, dataStart + 400);
  return zip;
}

async function unzip(name: string, bytes: Buffer) {
  const id = await putFile(t, owner(), '/', name, bytes);
  const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: id } });
  // give a stray rejection the turns it needs to surface
  await new Promise((resolve) => setTimeout(resolve, 50));
  return res;
}

/** The server still answers, nothing of the archive was left behind, no rejection went unheard. */
async function expectServerWhole(label: string) {
  expect(unhandled, label).toEqual([]);
  const list = await call<Array<{ name: string; isFolder: boolean }>>(t.app, 'GET', '/list', {
    token: admin.token,
  });
  expect(list.body.code, label).toBe(0);
  expect(
    list.body.data!.filter((i) => i.isFolder),
    label,
  ).toEqual([]);
  expect(fs.readdirSync(path.join(t.dataDir, 'tmp')), label).toEqual([]);
}

const big = Buffer.alloc(8 * 1024 * 1024);

describe('refused archives', () => {
  it('leaves out symbolic links of a zip, as of a tar', async () => {
    const zip = await zipWithSymlink(
      [
        { name: 'fine.txt', content: 'fine' },
        { name: 'link', content: '/etc/passwd' },
      ],
      'link',
    );
    const res = await unzip('links.zip', zip);
    expect(res.status, res.body.message).toBe(200);
    const folder = path.join(t.dataDir, 'files', 'admin', 'links');
    expect(fs.readdirSync(folder)).toEqual(['fine.txt']);
    expect(unhandled).toEqual([]);
  });

  const tarCases: Array<[string, TarEntry[], RegExp]> = [
    ['a parent segment', [{ name: 'ok.txt' }, { name: '../x' }], /outside its folder/],
    ['an absolute name', [{ name: '/abs.txt' }], /outside its folder/],
    ['a duplicate file', [{ name: 'a.txt' }, { name: 'a.txt' }], /twice|more than once/],
    [
      'a file then a folder of that name',
      [{ name: 'a' }, { name: 'a/b.txt' }],
      /file and a folder|both/,
    ],
    [
      'a folder then a file of that name',
      [{ name: 'a/', type: 'directory' }, { name: 'a' }],
      /file and a folder|both/,
    ],
    ['a name Nimbus cannot hold', [{ name: 'bad\u0001name.txt' }], /cannot be used/],
    ['an expansion past the ratio', [{ name: 'zeros.bin', content: big }], /zip bomb|allowed size/],
  ];

  for (const [label, entries, message] of tarCases) {
    for (const kind of ['tar', 'tar.gz'] as const) {
      // a plain tar is never smaller than its content: only gzip can exceed the ratio
      if (kind === 'tar' && label.startsWith('an expansion')) continue;
      it(`answers a ${kind} with ${label} with 422 and keeps serving`, async () => {
        const raw = await tarOf(entries);
        const bytes = kind === 'tar' ? raw : gzipSync(raw);
        const res = await unzip(`case.${kind}`, bytes);
        expect(res.status, res.body.message).toBe(422);
        expect(res.body.code).toBe(14);
        expect(res.body.message).toMatch(message);
        await expectServerWhole(`${kind}: ${label}`);
      });
    }
  }

  it('answers a corrupt gzip and a cut-off tar with 422 and keeps serving', async () => {
    const good = gzipSync(await tarOf([{ name: 'a.txt', content: 'a'.repeat(10_000) }]));
    const corrupt = Buffer.concat([good.subarray(0, 20), Buffer.alloc(200, 0x55)]);
    const res = await unzip('corrupt.tar.gz', corrupt);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/cannot be read/);
    await expectServerWhole('corrupt gzip');

    const raw = await tarOf([{ name: 'a.txt', content: 'a'.repeat(10_000) }]);
    const cut = await unzip('cut.tar', raw.subarray(0, 700));
    expect(cut.status).toBe(422);
    await expectServerWhole('cut-off tar');
  });

  it('answers zips with duplicate names, a file and a folder of one name, links and garbage with 422', async () => {
    const cases: Array<[string, Buffer, RegExp]> = [
      [
        'duplicate names',
        await zipToBuffer([
          { name: 'a.txt', content: '1' },
          { name: 'a.txt', content: '2' },
        ]),
        /twice|more than once/,
      ],
      [
        'a file then a folder',
        await zipToBuffer([
          { name: 'a', content: '1' },
          { name: 'a/b.txt', content: '2' },
        ]),
        /file and a folder|both/,
      ],
      ['garbage', Buffer.from('PK\u0003\u0004 this is not a zip at all'), /cannot be read/],
      ['damaged compressed data', await damagedZip(), /cannot be read/],
    ];
    for (const [label, bytes, message] of cases) {
      const res = await unzip(`${label.replace(/ /g, '-')}.zip`, bytes);
      expect(res.status, `${label}: ${res.body.message}`).toBe(422);
      expect(res.body.code).toBe(14);
      expect(res.body.message, label).toMatch(message);
      await expectServerWhole(`zip: ${label}`);
    }
  });
});
