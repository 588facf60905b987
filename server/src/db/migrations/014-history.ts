import type { Kysely } from 'kysely';

/**
 * `file_version`: what a file held before a save replaced it (history). The row belongs to the
 * file (its id, so versions follow renames and moves, and go when the file is purged); the bytes
 * are kept compressed in the store's versions area under the version's id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('file_version')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.notNull().references('file.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    // the file's name and its folder's path when this content was replaced
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    // the content's own size, and what the store keeps of it (counted in the owner's space)
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('stored_size', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'varchar(64)')
    .addColumn('compression', 'varchar(16)', (c) => c.notNull())
    .addColumn('operator', 'varchar(255)', (c) => c.notNull())
    // when the content was replaced
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('file_version_file_idx')
    .on('file_version')
    .columns(['file_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('file_version_user_idx')
    .on('file_version')
    .columns(['user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('file_version').execute();
}
