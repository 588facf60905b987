import { sql, SqliteAdapter, type Kysely } from 'kysely';
import { foldName } from '../../modules/search/tokenize.ts';

/**
 * Names are found by any part (`port` in `report.txt`): `search_doc.name_norm` becomes the
 * folded name searched in (case, compatibility forms and Latin accents folded), and
 * - SQLite: `search_name_tri`, a contentless FTS5 table of the folded names of live documents
 *   with the trigram tokenizer (pieces of three characters or more), and the name index covers
 *   `doc_key` so shorter pieces are found by reading it alone;
 * - PostgreSQL: a trigram GIN index on `name_norm` when `pg_trgm` can be installed (without it,
 *   pieces are found by reading the user's names).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;

  // the folded form, for names whose old form differs (accents, mostly)
  let after: number | string = -1;
  for (;;) {
    const rows = await sql<{ k: number | string; n: string; m: string }>`
      select doc_key as k, name as n, name_norm as m from search_doc where doc_key > ${after}
      order by doc_key limit 5000`.execute(db);
    if (rows.rows.length === 0) break;
    for (const r of rows.rows) {
      const folded = foldName(r.n);
      if (folded !== r.m)
        await sql`update search_doc set name_norm = ${folded} where doc_key = ${r.k}`.execute(db);
    }
    after = rows.rows[rows.rows.length - 1]!.k;
  }

  await sql`drop index if exists search_doc_name_idx`.execute(db);
  await sql`create index search_doc_name_idx on search_doc (user_id, live, name_norm, doc_key)`.execute(
    db,
  );

  if (sqlite) {
    await sql`create virtual table search_name_tri using fts5(name, content='', contentless_delete=1, tokenize='trigram')`.execute(
      db,
    );
    await sql`insert into search_name_tri (rowid, name) select doc_key, name_norm from search_doc where live = 1`.execute(
      db,
    );
    await sql`drop trigger if exists search_doc_fts_ad`.execute(db);
    await sql`create trigger search_doc_fts_ad after delete on search_doc begin
      delete from search_name_fts where rowid = old.doc_key;
      delete from search_name_tri where rowid = old.doc_key;
      delete from search_content_fts where rowid = old.doc_key;
    end`.execute(db);
  } else {
    const can = await sql<{ ok: boolean }>`select exists (
        select 1 from pg_available_extensions where name = 'pg_trgm'
      ) and (
        exists (select 1 from pg_extension where extname = 'pg_trgm')
        or (select rolsuper from pg_roles where rolname = current_user)
        or has_database_privilege(current_database(), 'CREATE')
      ) as ok`.execute(db);
    if (can.rows[0]?.ok) {
      await sql`create extension if not exists pg_trgm`.execute(db);
      await sql`create index search_doc_name_trgm_idx on search_doc using gin (name_norm gin_trgm_ops)`.execute(
        db,
      );
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter;
  if (sqlite) {
    await sql`drop trigger if exists search_doc_fts_ad`.execute(db);
    await sql`create trigger search_doc_fts_ad after delete on search_doc begin
      delete from search_name_fts where rowid = old.doc_key;
      delete from search_content_fts where rowid = old.doc_key;
    end`.execute(db);
    await sql`drop table if exists search_name_tri`.execute(db);
  } else {
    await sql`drop index if exists search_doc_name_trgm_idx`.execute(db);
  }
  await sql`drop index if exists search_doc_name_idx`.execute(db);
  await sql`create index search_doc_name_idx on search_doc (user_id, live, name_norm)`.execute(db);
}
