import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import { startsWithPath } from '../../db/path-range.ts';
import type { Db } from '../../db/index.ts';
import { foldName, indexTerms, uniqueTerms, type QueryTerm } from './tokenize.ts';
import {
  SearchRepo,
  TIER_CAP,
  hasFilters,
  nameMatches,
  type DocSource,
  type FileIndex,
  type SearchPage,
  type SearchQuery,
  type Tier,
} from './search.repo.ts';

/** Names that equal or begin with the keyword are listed first, up to this many. */
const BOOST_CAP = 100;

/** An FTS5 query: every term quoted, prefixes starred, all required. */
function ftsQuery(terms: QueryTerm[]): string {
  return terms.map((t) => `"${t.term.replace(/"/g, '')}"${t.prefix ? '*' : ''}`).join(' AND ');
}

/** A trigram query: each piece a quoted phrase (found anywhere), all required. */
function trigramQuery(parts: string[]): string {
  return parts.map((p) => `"${p.replace(/"/g, '""')}"`).join(' AND ');
}

/** Pieces this long or longer are looked up by their trigrams; shorter ones by scanning. */
const TRIGRAM = 3;

/**
 * The search index on SQLite: contentless FTS5 tables (`search_name_fts`, `search_content_fts`)
 * keyed by document key and holding live documents only, so the common query (a user's whole
 * drive, by relevance) is answered inside the full-text index: counting and paging need no
 * join. Text of a restored document goes back into its table through the content job.
 */
export class SqliteSearchRepo extends SearchRepo {
  /**
   * A bulk build into an empty index adds a million rows in random name order to this index;
   * made afterwards from sorted rows it costs a fraction. Queries fall back to scanning
   * meanwhile, and a build cut short gets the index back at the next start.
   */
  async dropNameIndex(): Promise<void> {
    await sql`drop index if exists search_doc_name_idx`.execute(this.db);
  }

  protected async insertDocs(
    trx: Db,
    userId: string,
    batch: Array<{ doc: DocSource; key: number; terms: string }>,
    now: number,
  ): Promise<void> {
    // built by hand: compiling thousands of parameters through the query builder costs more
    // than the insert itself
    const values: unknown[] = [];
    for (const { doc, key } of batch)
      values.push(
        key,
        doc.fileId,
        userId,
        doc.name,
        foldName(doc.name),
        doc.live ? 1 : 0,
        doc.state,
        now,
      );
    await trx.executeQuery(
      CompiledQuery.raw(
        `insert into search_doc (doc_key, file_id, user_id, name, name_norm, live, state, updated_at) values ${batch.map(() => '(?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
        values,
      ),
    );
    const live = batch.filter((b) => b.doc.live);
    if (live.length > 0) {
      await trx.executeQuery(
        CompiledQuery.raw(
          `insert into search_name_fts (rowid, terms) values ${live.map(() => '(?, ?)').join(', ')}`,
          live.flatMap((b) => [b.key, b.terms]),
        ),
      );
      await trx.executeQuery(
        CompiledQuery.raw(
          `insert into search_name_tri (rowid, name) values ${live.map(() => '(?, ?)').join(', ')}`,
          live.flatMap((b) => [b.key, foldName(b.doc.name)]),
        ),
      );
    }
  }

  protected async indexName(
    trx: Db,
    docKey: number,
    live: boolean,
    terms: string[],
    nameNorm: string,
  ): Promise<void> {
    await sql`delete from search_name_fts where rowid = ${docKey}`.execute(trx);
    await sql`delete from search_name_tri where rowid = ${docKey}`.execute(trx);
    if (live) {
      await sql`insert into search_name_fts (rowid, terms) values (${docKey}, ${terms.join(' ')})`.execute(
        trx,
      );
      await sql`insert into search_name_tri (rowid, name) values (${docKey}, ${nameNorm})`.execute(
        trx,
      );
    }
  }

  protected async unindexTrashed(trx: Db, userId: string, trashIds: string[]): Promise<void> {
    const docs = this.liveDocsInTrash(trx, userId, trashIds);
    await sql`delete from search_name_fts where rowid in (${docs})`.execute(trx);
    await sql`delete from search_name_tri where rowid in (${docs})`.execute(trx);
    await sql`delete from search_content_fts where rowid in (${docs})`.execute(trx);
  }

  protected async reindexRestored(
    trx: Db,
    batch: Array<{ docKey: number; fileName: string }>,
  ): Promise<void> {
    await sql`insert into search_name_fts (rowid, terms) values ${sql.join(
      batch.map((r) => sql`(${r.docKey}, ${uniqueTerms(r.fileName).join(' ')})`),
    )}`.execute(trx);
    await sql`insert into search_name_tri (rowid, name) values ${sql.join(
      batch.map((r) => sql`(${r.docKey}, ${foldName(r.fileName)})`),
    )}`.execute(trx);
    // stored text is put back into the full-text table by the content job
    await trx
      .updateTable('searchDoc')
      .set({ state: 'pending' })
      .where(
        'docKey',
        'in',
        batch.map((r) => r.docKey),
      )
      .where('state', '=', 'done')
      .execute();
  }

  protected async insertChunks(trx: Db, docKey: number, chunks: string[]): Promise<void> {
    for (let i = 0; i < chunks.length; i += 20) {
      await trx
        .insertInto('searchContent')
        .values(chunks.slice(i, i + 20).map((body, j) => ({ docKey, chunk: i + j, body })))
        .execute();
    }
  }

  async indexStoredText(trx: Db, docKey: number, chunks?: string[]): Promise<void> {
    const bodies = chunks ?? (await this.storedChunks(trx, docKey));
    await sql`delete from search_content_fts where rowid = ${docKey}`.execute(trx);
    if (bodies.length === 0) return;
    // terms are joined per chunk so a huge text never becomes one array of millions of terms
    const terms = bodies.map((b) => indexTerms(b).join(' ')).join(' ');
    await sql`insert into search_content_fts (rowid, terms) values (${docKey}, ${terms})`.execute(
      trx,
    );
  }

  protected async unindexContent(trx: Db, docKey: number): Promise<void> {
    await sql`delete from search_content_fts where rowid = ${docKey}`.execute(trx);
  }

  protected contains(column: RawBuilder<unknown>, text: string): RawBuilder<unknown> {
    return sql`instr(${column}, ${text}) > 0`;
  }

  protected find(q: SearchQuery, slot: number): Promise<SearchPage> {
    const general = hasFilters(q.filters) || q.sort !== undefined;
    return general ? this.searchJoined(q, slot) : this.searchFast(q, slot);
  }

  /**
   * Whole drive, by relevance: counts and pages come from the full-text index alone; only the
   * page's rows are read from the tables. Order: names equal to or beginning with the keyword,
   * other name matches (newest first), tag matches, content matches (best first).
   */
  private async searchFast(q: SearchQuery, slot: number): Promise<SearchPage> {
    const [lo, hi] = this.range(slot);
    const match = ftsQuery(q.terms);
    const names = this.nameSet(q, slot);

    let nameCount = 0;
    let boosted: number[] = [];
    if (q.includeName) {
      const counted = await sql<{
        n: number;
      }>`select count(*) as n from (${names})`.execute(this.db);
      nameCount = Number(counted.rows[0]?.n ?? 0);
      const key = q.name?.key ?? foldName(q.keyword);
      if (nameCount > 0 && key) {
        const prefixed = await this.db
          .selectFrom('searchDoc')
          .select(['docKey', 'name'])
          .where('userId', '=', q.userId)
          .where('live', '=', 1)
          .where('nameNorm', '>=', key)
          .where('nameNorm', '<', `${key}\u{10ffff}`)
          .orderBy(sql`name_norm = ${key}`, 'desc')
          .orderBy('nameNorm')
          .limit(BOOST_CAP)
          .execute();
        boosted = prefixed.filter((r) => nameMatches(r.name, q)).map((r) => Number(r.docKey));
      }
    }

    // tag matches that are not name matches
    let tagged: number[] = [];
    if (q.tagIds.length > 0) {
      const rows = await sql<{
        docKey: number;
      }>`select distinct d.doc_key as doc_key from file_tag ft
        join search_doc d on d.file_id = ft.file_id
        where ft.tag_id in (${sql.join(q.tagIds)}) and d.live = 1 and d.user_id = ${q.userId}
        order by d.doc_key desc limit ${TIER_CAP}`.execute(this.db);
      tagged = rows.rows.map((r) => Number(r.docKey));
      if (q.includeName && tagged.length > 0) tagged = await this.withoutNameHits(tagged, q);
    }

    // content matches that are neither
    let content: number[] = [];
    if (q.includeContent) {
      const verify = q.verify
        ? sql`exists (select 1 from search_content c where c.doc_key = search_content_fts.rowid and ${this.contains(sql`lower(c.body)`, q.keyword)})`
        : sql`1 = 1`;
      const rows = await sql<{
        rowid: number;
      }>`select rowid from search_content_fts where search_content_fts match ${match}
        and rowid between ${lo} and ${hi} and ${verify} order by rank limit ${TIER_CAP}`.execute(
        this.db,
      );
      content = rows.rows.map((r) => Number(r.rowid));
      if (q.includeName && content.length > 0) content = await this.withoutNameHits(content, q);
      const taggedSet = new Set(tagged);
      content = content.filter((k) => !taggedSet.has(k));
    }

    const total = nameCount + tagged.length + content.length;
    const keys: Array<{ key: number; tier: Tier }> = [];
    let offset = q.offset;
    let limit = q.limit;
    const take = (list: number[], tier: Tier) => {
      const part = list.slice(offset, offset + limit);
      keys.push(...part.map((key) => ({ key, tier })));
      offset = Math.max(0, offset - list.length);
      limit -= part.length;
    };
    take(boosted, 0);
    const rest = nameCount - boosted.length;
    if (limit > 0 && offset < rest) {
      const skip = boosted.length > 0 ? sql`doc_key not in (${sql.join(boosted)})` : sql`1 = 1`;
      const rows = await sql<{ docKey: number }>`select doc_key from (${names})
        where ${skip} order by doc_key desc limit ${limit} offset ${offset}`.execute(this.db);
      for (const r of rows.rows) keys.push({ key: Number(r.docKey), tier: 0 });
      limit -= rows.rows.length;
      offset = 0;
    } else offset = Math.max(0, offset - rest);
    if (limit > 0) take(tagged, 1);
    if (limit > 0) take(content, 2);
    return { hits: await this.fileIdsOf(keys), total };
  }

  /**
   * The documents of a list that do not match by name. Decided on their names here rather
   * than by the full-text index: FTS5 would run the whole query again for every key given.
   */
  private async withoutNameHits(keys: number[], q: SearchQuery): Promise<number[]> {
    const hits = new Set<number>();
    for (let i = 0; i < keys.length; i += 500) {
      const rows = await this.db
        .selectFrom('searchDoc')
        .select(['docKey', 'name'])
        .where('docKey', 'in', keys.slice(i, i + 500))
        .execute();
      for (const r of rows) if (nameMatches(r.name, q)) hits.add(Number(r.docKey));
    }
    return keys.filter((k) => !hits.has(k));
  }

  private async fileIdsOf(keys: Array<{ key: number; tier: Tier }>): Promise<SearchPage['hits']> {
    if (keys.length === 0) return [];
    const rows = await this.db
      .selectFrom('searchDoc')
      .select(['docKey', 'fileId'])
      .where(
        'docKey',
        'in',
        keys.map((k) => k.key),
      )
      .execute();
    const files = new Map(rows.map((r) => [Number(r.docKey), r.fileId]));
    return keys
      .filter((k) => files.has(k.key))
      .map((k) => ({ fileId: files.get(k.key)!, docKey: k.key, tier: k.tier }));
  }

  protected nameHits(q: SearchQuery, slot: number) {
    return sql`select doc_key, 0 as tier from (${this.nameSet(q, slot)})`;
  }

  /**
   * The user's live documents whose names match, as `doc_key`s. Not exact: pieces of three
   * characters or more through the trigram index, CJK words through the term index, and
   * shorter pieces by reading the folded names (of the candidates, or of the user's names in
   * the name index). Exact: whole terms, and the keyword as typed.
   */
  private nameSet(q: SearchQuery, slot: number): RawBuilder<unknown> {
    const [lo, hi] = this.range(slot);
    if (!q.name) {
      const verify = q.verify
        ? sql` and exists (select 1 from search_doc d where d.doc_key = search_name_fts.rowid and ${this.contains(sql.ref('d.name_norm'), foldName(q.keyword))})`
        : sql``;
      return sql`select rowid as doc_key from search_name_fts
        where search_name_fts match ${ftsQuery(q.terms)} and rowid between ${lo} and ${hi}${verify}`;
    }
    const { parts, terms } = q.name;
    const long = parts.filter((p) => [...p].length >= TRIGRAM);
    const short = parts.filter((p) => [...p].length < TRIGRAM);
    // each index answers its own part once, and the parts are intersected: a `rowid in (…)`
    // beside a MATCH would make FTS5 run its query again for every key
    const sets: RawBuilder<unknown>[] = [];
    if (long.length > 0)
      sets.push(sql`select rowid as doc_key from search_name_tri
        where search_name_tri match ${trigramQuery(long)} and rowid between ${lo} and ${hi}`);
    if (terms.length > 0)
      sets.push(sql`select rowid as doc_key from search_name_fts
        where search_name_fts match ${ftsQuery(terms)} and rowid between ${lo} and ${hi}`);
    if (sets.length > 0) {
      const found = sql.join(sets, sql` intersect `);
      if (short.length === 0)
        return sets.length === 1 ? found : sql`select doc_key from (${found})`;
      const reads = short.map(
        (p) =>
          sql`exists (select 1 from search_doc d where d.doc_key = s.doc_key and instr(d.name_norm, ${p}) > 0)`,
      );
      return sql`select doc_key from (${found}) s where ${sql.join(reads, sql` and `)}`;
    }
    // one or two characters only: the user's names, read from the name index
    const where = [
      sql`user_id = ${q.userId}`,
      sql`live = 1`,
      ...short.map((p) => sql`instr(name_norm, ${p}) > 0`),
    ];
    return sql`select doc_key from search_doc where ${sql.join(where, sql` and `)}`;
  }

  protected contentHits(q: SearchQuery, slot: number) {
    const [lo, hi] = this.range(slot);
    return sql`select rowid as doc_key from search_content_fts
      where search_content_fts match ${ftsQuery(q.terms)} and rowid between ${lo} and ${hi}`;
  }

  protected nameMember(q: SearchQuery, slot: number) {
    // pieces are read in the row's folded name; terms (and exact searches) through an
    // uncorrelated IN: the index's matches are found once, then looked up per row
    if (!q.name) return sql`d.doc_key in (${this.nameSet(q, slot)})`;
    const [lo, hi] = this.range(slot);
    const tests = q.name.parts.map((p) => sql`instr(d.name_norm, ${p}) > 0`);
    if (q.name.terms.length > 0)
      tests.push(sql`d.doc_key in (select rowid from search_name_fts
        where search_name_fts match ${ftsQuery(q.name.terms)} and rowid between ${lo} and ${hi})`);
    return tests.length > 0 ? sql`(${sql.join(tests, sql` and `)})` : sql`0`;
  }

  protected under(prefix: string) {
    return startsWithPath(this.db, prefix, 'f.path');
  }

  protected startsWith(column: RawBuilder<unknown>, key: string) {
    return sql`(${column} >= ${key} and ${column} < ${`${key}\u{10ffff}`})`;
  }

  protected docThenFile() {
    return sql`search_doc d cross join file f on f.id = d.file_id`;
  }

  /**
   * Named: the statistics SQLite samples (`analysis_limit`) can make a user's rows look few,
   * and the plan would read all of them through another index.
   */
  protected fileBy(index: FileIndex) {
    const name = {
      path: 'file_path_idx',
      updateDate: 'file_live_user_update_date_idx',
      size: 'file_live_user_size_idx',
    }[index];
    return sql`file f indexed by ${sql.raw(name)}`;
  }

  protected fileThenDoc(index: FileIndex) {
    return sql`${this.fileBy(index)} cross join search_doc d on d.file_id = f.id`;
  }

  /** SQLite plans without statistics: the joins are ordered by hand, from the matches. */
  protected async joinedFrom(_q: SearchQuery, _slot: number, where: RawBuilder<unknown>[]) {
    where.push(sql`d.doc_key = b.doc_key`, sql`f.id = d.file_id`);
    return sql`best b cross join search_doc d cross join file f`;
  }
}
