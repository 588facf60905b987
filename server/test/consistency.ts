import fs from 'node:fs';
import path from 'node:path';
import type { Db } from '../src/db/index.ts';

/**
 * Compare a user's live rows with their tree on disk, and their used space with the rows.
 * Returns the differences; an empty list means disk and database agree.
 */
export async function consistencyProblems(
  db: Db,
  dataDir: string,
  userId: string,
  username: string,
): Promise<string[]> {
  const problems: string[] = [];
  const rows = await db.selectFrom('file').selectAll().where('userId', '=', userId).execute();
  const live = rows.filter((r) => r.trashId === null);
  const onDisk = new Set<string>();
  const root = path.join(dataDir, 'files', username);
  const walk = (dir: string, rel: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const relPath = `${rel}${e.name}`;
      onDisk.add(`${relPath}${e.isDirectory() ? '/' : ''}`);
      if (e.isDirectory()) walk(path.join(dir, e.name), `${relPath}/`);
    }
  };
  if (fs.existsSync(root)) walk(root, '/');
  const inDb = new Set(live.map((r) => `${r.path}${r.name}${r.isFolder ? '/' : ''}`));
  for (const p of inDb) if (!onDisk.has(p)) problems.push(`row without bytes: ${p}`);
  for (const p of onDisk) if (!inDb.has(p)) problems.push(`bytes without row: ${p}`);
  for (const r of rows.filter((x) => x.trashId !== null && x.trashId === x.id)) {
    if (!fs.existsSync(path.join(dataDir, 'trash', username, r.id)))
      problems.push(`trashed row without bytes: ${r.name}`);
  }
  const user = await db
    .selectFrom('user')
    .select('usedBytes')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const sum = rows.filter((r) => !r.isFolder).reduce((s, r) => s + r.size, 0);
  if (user.usedBytes !== sum)
    problems.push(`used space ${user.usedBytes} but rows add up to ${sum}`);
  problems.push(...(await folderSizeProblems(db, userId)));
  const ops = await db.selectFrom('fileOp').select('id').execute();
  if (ops.length > 0) problems.push(`${ops.length} unfinished operations`);
  return problems;
}

/**
 * Compare each live folder's size with the bytes of the live files below it. Returns the
 * differences; an empty list means every folder carries what it holds.
 */
export async function folderSizeProblems(db: Db, userId: string): Promise<string[]> {
  const live = await db
    .selectFrom('file')
    .select(['path', 'name', 'isFolder', 'size'])
    .where('userId', '=', userId)
    .where('trashId', 'is', null)
    .execute();
  const problems: string[] = [];
  for (const folder of live.filter((r) => r.isFolder)) {
    const prefix = `${folder.path}${folder.name}/`;
    const below = live
      .filter((r) => !r.isFolder && r.path.startsWith(prefix))
      .reduce((s, r) => s + Number(r.size), 0);
    if (Number(folder.size) !== below)
      problems.push(`folder ${prefix} has size ${folder.size} but holds ${below} bytes`);
  }
  return problems;
}
