import { sql, SqliteAdapter, type Kysely } from 'kysely';

/**
 * Indexes the search plans read (docs/ARCHITECTURE.md, "Search plans"):
 * - a user's live files by modification date and by size, so a sorted search walks them in
 *   order and stops once its page is full;
 * - PostgreSQL: a user's live files by path compared byte by byte, so everything below a folder
 *   is one range of an index whatever the database's collation (SQLite compares bytes already,
 *   and `file_path_idx` serves).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  for (const column of ['update_date', 'size']) {
    await db.schema
      .createIndex(`file_live_user_${column}_idx`)
      .on('file')
      .columns(['user_id', column])
      .where(sql.ref('trash_id'), 'is', null)
      .execute();
  }
  if (!sqlite)
    await sql`create index file_live_path_bytes_idx on file (user_id, path collate "C")
      where trash_id is null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('file_live_path_bytes_idx').ifExists().execute();
  for (const column of ['update_date', 'size'])
    await db.schema.dropIndex(`file_live_user_${column}_idx`).ifExists().execute();
}
