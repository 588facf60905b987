import type { Kysely } from 'kysely';

// Accounts, sessions, roles, menus, settings and sign-in throttling.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('user')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('show_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('avatar', 'varchar(512)')
    .addColumn('slogan', 'varchar(255)')
    .addColumn('introduction', 'text')
    .addColumn('quota_gb', 'double precision', (c) => c.notNull())
    .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('is_creator', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mfa_secret', 'varchar(128)')
    .addColumn('mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('theme', 'varchar(16)', (c) => c.notNull().defaultTo('auto'))
    .addColumn('password_changed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('session')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('remember', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('ip', 'varchar(64)')
    .execute();
  await db.schema.createIndex('session_user_idx').on('session').column('user_id').execute();

  await db.schema
    .createTable('role')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('code', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('remarks', 'varchar(500)')
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('menu')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('parent_id', 'varchar(36)')
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('authority', 'varchar(100)')
    .addColumn('path', 'varchar(200)')
    .addColumn('component', 'varchar(200)')
    .addColumn('icon', 'varchar(200)')
    .addColumn('sort_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('menu_type', 'integer', (c) => c.notNull())
    .addColumn('hide', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_menu')
    .addColumn('role_id', 'varchar(36)', (c) =>
      c.notNull().references('role.id').onDelete('cascade'),
    )
    .addColumn('menu_id', 'varchar(36)', (c) =>
      c.notNull().references('menu.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('role_menu_pk', ['role_id', 'menu_id'])
    .execute();

  await db.schema
    .createTable('user_role')
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('role_id', 'varchar(36)', (c) =>
      c.notNull().references('role.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('user_role_pk', ['user_id', 'role_id'])
    .execute();

  await db.schema
    .createTable('setting')
    .addColumn('key', 'varchar(100)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('login_attempt')
    .addColumn('key', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'bigint', (c) => c.notNull())
    .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'login_attempt',
    'setting',
    'user_role',
    'role_menu',
    'menu',
    'role',
    'session',
    'user',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
