import type { Kysely } from 'kysely';

/**
 * `document_draft`: an editor's unsaved text, kept while someone edits (one per file and
 * person), so that a closed tab or a crashed browser loses nothing. A save of the file ends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('document_draft')
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.notNull().references('file.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('content_text', 'text', (c) => c.notNull())
    // the version of the file the draft was written from
    .addColumn('base_hash', 'varchar(64)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('document_draft_pk', ['file_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('document_draft').execute();
}
