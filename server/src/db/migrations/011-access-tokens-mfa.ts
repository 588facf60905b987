import type { Kysely } from 'kysely';

/**
 * Access tokens and two-factor sign-in.
 * - `access_token`: long-lived tokens a person makes for other programs (WebDAV clients,
 *   scripts); only the SHA-256 of each is kept, with when it was last used.
 * - `mfa_challenge`: the short-lived step between a right password and its one-time code (and
 *   the forced enrolment), kept in the database so any node can finish the sign-in.
 * - On the user: the recovery codes (hashed) and the last time step a code was accepted, so a
 *   code works once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('access_token')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_active_at', 'bigint')
    .execute();
  await db.schema
    .createIndex('access_token_user_idx')
    .on('access_token')
    .column('user_id')
    .execute();

  await db.schema
    .createTable('mfa_challenge')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('purpose', 'varchar(16)', (c) => c.notNull())
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('user').addColumn('mfa_recovery', 'text').execute();
  await db.schema.alterTable('user').addColumn('mfa_last_step', 'bigint').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('mfa_last_step').execute();
  await db.schema.alterTable('user').dropColumn('mfa_recovery').execute();
  await db.schema.dropTable('mfa_challenge').execute();
  await db.schema.dropTable('access_token').execute();
}
