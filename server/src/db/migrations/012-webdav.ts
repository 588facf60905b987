import type { Kysely } from 'kysely';

/**
 * WebDAV's own state, in the database so every node sees the same:
 * - `dav_lock`: write locks (RFC 4918 §6), by the path they cover, so a lock can sit on a name
 *   that has no file yet and outlives nothing: each has its expiry.
 * - `dav_property`: dead properties a client set with PROPPATCH, on the file's row, so they
 *   follow renames and moves, wait in the trash with it and go when it goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dav_lock')
    .addColumn('token', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    // the full path of the locked item: `/a/b.txt`, `/` for the root
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('deep', 'integer', (c) => c.notNull())
    .addColumn('exclusive', 'integer', (c) => c.notNull())
    .addColumn('owner', 'text')
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_lock_user_idx').on('dav_lock').columns(['user_id']).execute();

  await db.schema
    .createTable('dav_property')
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.notNull().references('file.id').onDelete('cascade'),
    )
    // `{namespace}name`
    .addColumn('name', 'varchar(1024)', (c) => c.notNull())
    // the property element as XML, its namespaces declared in it
    .addColumn('value', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_property_pk', ['file_id', 'name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dav_property').execute();
  await db.schema.dropTable('dav_lock').execute();
}
