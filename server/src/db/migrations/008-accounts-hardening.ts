import { sql, type Kysely } from 'kysely';

/**
 * Accounts hardening.
 * - Usernames are unique regardless of case: an index on (lower(username), case_twin). Accounts
 *   created before this rule whose names differ only in case keep working: the earliest keeps
 *   case_twin 0, the later ones get 1, 2…; every new account gets 0, so none can clash with
 *   any existing name again.
 * - At most one creator, enforced by the database (two first visits at once cannot both win).
 * - Guess limiting (`login_attempt`) counts attempts per key with the time of the last one; the
 *   old counters are transient and start afresh.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('user')
    .addColumn('case_twin', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  const users = await sql<{ id: string; username: string }>`
    select id, username from ${sql.table('user')} order by created_at, id`.execute(db);
  const seen = new Map<string, number>();
  for (const user of users.rows) {
    const folded = user.username.toLowerCase();
    const twin = seen.get(folded);
    seen.set(folded, (twin ?? -1) + 1);
    if (twin === undefined) continue;
    await sql`update ${sql.table('user')} set case_twin = ${twin + 1} where id = ${user.id}`.execute(
      db,
    );
  }
  await sql`create unique index user_username_ci on ${sql.table('user')} (lower(username), case_twin)`.execute(
    db,
  );
  await sql`create unique index user_one_creator on ${sql.table('user')} (is_creator) where is_creator = 1`.execute(
    db,
  );

  await db.schema.dropTable('login_attempt').execute();
  await db.schema
    .createTable('login_attempt')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('last_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('login_attempt_last_idx')
    .on('login_attempt')
    .column('last_at')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_attempt').execute();
  await db.schema
    .createTable('login_attempt')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.dropIndex('user_one_creator').execute();
  await db.schema.dropIndex('user_username_ci').execute();
  await db.schema.alterTable('user').dropColumn('case_twin').execute();
}
