import type { Kysely } from 'kysely';

/**
 * `audit_entry`: who signed in (or failed to) and who changed the drive's administration or
 * their own security, when and from where. No foreign key: an entry outlives its account.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('audit_entry')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'varchar(36)')
    .addColumn('username', 'varchar(255)', (c) => c.notNull())
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    // what was acted on, in a few words (never a secret)
    .addColumn('target', 'varchar(512)')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_entry_at_idx').on('audit_entry').columns(['at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_entry').execute();
}
