import type { Kysely } from 'kysely';

/**
 * Where an account signs in: `local` (its password hash here) or `ldap` (made on its first
 * LDAP sign-in; its password stays in the directory and is never kept here).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user')
    .addColumn('auth_source', 'varchar(16)', (c) => c.notNull().defaultTo('local'))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('user').dropColumn('auth_source').execute();
}
