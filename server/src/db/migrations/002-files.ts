import { sql, type Kysely } from 'kysely';

// The file tree: one row per file or folder with a stable id (ARCHITECTURE §3), and the
// journal of disk operations in flight, so a crash can be rolled back on boot.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    // '0' is the root of the user's tree
    .addColumn('parent_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    // path of the parent folder: '/' or '/a/b/'
    .addColumn('path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('is_folder', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('content_type', 'varchar(255)', (c) => c.notNull())
    .addColumn('suffix', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('file_type', 'varchar(16)', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)')
    .addColumn('upload_date', 'bigint', (c) => c.notNull())
    .addColumn('update_date', 'bigint', (c) => c.notNull())
    .addColumn('is_favorite', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('media', 'text')
    .addColumn('children_count', 'integer', (c) => c.notNull().defaultTo(0))
    // set on a trashed item and on everything below it: the id of the item that was deleted
    .addColumn('trash_id', 'varchar(36)')
    .addColumn('trashed_at', 'bigint')
    .execute();

  await db.schema
    .createIndex('file_live_name_uq')
    .on('file')
    .columns(['user_id', 'parent_id', 'name'])
    .unique()
    .where(sql.ref('trash_id'), 'is', null)
    .execute();
  // listing a folder: folders and files are read separately, each in index order for any
  // sort column and direction (partial indexes over live rows, so counting is index-only too)
  for (const column of ['name', 'size', 'update_date', 'upload_date']) {
    await db.schema
      .createIndex(`file_live_${column}_idx`)
      .on('file')
      .columns(['user_id', 'parent_id', 'is_folder', column])
      .where(sql.ref('trash_id'), 'is', null)
      .execute();
  }
  await db.schema.createIndex('file_path_idx').on('file').columns(['user_id', 'path']).execute();
  await db.schema
    .createIndex('file_type_idx')
    .on('file')
    .columns(['user_id', 'file_type', 'update_date'])
    .execute();
  await db.schema
    .createIndex('file_trash_idx')
    .on('file')
    .columns(['user_id', 'trash_id'])
    .execute();
  await db.schema.createIndex('file_hash_idx').on('file').columns(['user_id', 'hash']).execute();

  await db.schema
    .createTable('file_op')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    // absolute disk paths: `from` is where the bytes were, `to` where the operation puts them
    .addColumn('from_path', 'text', (c) => c.notNull())
    .addColumn('to_path', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_op').ifExists().execute();
  await db.schema.dropTable('file').ifExists().execute();
}
