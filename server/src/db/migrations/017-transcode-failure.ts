import type { Kysely } from 'kysely';

/**
 * `transcode_failure`: a video whose transcode failed or was cancelled by an administrator, for
 * the content (`hash`) it was tried on. Views start no transcode of it again until its content
 * changes or the Video Transcoding settings do; the row goes when the file is purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('transcode_failure')
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.primaryKey().references('file.id').onDelete('cascade'),
    )
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    // 'failed' or 'cancelled'
    .addColumn('reason', 'varchar(16)', (c) => c.notNull())
    // what went wrong, cut to a few hundred characters (never shown to visitors)
    .addColumn('message', 'varchar(512)')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('transcode_failure').execute();
}
