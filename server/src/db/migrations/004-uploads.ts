import type { Kysely } from 'kysely';

// Chunked upload sessions live in the database so an upload resumes after a restart.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('upload_session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('identifier', 'varchar(128)', (c) => c.notNull())
    .addColumn('filename', 'varchar(255)', (c) => c.notNull())
    // the folder the file goes to, as a path: '/a/b/'
    .addColumn('target_path', 'varchar(4096)', (c) => c.notNull())
    .addColumn('total_size', 'bigint', (c) => c.notNull())
    .addColumn('chunk_size', 'bigint', (c) => c.notNull())
    .addColumn('total_chunks', 'integer', (c) => c.notNull())
    .addColumn('last_modified', 'bigint')
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('message', 'varchar(500)')
    .addColumn('file_id', 'varchar(36)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_session_user_idx')
    .on('upload_session')
    .columns(['user_id', 'state'])
    .execute();

  await db.schema
    .createTable('upload_chunk')
    .addColumn('session_id', 'varchar(64)', (c) =>
      c.notNull().references('upload_session.id').onDelete('cascade'),
    )
    .addColumn('number', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunk_pk', ['session_id', 'number'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('upload_chunk').ifExists().execute();
  await db.schema.dropTable('upload_session').ifExists().execute();
}
