import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { zipStream } from '../../src/lib/zip.ts';
import { ADMIN, call, useAdminApp } from '../harness.ts';
import { folderSizeProblems } from '../consistency.ts';
import { uploadFile } from '../upload-client.ts';

// Every folder carries the bytes below it, kept right by each change of the tree, and the
// used space (the quota bar) is the tree, the versions kept and the trash.

interface Item {
  id: string;
  name: string;
  isFolder: boolean;
  size: number;
  childrenCount: number;
}
interface Space {
  used: number;
  quota: number;
  files: number;
  versions: number;
  trash: number;
}

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
const list = async (currentDirectory = '/') =>
  ok(
    await call<Item[]>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory, pageSize: 100 },
    }),
  );
/** The size of each item of a folder, as the listing shows it. */
const sizes = async (currentDirectory = '/') =>
  Object.fromEntries((await list(currentDirectory)).map((i) => [i.name, i.size]));
const upload = async (currentDirectory: string, name: string, bytes: number) => {
  const content = Buffer.alloc(bytes, name);
  const { merged } = await uploadFile(t.app, admin.token, { name, content, currentDirectory });
  expect(merged?.body.code, merged?.body.message).toBe(0);
  return merged!.body.data!.file.id;
};
const davPut = async (path: string, body: string | Buffer) => {
  const res = await t.app.inject({
    method: 'PUT',
    url: `/webdav${path}`,
    headers: {
      authorization: `Basic ${Buffer.from(`${ADMIN.username}:${ADMIN.password}`).toString('base64')}`,
    },
    payload: body,
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
};
const space = async () => ok(await call<Space>(t.app, 'GET', '/space', { token: admin.token }));
const idOf = async (folder: string, name: string) =>
  (await list(folder)).find((i) => i.name === name)!.id;
const sizesRight = async () =>
  expect(await folderSizeProblems(t.app.services.db, admin.userId)).toEqual([]);

describe('folder sizes', () => {
  it('follow uploads, overwrites, moves, copies, renames, the trash and restores', async () => {
    await newFolder('docs');
    await newFolder('deep', '/docs');
    await newFolder('other');
    await upload('/docs/deep', 'a.bin', 1000);
    await upload('/docs', 'b.bin', 300);
    expect(await sizes('/')).toMatchObject({ docs: 1300, other: 0 });
    expect(await sizes('/docs')).toMatchObject({ deep: 1000, 'b.bin': 300 });

    // overwritten: a plain file (the old one goes to the trash) and a document (kept as a version)
    await davPut('/docs/deep/a.bin', 'x'.repeat(400));
    await davPut('/docs/notes.md', 'y'.repeat(50));
    await davPut('/docs/notes.md', 'z'.repeat(80));
    expect(await sizes('/')).toMatchObject({ docs: 400 + 300 + 80 });
    expect(await sizes('/docs')).toMatchObject({ deep: 400 });
    await sizesRight();

    // a folder moved: the bytes leave one branch and join the other
    const deep = await idOf('/docs', 'deep');
    const other = await idOf('/', 'other');
    ok(
      await call(t.app, 'POST', '/move', {
        token: admin.token,
        body: { froms: [deep], to: other },
      }),
    );
    expect(await sizes('/')).toMatchObject({ docs: 380, other: 400 });
    await sizesRight();

    // copied: the copy carries its size, and so does every folder above it
    const copies = await newFolder('copies', '/other');
    ok(
      await call(t.app, 'POST', '/copy', {
        token: admin.token,
        body: { froms: [deep], to: copies.id },
      }),
    );
    expect(await sizes('/')).toMatchObject({ other: 800 });
    expect(await sizes('/other')).toMatchObject({ deep: 400, copies: 400 });
    expect(await sizes('/other/copies')).toMatchObject({ deep: 400 });
    await sizesRight();

    // renamed: nothing above changes, nothing below is lost
    ok(
      await call(t.app, 'GET', '/rename', {
        token: admin.token,
        query: { id: deep, newFileName: 'renamed' },
      }),
    );
    expect(await sizes('/other')).toMatchObject({ renamed: 400, copies: 400 });

    // to the trash and back
    ok(await call(t.app, 'DELETE', '/delete', { token: admin.token, query: { fileIds: deep } }));
    expect(await sizes('/')).toMatchObject({ other: 400 });
    ok(await call(t.app, 'POST', '/restore', { token: admin.token, query: { fileIds: deep } }));
    expect(await sizes('/')).toMatchObject({ other: 800 });

    // deleted for good
    const b = await idOf('/docs', 'b.bin');
    ok(
      await call(t.app, 'DELETE', '/delete', {
        token: admin.token,
        query: { fileIds: b, sweep: true },
      }),
    );
    expect(await sizes('/')).toMatchObject({ docs: 80 });
    await sizesRight();
  });

  it('count what an archive extracted into a folder holds', async () => {
    const entries = { 'x/one.txt': 'a'.repeat(100), 'x/y/two.txt': 'b'.repeat(20), 'top.txt': 'c' };
    const parts: Buffer[] = [];
    const list = Object.entries(entries).map(([name, content]) => ({
      name,
      isFolder: false,
      mtime: new Date(),
      compress: true,
      open: () => Readable.from([Buffer.from(content)]),
    }));
    for await (const part of zipStream(list)) parts.push(part);
    await davPut('/docs/pack.zip', Buffer.concat(parts));
    const zip = await idOf('/docs', 'pack.zip');
    const zipSize = (await sizes('/docs'))['pack.zip']!;
    ok(await call(t.app, 'GET', '/unzip', { token: admin.token, query: { fileId: zip } }));
    expect(await sizes('/docs/pack')).toMatchObject({ x: 120, 'top.txt': 1 });
    expect(await sizes('/docs/pack/x')).toMatchObject({ y: 20 });
    expect(await sizes('/docs')).toMatchObject({ pack: 121 });
    expect(await sizes('/')).toMatchObject({ docs: 80 + zipSize + 121 });
    await sizesRight();
  });

  it('adds up with the used space: the tree, the versions kept and the trash', async () => {
    const use = await space();
    // the trash holds the a.bin overwritten above; the versions, notes.md's first content
    expect(use.trash).toBe(1000);
    expect(use.versions).toBeGreaterThan(0);
    expect(use.files + use.versions + use.trash).toBe(use.used);
    const info = ok(
      await call<{ takeUpSpace: number }>(t.app, 'GET', '/user/info', { token: admin.token }),
    );
    expect(info.takeUpSpace).toBe(use.used);
    // the root's total (its items' sizes) is the files' part
    const root = Object.values(await sizes('/')).reduce((s, n) => s + n, 0);
    expect(root).toBe(use.files);
  });

  it('are set right by the recalculation when they drifted', async () => {
    const other = await idOf('/', 'other');
    await t.app.services.db.updateTable('file').set({ size: 7 }).where('id', '=', other).execute();
    expect(await sizes('/')).toMatchObject({ other: 7 });
    ok(await call(t.app, 'GET', '/cloud/setting/recalculateFolderSize', { token: admin.token }));
    await expect.poll(async () => (await sizes('/')).other, { timeout: 10_000 }).toBe(800);
    await sizesRight();
  });
});
