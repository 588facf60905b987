import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileKindOf, fileTypeOf } from '@nimbus/contract';
import { up as fileKinds } from '../../src/db/migrations/024-file-kinds.ts';
import { ADMIN, call, makeTestApp, putFile, setupAdmin, type TestApp } from '../harness.ts';

// The server stores the type the contract's table gives a suffix: the web app draws its icons
// from the same table, so the two cannot disagree (issue 23).

let t: TestApp;
let admin: { token: string; userId: string };
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

beforeAll(async () => {
  t = await makeTestApp();
  admin = await setupAdmin(t.app);
});
afterAll(async () => {
  await t.close();
});

type Item = { name: string; type: string; suffix: string };
const view = async (queryFileType: string) =>
  (
    await call<Item[]>(t.app, 'GET', '/list', { token: admin.token, query: { queryFileType } })
  ).body.data!.map((i) => i.name);

const NAMES = ['film.rmvb', 'tune.mid', 'tune2.MIDI', 'moving.apng', 'photo.jfif', 'app.ts'];

describe('file types from the one table', () => {
  it('files the suffixes the two sides disagreed on under the view the web app shows', async () => {
    for (const name of NAMES) await putFile(t, owner(), '/', name, 'x');
    expect(await view('video')).toEqual(['film.rmvb']);
    expect((await view('audio')).sort()).toEqual(['tune.mid', 'tune2.MIDI']);
    expect((await view('image')).sort()).toEqual(['moving.apng', 'photo.jfif']);
    const listed = await call<Item[]>(t.app, 'GET', '/list', { token: admin.token });
    for (const item of listed.body.data!) {
      // the stored type is the one the web app's icon comes from
      expect(item.type, item.name).toBe(fileTypeOf(item.suffix, false));
    }
    const ts = listed.body.data!.find((i) => i.name === 'app.ts')!;
    expect([ts.type, fileKindOf(ts.suffix)]).toEqual(['text', 'code']);
  });

  it('gives files stored before the table their new type and content type', async () => {
    const db = t.database.db;
    await putFile(t, owner(), '/', 'deck.key', 'x');
    await putFile(t, owner(), '/', 'notes.txt', 'x');
    // a drive written before: the types the server's own list gave
    const was: Record<string, [string, string]> = {
      'film.rmvb': ['other', 'application/octet-stream'],
      'tune.mid': ['other', 'application/octet-stream'],
      'moving.apng': ['other', 'application/octet-stream'],
      'photo.jfif': ['other', 'application/octet-stream'],
      'app.ts': ['text', 'video/mp2t'],
      'deck.key': ['document', 'application/octet-stream'],
    };
    for (const [name, [fileType, contentType]] of Object.entries(was))
      await db
        .updateTable('file')
        .set({ fileType, contentType })
        .where('name', '=', name)
        .execute();

    await fileKinds(db as unknown as Kysely<unknown>);

    const rows = await db
      .selectFrom('file')
      .select(['name', 'fileType', 'contentType'])
      .where('userId', '=', admin.userId)
      .where('isFolder', '=', 0)
      .execute();
    const byName = new Map(rows.map((r) => [r.name, [r.fileType, r.contentType]]));
    expect(Object.fromEntries(Object.keys(was).map((n) => [n, byName.get(n)]))).toEqual({
      'film.rmvb': ['video', 'application/vnd.rn-realmedia-vbr'],
      'tune.mid': ['audio', 'audio/midi'],
      'moving.apng': ['image', 'image/apng'],
      'photo.jfif': ['image', 'image/jpeg'],
      'app.ts': ['text', 'text/plain'],
      'deck.key': ['other', 'application/octet-stream'],
    });
    // what no suffix of the table changed stays as it was
    expect(byName.get('notes.txt')).toEqual(['document', 'text/plain']);
    // and every row now holds what a new upload of it would get
    for (const r of rows)
      expect(r.fileType, r.name).toBe(fileTypeOf(r.name.split('.').pop()!, false));
  });
});
