import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { zipToBuffer } from '../../src/lib/zip.ts';
import { ADMIN, call, putFile, useAdminApp } from '../harness.ts';
import { uploadFile } from '../upload-client.ts';

// A name has one stored form, NFC, whatever form the client sent: `café` typed on one system
// and `cafe` + a combining accent sent by another are the same name in one folder.
const NFC = 'café.txt';
const NFD = NFC.normalize('NFD');

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp();

async function namesIn(directory = '/') {
  const res = await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
    token: admin.token,
    query: { currentDirectory: directory },
  });
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data!.map((i) => i.name);
}

const onDisk = (...segments: string[]) =>
  fs.readdirSync(path.join(t.dataDir, 'files', 'admin', ...segments));

describe('names are stored in NFC', () => {
  it('stores an uploaded NFD name as NFC, and a second upload in the other form meets it', async () => {
    expect(NFD).not.toBe(NFC);
    const first = await uploadFile(t.app, admin.token, {
      name: NFD,
      content: Buffer.from('first'),
    });
    expect(first.merged?.body.code, first.merged?.body.message).toBe(0);
    expect(await namesIn()).toEqual([NFC]);
    expect(onDisk()).toEqual([NFC]);

    await uploadFile(t.app, admin.token, { name: NFC, content: Buffer.from('second') });
    // the same name: the second upload is refused or takes another name, never a twin
    const names = await namesIn();
    expect(names.every((n) => n === n.normalize('NFC'))).toBe(true);
    expect(new Set(names).size).toBe(names.length);
    expect(onDisk().sort()).toEqual([...names].sort());
  });

  it('accepts an NFD name that is too long as sent but fits once normalised', async () => {
    // 100 × "é": 300 bytes in NFD, 200 in NFC
    const name = `${'é'.repeat(100)}.txt`;
    const sent = name.normalize('NFD');
    expect(Buffer.byteLength(sent)).toBeGreaterThan(255);
    const res = await uploadFile(t.app, admin.token, { name: sent, content: Buffer.from('x') });
    expect(res.merged?.status, res.merged?.body.message).toBe(200);
    expect(await namesIn()).toEqual([name]);
  });

  it('stores new folders, new files and renames in NFC and sees the NFC twin', async () => {
    const folder = await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'Résumé'.normalize('NFD'), currentDirectory: '/' },
    });
    expect(folder.body.code, folder.body.message).toBe(0);
    const twin = await call(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: 'Résumé', currentDirectory: '/' },
    });
    expect(twin.body.code).not.toBe(0);

    const id = await putFile(t, owner(), '/', 'plain.txt', 'x');
    const renamed = await call<{ name: string }>(t.app, 'GET', '/rename', {
      token: admin.token,
      query: { id, newFileName: NFD },
    });
    expect(renamed.body.code, renamed.body.message).toBe(0);
    expect(renamed.body.data!.name).toBe(NFC);
    expect((await namesIn()).sort()).toEqual(['Résumé', NFC].sort());
    expect(onDisk().sort()).toEqual(['Résumé', NFC].sort());
  });

  it('extracts NFD entry names of an archive as NFC', async () => {
    const zip = await zipToBuffer([{ name: `docs/${NFD}`, content: 'accent' }]);
    const id = await putFile(t, owner(), '/', 'accents.zip', zip);
    const res = await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: id } });
    expect(res.body.code, res.body.message).toBe(0);
    expect(await namesIn('/accents/docs')).toEqual([NFC]);
    expect(onDisk('accents', 'docs')).toEqual([NFC]);
  });
});
