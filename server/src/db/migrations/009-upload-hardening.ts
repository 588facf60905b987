import type { Kysely } from 'kysely';

// A chunk is claimed before its bytes are written (done = 0) and counts once written (done = 1);
// a visitor's upload session remembers the share and the address it came from; an operation in
// flight holds the space it is about to take (file_op.bytes).
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('upload_chunk')
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable('upload_session').addColumn('share_id', 'varchar(36)').execute();
  await db.schema.alterTable('upload_session').addColumn('visitor', 'varchar(64)').execute();
  await db.schema
    .createIndex('upload_session_share_idx')
    .on('upload_session')
    .columns(['share_id', 'visitor'])
    .execute();
  await db.schema
    .alterTable('file_op')
    .addColumn('bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('file_op').dropColumn('bytes').execute();
  await db.schema.dropIndex('upload_session_share_idx').ifExists().execute();
  await db.schema.alterTable('upload_session').dropColumn('visitor').execute();
  await db.schema.alterTable('upload_session').dropColumn('share_id').execute();
  await db.schema.alterTable('upload_chunk').dropColumn('done').execute();
}
