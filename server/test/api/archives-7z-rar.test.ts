import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode, type ArchiveListing } from '@nimbus/contract';
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';
import { rarOf, sevenZipOf } from '../archive-fixtures.ts';
import { programOrFail } from '../tools.ts';

// 7z and RAR archives are listed and extracted through bsdtar's re-packing, with the same
// checks as a tar: names, links never followed or made, the size budget.

beforeAll(() => {
  programOrFail('bsdtar');
});
const { t, admin } = useAdminApp({ once: true });
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const listing = async (id: string) =>
  call<ArchiveListing>(t.app, 'GET', '/preview/archive', { token: admin.token, query: { id } });

const folder = async (name: string) => {
  const res = await call(t.app, 'POST', '/new_folder', {
    token: admin.token,
    query: { currentDirectory: '/', filename: name },
  });
  expect(res.body.code, res.body.message).toBe(0);
};

const names = async (dir: string) => {
  const res = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { currentDirectory: dir },
  });
  return res.body.data!.map((i) => i.name).sort();
};

describe('7z and rar archives', () => {
  it('lists a 7z and a rar without extracting them, with sizes and implied folders', async () => {
    const seven = await putFile(
      t,
      owner(),
      '/',
      'bundle.7z',
      await sevenZipOf({ 'docs/a.txt': 'aaa', 'docs/中文.txt': '你好', 'top.md': '#' }),
    );
    const rar = await putFile(
      t,
      owner(),
      '/',
      'bundle.rar',
      rarOf({ 'docs/a.txt': 'aaa', 'docs/中文.txt': '你好', 'top.md': '#' }),
    );
    for (const [id, kind] of [
      [seven, '7z'],
      [rar, 'rar'],
    ] as const) {
      const res = await listing(id);
      expect(res.body.code, `${kind}: ${res.body.message}`).toBe(0);
      expect(res.body.data!.kind).toBe(kind);
      expect(
        res.body.data!.entries.map((e) => [e.path, e.isFolder, e.size]),
        kind,
      ).toEqual([
        ['docs', true, 0],
        ['docs/a.txt', false, 3],
        ['docs/中文.txt', false, 6],
        ['top.md', false, 1],
      ]);
    }
    // nothing was extracted into the drive
    expect(await names('/')).toEqual(['bundle.7z', 'bundle.rar']);
  });

  it('extracts a 7z and a rar into folders named after them, links left out', async () => {
    await folder('x');
    const seven = await putFile(
      t,
      owner(),
      '/x/',
      'pack.7z',
      await sevenZipOf({ 'a/b.txt': 'bee', 'c.txt': 'sea' }, { 'passwd-link': '/etc/passwd' }),
    );
    const rar = await putFile(t, owner(), '/x/', 'pack.rar', rarOf({ 'r/s.txt': 'ess' }));
    for (const id of [seven, rar]) {
      const res = await call<{ name: string }>(t.app, 'GET', '/unzip', {
        token: admin.token,
        query: { fileId: id },
      });
      expect(res.body.code, res.body.message).toBe(0);
    }
    expect(await names('/x/')).toEqual(['pack', 'pack(1)', 'pack.7z', 'pack.rar']);
    expect(await names('/x/pack')).toEqual(['a', 'c.txt']);
    const tree = path.join(t.dataDir, 'files', ADMIN.username, 'x');
    expect(fs.readFileSync(path.join(tree, 'pack', 'a', 'b.txt'), 'utf8')).toBe('bee');
    expect(fs.existsSync(path.join(tree, 'pack', 'passwd-link'))).toBe(false);
    expect(fs.readFileSync(path.join(tree, 'pack(1)', 'r', 's.txt'), 'utf8')).toBe('ess');
  });

  it('refuses a damaged 7z or rar with its own error, and keeps nothing of it', async () => {
    await folder('bad');
    const good = await sevenZipOf({ 'a.txt': 'x'.repeat(5000) });
    const broken7z = Buffer.concat([good.subarray(0, 40), Buffer.alloc(60, 7)]);
    const brokenRar = Buffer.concat([
      Buffer.from('Rar!\x1a\x07\x00', 'latin1'),
      Buffer.alloc(64, 9),
    ]);
    for (const [name, bytes] of [
      ['broken.7z', broken7z],
      ['broken.rar', brokenRar],
    ] as const) {
      const id = await putFile(t, owner(), '/bad/', name, bytes);
      const listed = await listing(id);
      expect(listed.body.code, name).toBe(ErrorCode.DECOMPRESS_FAILED);
      const extracted = await call(t.app, 'GET', '/unzip', {
        token: admin.token,
        query: { fileId: id },
      });
      expect(extracted.body.code, name).toBe(ErrorCode.DECOMPRESS_FAILED);
    }
    expect(await names('/bad/')).toEqual(['broken.7z', 'broken.rar']);
  });
});
