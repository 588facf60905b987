import type { Kysely } from 'kysely';

/**
 * Work left half done names the process that did it (`db/presence.ts`): an intent of the crash
 * journal and a chunk claimed by an upload request are undone or taken over only once their node
 * is gone, never while it still works on them. Rows from before name no node: they count as
 * gone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('file_op').addColumn('node', 'varchar(36)').execute();
  await db.schema.alterTable('upload_chunk').addColumn('node', 'varchar(36)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_chunk').dropColumn('node').execute();
  await db.schema.alterTable('file_op').dropColumn('node').execute();
}
