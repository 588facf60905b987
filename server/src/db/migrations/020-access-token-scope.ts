import type { Kysely } from 'kysely';

/**
 * What an access token may do and until when: `scope` (`read`, `readWrite` or `webdav`) and
 * `expires_at` (null: never). Tokens made before read and write, as they did, without expiry.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('access_token')
    .addColumn('scope', 'varchar(16)', (c) => c.notNull().defaultTo('readWrite'))
    .execute();
  await db.schema.alterTable('access_token').addColumn('expires_at', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('access_token').dropColumn('expires_at').execute();
  await db.schema.alterTable('access_token').dropColumn('scope').execute();
}
