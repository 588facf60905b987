import { describe, expect, it } from 'vitest';
import { consistencyProblems } from '../consistency.ts';
import { ADMIN, call, makeUser, putFile, useAdminApp } from '../harness.ts';

// A selection (many items at once) is one change: trashed, restored, deleted for good and moved
// as a whole, one journal entry and one disk move per item chosen (never one per item below a
// folder), with the folder sizes, the used space and the trash as the items one by one would
// leave them.

interface Item {
  id: string;
  name: string;
  isFolder: boolean;
  size: number;
  childrenCount: number;
}

const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const { t, admin } = useAdminApp({ once: true });

const ok = <T>(res: { body: { code: number; message?: string; data?: T } }): T => {
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data as T;
};
const newFolder = async (name: string, currentDirectory = '/') =>
  ok(
    await call<Item>(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: name, currentDirectory },
    }),
  );
const list = async (currentDirectory = '/', queryFileType?: string) =>
  ok(
    await call<Item[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory, pageSize: 100, ...(queryFileType ? { queryFileType } : {}) },
    }),
  );
const names = async (folder: string, view?: string) =>
  (await list(folder, view)).map((i) => i.name).sort();
const consistent = async () =>
  expect(
    await consistencyProblems(t.app.services.db, t.dataDir, admin.userId, ADMIN.username),
  ).toEqual([]);

/**
 * `/<root>/a.txt`, `/<root>/sub/{b.txt, deep/c.txt}`, `/<root>/other/d.txt`, and the ids of a
 * mixed selection: a file, a folder, a file inside that folder, a file of another folder.
 */
async function mixedTree(root: string) {
  await newFolder(root);
  const sub = await newFolder('sub', `/${root}`);
  await newFolder('deep', `/${root}/sub`);
  await newFolder('other', `/${root}`);
  const a = await putFile(t, owner(), `/${root}`, 'a.txt', 'aaaaa');
  const b = await putFile(t, owner(), `/${root}/sub`, 'b.txt', 'bbbbbbb');
  await putFile(t, owner(), `/${root}/sub/deep`, 'c.txt', 'ccccccccccc');
  const d = await putFile(t, owner(), `/${root}/other`, 'd.txt', 'ddd');
  return { selection: [a, sub.id, b, d], entries: [a, sub.id, d] };
}

/** The journal entries and disk moves of the next operation, seen while its bytes move. */
function watchDisk() {
  const { files, db } = t.app.services;
  const blobs = files.blobs;
  const original = blobs.move.bind(blobs);
  const intents = new Set<string>();
  let moves = 0;
  blobs.move = async (from, to) => {
    moves += 1;
    for (const op of await db.selectFrom('fileOp').select('id').execute()) intents.add(op.id);
    return original(from, to);
  };
  return {
    stop: () => {
      blobs.move = original;
      return { intents: intents.size, moves };
    },
  };
}

describe('a selection', () => {
  it('goes to the trash as one change, comes back, and goes for good', async () => {
    const { selection, entries } = await mixedTree('mix');
    const disk = watchDisk();
    ok(
      await call(t.app, 'DELETE', '/delete', {
        token: admin.token,
        body: { fileIds: selection },
      }),
    );
    // one journal entry; one move per item chosen, none for b.txt (inside a chosen folder)
    expect(disk.stop()).toEqual({ intents: 1, moves: 3 });
    expect(await names('/mix')).toEqual(['other']);
    expect(await names('/mix/other')).toEqual([]);
    const trash = await list('/', 'trash');
    expect(trash.map((i) => i.id).sort()).toEqual([...entries].sort());
    expect(trash.find((i) => i.name === 'sub')).toMatchObject({ size: 18 });
    const mix = (await list('/')).find((i) => i.name === 'mix')!;
    expect(mix).toMatchObject({ size: 0, childrenCount: 1 });
    await consistent();

    const restoring = watchDisk();
    const restored = ok(
      await call<Array<{ code: number }>>(t.app, 'POST', '/restore', {
        token: admin.token,
        body: { fileIds: entries },
      }),
    );
    expect(restoring.stop()).toEqual({ intents: 1, moves: 3 });
    expect(restored.map((r) => r.code)).toEqual([0, 0, 0]);
    expect(await names('/mix')).toEqual(['a.txt', 'other', 'sub']);
    expect(await names('/mix/sub')).toEqual(['b.txt', 'deep']);
    expect(await names('/', 'trash')).toEqual([]);
    expect((await list('/')).find((i) => i.name === 'mix')).toMatchObject({
      size: 26,
      childrenCount: 3,
    });
    await consistent();

    // in the trash again, then deleted for good from there: the space comes back
    ok(
      await call(t.app, 'DELETE', '/delete', { token: admin.token, body: { fileIds: selection } }),
    );
    ok(await call(t.app, 'DELETE', '/sweep', { token: admin.token, body: { fileIds: entries } }));
    expect(await names('/', 'trash')).toEqual([]);
    expect(await names('/mix')).toEqual(['other']);
    await consistent();
  });

  it('is deleted for good at once, its space given back', async () => {
    const { selection } = await mixedTree('gone');
    ok(
      await call(t.app, 'DELETE', '/delete', {
        token: admin.token,
        query: { sweep: true },
        body: { fileIds: selection },
      }),
    );
    expect(await names('/gone')).toEqual(['other']);
    expect(await names('/', 'trash')).toEqual([]);
    await consistent();
  });

  it('with an id not found, or an item of another user, is refused and nothing changes', async () => {
    const { selection, entries } = await mixedTree('kept');
    const bob = await makeUser(t.app, admin.token, { username: 'bob' });
    const bobs = await putFile(t, { userId: bob.userId, username: 'bob' }, '/', 'b.txt', 'bob');
    for (const stranger of ['no-such-id', bobs]) {
      const res = await call(t.app, 'DELETE', '/delete', {
        token: admin.token,
        body: { fileIds: [...selection, stranger] },
      });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(7);
      expect(await names('/kept')).toEqual(['a.txt', 'other', 'sub']);
    }
    expect(
      (await call<Item[]>(t.app, 'GET', '/list', { token: bob.token })).body.data!.map(
        (i) => i.name,
      ),
    ).toEqual(['b.txt']);

    // from the trash: one id that is not an entry there stops the whole delete for good
    ok(
      await call(t.app, 'DELETE', '/delete', { token: admin.token, body: { fileIds: selection } }),
    );
    for (const stranger of ['no-such-id', bobs, selection[2]!]) {
      const res = await call(t.app, 'DELETE', '/sweep', {
        token: admin.token,
        body: { fileIds: [...entries, stranger] },
      });
      expect(res.status).toBe(404);
      expect((await list('/', 'trash')).map((i) => i.id).sort()).toEqual([...entries].sort());
    }
    await consistent();
  });

  it('moves as one change, keeping the checks of a move', async () => {
    const { selection } = await mixedTree('from');
    const deep = (await list('/from/sub')).find((i) => i.name === 'deep')!;
    const dest = await newFolder('dest');
    const holder = await putFile(t, owner(), '/dest', 'd.txt', 'taken');
    const move = (froms: string[], to: string, override = false) =>
      call<Array<{ code: number; from: string; msg: string }>>(t.app, 'POST', '/move', {
        token: admin.token,
        body: { froms, to, isOverride: override },
      });

    // into a folder of its own: the whole move is refused, nothing moves
    const inside = await move(selection, deep.id);
    expect(inside.status).toBe(422);
    expect(await names('/from')).toEqual(['a.txt', 'other', 'sub']);

    const disk = watchDisk();
    const moved = ok(await move(selection, dest.id));
    expect(disk.stop()).toEqual({ intents: 1, moves: 2 });
    // b.txt goes along inside sub; d.txt's name is taken there
    expect(moved.map((r) => [r.from, r.code]).sort()).toEqual([
      ['/from/a.txt', 0],
      ['/from/other/d.txt', -1],
      ['/from/sub', 0],
    ]);
    expect(await names('/dest')).toEqual(['a.txt', 'd.txt', 'sub']);
    expect(await names('/dest/sub')).toEqual(['b.txt', 'deep']);
    expect(await names('/dest/sub/deep')).toEqual(['c.txt']);
    expect(await names('/from')).toEqual(['other']);
    const sizes = Object.fromEntries((await list('/')).map((i) => [i.name, i.size]));
    expect(sizes).toMatchObject({ from: 3, dest: 5 + 18 + 5 });
    await consistent();

    // with override the item holding the name goes to the trash
    const again = ok(await move([selection[3]!], dest.id, true));
    expect(again.map((r) => r.code)).toEqual([0]);
    expect((await list('/', 'trash')).map((i) => i.id)).toContain(holder);
    expect(await names('/dest')).toEqual(['a.txt', 'd.txt', 'sub']);
    await consistent();
  });
  it('is copied as one change: one journal entry, each item’s bytes copied once, names kept apart', async () => {
    const { selection } = await mixedTree('src');
    const dest = await newFolder('copies');
    const holder = await putFile(t, owner(), '/copies', 'd.txt', 'taken');
    await putFile(t, owner(), '/src/sub', 'a.txt', 'second a');
    const second = (await list('/src/sub')).find((i) => i.name === 'a.txt')!.id;
    const copy = (froms: string[], to: string, override = false) =>
      call<Array<{ code: number; from: string; to: string; msg: string }>>(t.app, 'GET', '/copy', {
        token: admin.token,
        query: { froms, to, isOverride: override },
      });

    const disk = watchDisk();
    const copied = ok(await copy([...selection, second], dest.id));
    // a.txt, sub (with b.txt inside) and b.txt: three items copied, their rows in one entry
    expect(disk.stop()).toEqual({ intents: 1, moves: 3 });
    expect(copied.map((r) => [r.from, r.code])).toEqual([
      ['/src/a.txt', 0],
      ['/src/sub', 0],
      ['/src/sub/b.txt', 0],
      // the name is held by an item of the folder: refused without override
      ['/src/other/d.txt', -1],
      // two items of one name: the first takes it, the second is refused
      ['/src/sub/a.txt', -1],
    ]);
    expect(await names('/copies')).toEqual(['a.txt', 'b.txt', 'd.txt', 'sub']);
    expect(await names('/copies/sub/deep')).toEqual(['c.txt']);
    const sizes = Object.fromEntries((await list('/')).map((i) => [i.name, i.size]));
    // sub holds b.txt, deep/c.txt and the second a.txt: 7 + 11 + 8
    expect(sizes).toMatchObject({ copies: 5 + 26 + 7 + 5 });
    await consistent();

    // beside itself a copy takes a numbered name; with override the holder goes to the trash
    const beside = ok(
      await copy([selection[0]!], (await list('/')).find((i) => i.name === 'src')!.id),
    );
    expect(beside.map((r) => [r.to, r.code])).toEqual([['/src/a(1).txt', 0]]);
    const over = ok(await copy([selection[3]!], dest.id, true));
    expect(over.map((r) => r.code)).toEqual([0]);
    expect((await list('/', 'trash')).map((i) => i.id)).toContain(holder);
    await consistent();
  });
});
