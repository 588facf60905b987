import { sql, type RawBuilder } from 'kysely';
import { startsWithPath } from '../../db/path-range.ts';
import type { Db } from '../../db/index.ts';
import { foldName, uniqueTerms, type QueryTerm } from './tokenize.ts';
import { escapeLike } from '../files/names.ts';
import { SearchRepo, type DocSource, type SearchPage, type SearchQuery } from './search.repo.ts';

/** The text of a tsquery: lexemes quoted, prefixes marked. */
function tsQuery(terms: QueryTerm[]): string {
  return terms.map((t) => `'${t.term.replace(/['\\]/g, '')}'${t.prefix ? ':*' : ''}`).join(' & ');
}

/**
 * The search index on PostgreSQL: the terms of a document's name in `search_doc.name_vec`, of
 * each stored chunk of text in `search_content.vec` (tsvectors built with `array_to_tsvector`,
 * GIN indexes; no extension needed). Trashed documents keep their vectors and are left out by
 * `live`. Every query joins the matches with the file rows.
 */
export class PostgresSearchRepo extends SearchRepo {
  /** The name index stays through a bulk build. */
  async dropNameIndex(): Promise<void> {}

  protected async insertDocs(
    trx: Db,
    userId: string,
    batch: Array<{ doc: DocSource; key: number; terms: string }>,
    now: number,
  ): Promise<void> {
    const col = <T>(pick: (b: (typeof batch)[number]) => T) => batch.map(pick);
    await sql`insert into search_doc (doc_key, file_id, user_id, name, name_norm, live, state, updated_at, name_vec)
      select k, f, ${userId}, n, nn, l, s, ${now}, array_to_tsvector(string_to_array(t, ' '))
      from unnest(${col((b) => b.key)}::bigint[], ${col((b) => b.doc.fileId)}::varchar[],
        ${col((b) => b.doc.name)}::varchar[], ${col((b) => foldName(b.doc.name))}::varchar[],
        ${col((b) => (b.doc.live ? 1 : 0))}::int[], ${col((b) => b.doc.state)}::varchar[],
        ${col((b) => b.terms)}::text[]) as x(k, f, n, nn, l, s, t)`.execute(trx);
  }

  protected async indexName(
    trx: Db,
    docKey: number,
    _live: boolean,
    terms: string[],
  ): Promise<void> {
    await sql`update search_doc set name_vec = array_to_tsvector(${terms}::text[]) where doc_key = ${docKey}`.execute(
      trx,
    );
  }

  /** Trashed documents keep their vectors: `live` leaves them out. */
  protected async unindexTrashed(): Promise<void> {}

  protected async reindexRestored(
    trx: Db,
    batch: Array<{ docKey: number; name: string; fileName: string }>,
  ): Promise<void> {
    for (const r of batch) {
      if (r.name === r.fileName) continue;
      await sql`update search_doc set name_vec = array_to_tsvector(${uniqueTerms(r.fileName)}::text[]) where doc_key = ${r.docKey}`.execute(
        trx,
      );
    }
  }

  protected async insertChunks(trx: Db, docKey: number, chunks: string[]): Promise<void> {
    for (const [i, body] of chunks.entries()) {
      await sql`insert into search_content (doc_key, chunk, body, vec)
        values (${docKey}, ${i}, ${body}, array_to_tsvector(${uniqueTerms(body)}::text[]))`.execute(
        trx,
      );
    }
  }

  /** Each stored chunk carries its own vector: nothing more to index. */
  async indexStoredText(): Promise<void> {}

  protected async unindexContent(): Promise<void> {}

  protected contains(column: RawBuilder<unknown>, text: string): RawBuilder<unknown> {
    return sql`strpos(${column}, ${text}) > 0`;
  }

  protected find(q: SearchQuery, slot: number): Promise<SearchPage> {
    return this.searchJoined(q, slot);
  }

  /**
   * Not exact: each piece anywhere in the folded name (`like`, through the trigram index when
   * the database has `pg_trgm`), CJK words by their terms. Exact: whole terms, and `verify`.
   */
  protected nameHits(q: SearchQuery, _slot: number, verify: RawBuilder<unknown>) {
    const where = [sql`d.user_id = ${q.userId}`, sql`d.live = 1`];
    if (!q.name) where.push(sql`d.name_vec @@ ${tsQuery(q.terms)}::tsquery`, verify);
    else {
      if (q.name.terms.length > 0) where.push(sql`d.name_vec @@ ${tsQuery(q.name.terms)}::tsquery`);
      for (const part of q.name.parts)
        where.push(sql`d.name_norm like ${`%${escapeLike(part)}%`} escape '\\'`);
    }
    return sql`select d.doc_key as doc_key, 0 as tier from search_doc d
      where ${sql.join(where, sql` and `)}`;
  }

  /** Every term somewhere in the document, whichever chunk holds it. */
  protected contentHits(q: SearchQuery) {
    return sql.join(
      q.terms.map(
        (t) => sql`select doc_key from search_content where vec @@ ${tsQuery([t])}::tsquery`,
      ),
      sql` intersect `,
    );
  }

  protected nameMember(q: SearchQuery) {
    const where: RawBuilder<unknown>[] = [];
    if (!q.name) {
      where.push(sql`d.name_vec @@ ${tsQuery(q.terms)}::tsquery`);
      if (q.verify) where.push(this.contains(sql.ref('d.name_norm'), foldName(q.keyword)));
    } else {
      if (q.name.terms.length > 0) where.push(sql`d.name_vec @@ ${tsQuery(q.name.terms)}::tsquery`);
      for (const part of q.name.parts)
        where.push(sql`d.name_norm like ${`%${escapeLike(part)}%`} escape '\\'`);
    }
    return where.length > 0 ? sql`(${sql.join(where, sql` and `)})` : sql`false`;
  }

  protected under(prefix: string) {
    return startsWithPath(this.db, prefix, 'f.path');
  }

  protected startsWith(column: RawBuilder<unknown>, key: string) {
    return sql`${column} like ${`${escapeLike(key)}%`} escape '\\'`;
  }

  protected docThenFile() {
    return sql`search_doc d join file f on f.id = d.file_id`;
  }

  protected fileBy() {
    return sql`file f`;
  }

  protected fileThenDoc() {
    return sql`file f join search_doc d on d.file_id = f.id`;
  }

  protected async joinedFrom() {
    return sql`best b join search_doc d on d.doc_key = b.doc_key join file f on f.id = d.file_id`;
  }
}
