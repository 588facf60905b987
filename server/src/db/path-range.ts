import { sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';

/**
 * The first path after every path that starts with `prefix`, when `prefix` ends with `/`:
 * `/a/` gives `/a0`, since `0` is the character right after `/`. Paths compare as their bytes
 * (UTF-8 keeps the order of code points), so `[prefix, end)` holds exactly the paths below.
 */
export function pathRangeEnd(prefix: string): string | undefined {
  return prefix.endsWith('/') ? `${prefix.slice(0, -1)}0` : undefined;
}

/**
 * Every row whose `column` starts with `prefix` (the rows below a folder), written as one range
 * of an index on the path so a folder deep in a large drive costs what it holds, not the drive.
 * SQLite compares text as bytes already; PostgreSQL compares with `collate "C"`, the collation
 * of its path index (migration 025), whatever the database's own collation.
 */
export function startsWithPath<DB>(
  db: Kysely<DB>,
  prefix: string,
  column = 'path',
): RawBuilder<boolean> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  const ref = sqlite ? sql.ref(column) : sql`${sql.ref(column)} collate "C"`;
  const end = pathRangeEnd(prefix);
  if (end) return sql<boolean>`(${ref} >= ${prefix} and ${ref} < ${end})`;
  // a prefix that is not a folder's: the range narrows, the comparison of characters decides
  return sql<boolean>`(${ref} >= ${prefix} and ${ref} < ${`${prefix}\u{10ffff}`}
    and substr(${sql.ref(column)}, 1, ${[...prefix].length}) = ${prefix})`;
}
