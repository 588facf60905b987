import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { pathRangeEnd, startsWithPath } from '../../src/db/path-range.ts';
import { consistencyProblems } from '../consistency.ts';
import { ADMIN, call, dialect, putFile, useAdminApp } from '../harness.ts';

// Everything below a folder is one range of the path index (`/a/` ≤ path < `/a0`): a change
// of a folder deep in a large drive reads what the folder holds, never the whole drive. The
// range must hold exactly the folder's rows, whatever names sit beside it.

const { t, admin } = useAdminApp({ once: true });
const owner = () => ({ userId: admin.userId, username: ADMIN.username });

const ok = <T>(res: { body: { code: number; message?: string; data?: T } }): T => {
  expect(res.body.code, res.body.message).toBe(0);
  return res.body.data as T;
};
const newFolder = async (name: string, currentDirectory = '/') =>
  ok(
    await call<{ id: string }>(t.app, 'POST', '/new_folder', {
      token: admin.token,
      query: { filename: name, currentDirectory },
    }),
  );
const names = async (currentDirectory: string, queryFileType?: string) =>
  ok(
    await call<Array<{ name: string }>>(t.app, 'GET', '/list', {
      token: admin.token,
      query: { currentDirectory, pageSize: 100, ...(queryFileType ? { queryFileType } : {}) },
    }),
  )
    .map((i) => i.name)
    .sort();

/** Names that sort right beside `a` and `a/`, byte by byte and in most locales. */
const NEIGHBOURS = ['a b', 'a-x', 'a.x', 'a0', 'a_x', 'aé', 'a中', 'A', 'a😀'];

describe('the rows below a folder', () => {
  it('ends the range right after the folder: "/a/" up to "/a0"', () => {
    expect(pathRangeEnd('/a/')).toBe('/a0');
    expect(pathRangeEnd('/')).toBe('0');
    expect(pathRangeEnd('/中/')).toBe('/中0');
    expect(pathRangeEnd('/a')).toBeUndefined();
  });

  it('moves, trashes and restores a folder without touching the folders named beside it', async () => {
    const a = await newFolder('a');
    await newFolder('deep', '/a');
    await putFile(t, owner(), '/a', 'in-a.txt', 'a');
    await putFile(t, owner(), '/a/deep', 'in-deep.txt', 'deep');
    for (const name of NEIGHBOURS) {
      await newFolder(name);
      await putFile(t, owner(), `/${name}`, 'mine.txt', name);
    }
    const target = await newFolder('target');

    ok(
      await call(t.app, 'POST', '/move', {
        token: admin.token,
        body: { froms: [a.id], to: target.id, isOverride: false },
      }),
    );
    expect(await names('/target/a')).toEqual(['deep', 'in-a.txt']);
    expect(await names('/target/a/deep')).toEqual(['in-deep.txt']);
    for (const name of NEIGHBOURS) expect(await names(`/${name}`)).toEqual(['mine.txt']);

    ok(await call(t.app, 'DELETE', '/delete', { token: admin.token, body: { fileIds: [a.id] } }));
    for (const name of NEIGHBOURS) expect(await names(`/${name}`)).toEqual(['mine.txt']);
    ok(await call(t.app, 'POST', '/restore', { token: admin.token, body: { fileIds: [a.id] } }));
    expect(await names('/target/a/deep')).toEqual(['in-deep.txt']);
    expect(
      await consistencyProblems(t.app.services.db, t.dataDir, admin.userId, ADMIN.username),
    ).toEqual([]);
  });

  it('is read as a range of the path index', async () => {
    const db = t.database.db as unknown as Kysely<unknown>;
    const where = sql`user_id = ${admin.userId} and trash_id is null
      and ${startsWithPath(db, '/target/a/')}`;
    if (dialect === 'sqlite') {
      const plan = await sql<{ detail: string }>`explain query plan
        select id from file where ${where}`.execute(db);
      expect(plan.rows.map((r) => r.detail).join('\n')).toMatch(/INDEX .*path>\? AND path<\?/);
    } else {
      // a small table is read whole when it is cheaper: ask for the plan an index would give
      const plan = await db.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        return sql<{ 'QUERY PLAN': string }>`explain select id from file where ${where}`.execute(
          trx,
        );
      });
      const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index.* using file_live_path_bytes_idx/);
      // the index compares bytes, so the range is its condition, not a filter after it
      expect(text).toMatch(/Index Cond: .*path.*>= '\/target\/a\/'.*< '\/target\/a0'/);
    }
  });
});
