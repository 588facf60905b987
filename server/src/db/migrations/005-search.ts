import { sql, SqliteAdapter, type Kysely } from 'kysely';

// Tags, search history and the search index (names, extracted text and OCR text).
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

  await db.schema
    .createTable('tag')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('color', 'varchar(16)', (c) => c.notNull())
    // the user's own order (drag ordering)
    .addColumn('sort', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tag_user_name_uq')
    .on('tag')
    .columns(['user_id', 'name'])
    .unique()
    .execute();

  await db.schema
    .createTable('file_tag')
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.notNull().references('file.id').onDelete('cascade'),
    )
    .addColumn('tag_id', 'varchar(36)', (c) => c.notNull().references('tag.id').onDelete('cascade'))
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('file_tag_pk', ['file_id', 'tag_id'])
    .execute();
  await db.schema
    .createIndex('file_tag_tag_idx')
    .on('file_tag')
    .columns(['tag_id', 'file_id'])
    .execute();

  await db.schema
    .createTable('search_history')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.notNull().references('user.id').onDelete('cascade'),
    )
    .addColumn('keyword', 'varchar(255)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('search_history_user_keyword_uq')
    .on('search_history')
    .columns(['user_id', 'keyword'])
    .unique()
    .execute();
  await db.schema
    .createIndex('search_history_user_time_idx')
    .on('search_history')
    .columns(['user_id', 'created_at'])
    .execute();

  // Each user owns a range of document keys (slot << 36 | sequence), so the full-text index
  // answers "this user's documents" with a key range instead of a join.
  await db.schema
    .createTable('search_user')
    .addColumn('user_id', 'varchar(36)', (c) =>
      c.primaryKey().references('user.id').onDelete('cascade'),
    )
    .addColumn('slot', 'integer', (c) => c.notNull().unique())
    .addColumn('next_seq', 'bigint', (c) => c.notNull())
    .execute();

  // One document per file or folder: its name as indexed and the state of its content.
  await db.schema
    .createTable('search_doc')
    .addColumn('doc_key', 'bigint', (c) => c.primaryKey())
    .addColumn('file_id', 'varchar(36)', (c) =>
      c.notNull().unique().references('file.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(36)', (c) => c.notNull())
    // the name as indexed (drift from the file row is repaired) and its folded form
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('name_norm', 'varchar(255)', (c) => c.notNull())
    // 0 while the file is in the trash
    .addColumn('live', 'integer', (c) => c.notNull())
    // none | pending | pending_ocr | running | running_ocr | done | failed | skipped
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    // the content hash the stored text was extracted from
    .addColumn('content_hash', 'varchar(64)')
    .addColumn('claimed_at', 'bigint')
    .addColumn('message', 'varchar(500)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('search_doc_name_idx')
    .on('search_doc')
    .columns(['user_id', 'live', 'name_norm'])
    .execute();
  await db.schema
    .createIndex('search_doc_state_idx')
    .on('search_doc')
    .columns(['state', 'user_id'])
    .execute();
  await db.schema
    .createIndex('search_doc_hash_idx')
    .on('search_doc')
    .column('content_hash')
    .execute();

  // Extracted text in chunks: snippets, exact matching and (PostgreSQL) the text index.
  await db.schema
    .createTable('search_content')
    .addColumn('doc_key', 'bigint', (c) =>
      c.notNull().references('search_doc.doc_key').onDelete('cascade'),
    )
    .addColumn('chunk', 'integer', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_content_pk', ['doc_key', 'chunk'])
    .execute();

  if (sqlite) {
    // Terms are produced by the server (CJK bigrams, folded words) and kept whole by the
    // `ascii` tokenizer; the rowid is the document key. Contentless: the text lives above.
    await sql`create virtual table search_name_fts using fts5(terms, content='', contentless_delete=1, tokenize='ascii', detail=none)`.execute(
      db,
    );
    await sql`create virtual table search_content_fts using fts5(terms, content='', contentless_delete=1, tokenize='ascii')`.execute(
      db,
    );
    // a document removed with its file (cascade) leaves the full-text tables too
    await sql`create trigger search_doc_fts_ad after delete on search_doc begin
      delete from search_name_fts where rowid = old.doc_key;
      delete from search_content_fts where rowid = old.doc_key;
    end`.execute(db);
  } else {
    await sql`alter table search_doc add column name_vec tsvector`.execute(db);
    await sql`create index search_doc_name_vec_idx on search_doc using gin (name_vec)`.execute(db);
    await sql`alter table search_content add column vec tsvector`.execute(db);
    await sql`create index search_content_vec_idx on search_content using gin (vec)`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists search_doc_fts_ad`.execute(db).catch(() => undefined);
  await sql`drop table if exists search_name_fts`.execute(db);
  await sql`drop table if exists search_content_fts`.execute(db);
  for (const table of [
    'search_content',
    'search_doc',
    'search_user',
    'search_history',
    'file_tag',
    'tag',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
