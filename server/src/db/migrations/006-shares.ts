import { sql, type Kysely } from 'kysely';

// Shares of files and folders, and mounts of shared folders into other users' drives.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('share')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    // the address of /s/<short_id>: generated, or chosen by the owner
    .addColumn('short_id', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    // one share per file; a file deleted for good takes its share with it
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.notNull().unique().references('file.id').onDelete('cascade'),
    )
    .addColumn('is_privacy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('code', 'varchar(16)')
    // null: permanent
    .addColumn('expires_at', 'bigint')
    .addColumn('allow_download', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('can_upload', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_edit', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('can_delete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('views', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('share_user_idx')
    .on('share')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('mount')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    // cancelling the share removes every mount of it
    .addColumn('share_id', 'varchar(36)', (c) =>
      c.notNull().references('share.id').onDelete('cascade'),
    )
    // the mounter's folder the mount sits in: '0' is the root
    .addColumn('parent_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('mount_user_share_uq')
    .on('mount')
    .columns(['user_id', 'share_id'])
    .unique()
    .execute();
  await db.schema.createIndex('mount_share_idx').on('mount').column('share_id').execute();

  // Drives seeded before this release get the Shares menu too (new drives get it from the seed).
  const seeded = await sql<{ id: string }>`select id from menu where id = ${'home'}`.execute(db);
  const present = await sql<{ id: string }>`select id from menu where id = ${'share'}`.execute(db);
  if (seeded.rows.length > 0 && present.rows.length === 0) {
    await sql`insert into menu (id, parent_id, name, authority, path, component, icon, sort_number, menu_type, hide, builtin, created_at)
      values (${'share'}, ${null}, ${'Shares'}, ${'cloud:file:share'}, ${'/share'}, ${'Share'}, ${'ShareAltOutlined'}, ${11}, ${0}, ${0}, ${1}, ${Date.now()})`.execute(
      db,
    );
    await sql`insert into role_menu (role_id, menu_id)
      select id, ${'share'} from role where id in (${'role-admin'}, ${'role-user'})`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mount').ifExists().execute();
  await db.schema.dropTable('share').ifExists().execute();
}
