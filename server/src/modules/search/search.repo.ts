import { sql, type RawBuilder } from 'kysely';
import { startsWithPath } from '../../db/path-range.ts';
import { SearchLanesRepo } from './search-lanes.repo.ts';
import {
  hasFilters,
  type SearchFilters,
  type SearchPage,
  type SearchQuery,
  type SortProp,
  type Tier,
} from './search-types.ts';
import { foldName } from './tokenize.ts';

export * from './search-types.ts';

/** The file indexes a search plan reads: below a folder, or by a column (migration 025). */
export type FileIndex = 'path' | 'updateDate' | 'size';

/** A folder with at most this many rows below it is searched by reading them. */
const SUBTREE_READ = 20_000;
/** Sorted searches with fewer matches than this join them with their files instead of walking. */
const WALK_MIN_MATCHES = 3_000;
/** The columns a user's live files are indexed by (migration 025), so sorted searches walk them. */
const WALKED = new Set<SortProp>(['updateDate', 'size']);
const isWalked = (prop: SortProp): prop is 'updateDate' | 'size' => WALKED.has(prop);

/**
 * The search index, as the services use it: its documents and stored text
 * (`search-docs.repo.ts`), the queues of the content lanes (`search-lanes.repo.ts`) and, here,
 * finding what matches a query. The full-text structures are each database's own, in its
 * backend chosen once where the services are wired: `search.sqlite.ts` (FTS5 tables holding live
 * documents only, so a user's whole drive is searched inside the full-text index) and
 * `search.postgres.ts` (tsvector columns with GIN indexes on the document and content rows).
 */
export abstract class SearchRepo extends SearchLanesRepo {
  // ---- the backend: what each database does its own way -----------------------------------

  /** One page of matches of a user's query (the user has a slot, the query has terms). */
  protected abstract find(q: SearchQuery, slot: number): Promise<SearchPage>;

  /** `column` contains `text` (case as given). */
  protected abstract contains(column: RawBuilder<unknown>, text: string): RawBuilder<unknown>;

  // ---- search -----------------------------------------------------------------------------

  async search(q: SearchQuery): Promise<SearchPage> {
    const slot = await this.slotOf(q.userId);
    if (slot === undefined || q.limit <= 0) return { hits: [], total: 0 };
    const byName = q.name ? q.name.parts.length + q.name.terms.length > 0 : q.terms.length > 0;
    if (!byName && q.terms.length === 0) return { hits: [], total: 0 };
    // text and tags are found by words: a keyword of symbols only (`%`) looks at names
    if (q.terms.length === 0) q = { ...q, includeContent: false, tagIds: [] };
    if (!byName) q = { ...q, includeName: false };
    return this.find(q, slot);
  }

  /** The matching branch of names, for the joined query. */
  protected abstract nameHits(
    q: SearchQuery,
    slot: number,
    verify: RawBuilder<unknown>,
  ): RawBuilder<unknown>;

  /** The documents whose text holds every term, for the joined query. */
  protected abstract contentHits(q: SearchQuery, slot: number): RawBuilder<unknown>;

  /**
   * Where the joined query reads from: the best tier per document (`b`), its document (`d`)
   * and file (`f`); join conditions it needs go into `where`.
   */
  protected abstract joinedFrom(
    q: SearchQuery,
    slot: number,
    where: RawBuilder<unknown>[],
  ): Promise<RawBuilder<unknown>>;

  /** The document `d` matches by name (a test on its row, or membership in the matches). */
  protected abstract nameMember(q: SearchQuery, slot: number): RawBuilder<unknown>;

  /**
   * The file `f` is below the folder whose children have the path `prefix`: a range of the
   * (user, path) index, checked exactly.
   */
  protected abstract under(prefix: string): RawBuilder<unknown>;

  /** The tier of the document `d` (0 name, 1 tag, 2 content), null when it does not match. */
  private tierOf(q: SearchQuery, slot: number): RawBuilder<unknown> | undefined {
    const tests: RawBuilder<unknown>[] = [];
    if (q.includeName) tests.push(sql`when ${this.nameMember(q, slot)} then 0`);
    if (q.tagIds.length > 0)
      tests.push(sql`when d.file_id in (select ft.file_id from file_tag ft
        where ft.tag_id in (${sql.join(q.tagIds)})) then 1`);
    if (q.includeContent) {
      const verify = q.verify
        ? sql`exists (select 1 from search_content c where c.doc_key = m.doc_key and ${this.contains(sql`lower(c.body)`, q.keyword)})`
        : sql`1 = 1`;
      tests.push(sql`when d.doc_key in (select m.doc_key from (${this.contentHits(q, slot)}) m
        where ${verify}) then 2`);
    }
    return tests.length > 0 ? sql`case ${sql.join(tests, sql` `)} end` : undefined;
  }

  /** The filters' conditions on the file `f`, the folder's included. */
  private fileFilters(q: SearchQuery): RawBuilder<unknown>[] {
    const f = q.filters;
    const where: RawBuilder<unknown>[] = [];
    if (f.prefix && f.prefix !== '/') where.push(this.under(f.prefix));
    if (f.fileType) where.push(sql`f.file_type = ${f.fileType}`);
    if (f.isFolder !== undefined) where.push(sql`f.is_folder = ${f.isFolder ? 1 : 0}`);
    if (f.isFavorite) where.push(sql`f.is_favorite = 1`);
    if (f.tagId)
      where.push(
        sql`exists (select 1 from file_tag t where t.file_id = f.id and t.tag_id = ${f.tagId})`,
      );
    if (f.modifiedFrom !== undefined) where.push(sql`f.update_date >= ${f.modifiedFrom}`);
    if (f.modifiedTo !== undefined) where.push(sql`f.update_date <= ${f.modifiedTo}`);
    if (f.sizeMin !== undefined || f.sizeMax !== undefined) {
      where.push(sql`f.is_folder = 0`);
      if (f.sizeMin !== undefined) where.push(sql`f.size >= ${f.sizeMin}`);
      if (f.sizeMax !== undefined) where.push(sql`f.size <= ${f.sizeMax}`);
    }
    return where;
  }

  /**
   * The order of the results, over the columns of `x`. By relevance: name matches, then tag,
   * then content matches; among names the one equal to the keyword, then those beginning with
   * it (by name), then the rest; newest document first. Sorted: names beginning with the
   * keyword first, then the column asked for, then the name, then the file id (so equal
   * values always come in one order, whichever way the query was planned).
   */
  private orderOf(q: SearchQuery): RawBuilder<unknown> {
    const key = q.name?.key ?? foldName(q.keyword);
    const keyLength = [...key].length;
    const prefixed = sql`x.tier = 0 and substr(x.name_norm, 1, ${keyLength}) = ${key}`;
    if (q.sort)
      return sql`case when ${prefixed} then 0 else 1 end,
        x.sort_value ${sql.raw(q.sort.order === 'descending' ? 'desc' : 'asc')}, x.name asc,
        x.file_id asc`;
    return sql`x.tier, case when x.tier = 0 and x.name_norm = ${key} then 0
        when ${prefixed} then 1 else 2 end,
        case when ${prefixed} then x.name_norm end,
        x.doc_key desc`;
  }

  /**
   * Any filter, any order (and every PostgreSQL query). Planned from the most selective side:
   * a folder of a few files is read whole and each of its files tested against the matches;
   * otherwise the matches are joined with their file rows.
   */
  protected async searchJoined(q: SearchQuery, slot: number): Promise<SearchPage> {
    const tier = this.tierOf(q, slot);
    if (!tier) return { hits: [], total: 0 };
    const filters = this.fileFilters(q);
    const sortColumn = q.sort
      ? {
          name: sql.ref('f.name'),
          size: sql.ref('f.size'),
          updateDate: sql.ref('f.update_date'),
          uploadDate: sql.ref('f.upload_date'),
        }[q.sort.prop]
      : sql`0`;
    const prefix = q.filters.prefix;
    if (prefix && prefix !== '/' && (await this.smallSubtree(q.userId, prefix))) {
      // from the folder: each of its files looked up in the matches
      const rows = await sql<{ fileId: string; docKey: number; tier: number; total: number }>`
        select x.file_id, x.doc_key, x.tier, count(*) over () as total from (
          select f.id as file_id, d.doc_key as doc_key, ${tier} as tier,
            d.name_norm as name_norm, f.name as name, ${sortColumn} as sort_value
          from ${this.fileThenDoc('path')}
          where f.user_id = ${q.userId} and f.trash_id is null and d.live = 1
            and ${sql.join(filters, sql` and `)}
        ) x where x.tier is not null
        order by ${this.orderOf(q)}
        limit ${q.limit} offset ${q.offset}`.execute(this.db);
      return this.pageOf(rows.rows, async () => {
        const counted = await sql<{ n: number }>`select count(*) as n from (
            select ${tier} as tier from ${this.fileThenDoc('path')}
            where f.user_id = ${q.userId} and f.trash_id is null and d.live = 1
              and ${sql.join(filters, sql` and `)}) x where x.tier is not null`.execute(this.db);
        return Number(counted.rows[0]?.n ?? 0);
      });
    }
    if (q.sort && isWalked(q.sort.prop) && !hasFilters(q.filters)) {
      const walked = await this.sortedWalk(q, slot, tier, sortColumn);
      if (walked) return walked;
    }
    return this.fromMatches(q, slot, filters, sortColumn);
  }

  /**
   * Sorted, without filters: the total is counted in the indexes of the matches alone, and the
   * page is read by walking the user's files in the order asked for (an index on the user and
   * the column), each looked up in the matches, until the page is full; names beginning with
   * the keyword first, read the same way or, when few, from the name index. Left to the join
   * when the matches are few (the walk would read many files for each match).
   */
  private async sortedWalk(
    q: SearchQuery,
    slot: number,
    tier: RawBuilder<unknown>,
    sortColumn: RawBuilder<unknown>,
  ): Promise<SearchPage | undefined> {
    const branches = this.matchBranches(q, slot);
    const counted = await sql<{ n: number }>`with hits as (${sql.join(branches, sql` union all `)})
      select count(*) as n from (select doc_key from hits group by doc_key) x`.execute(this.db);
    const total = Number(counted.rows[0]?.n ?? 0);
    const key = q.name?.key ?? foldName(q.keyword);
    if (total <= WALK_MIN_MATCHES || !key) return undefined;
    const want = q.offset + q.limit;
    const direction = sql.raw(q.sort!.order === 'descending' ? 'desc' : 'asc');
    const prefixed = this.startsWith(sql.ref('d.name_norm'), key);
    type Row = { fileId: string; docKey: number; tier: number };
    const walk = async (where: RawBuilder<unknown>, tierOf: RawBuilder<unknown>, n: number) => {
      // walked in the column's order alone (the index's), stopping at `n`; then the rows equal
      // to the last one's value are read whole, so every group of equal values is complete
      // and the final order (name, then id) is exact
      const cols = sql`f.id as file_id, d.doc_key as doc_key, ${tierOf} as tier,
        ${sortColumn} as sort_value, f.name as name`;
      const from = sql`from ${this.fileThenDoc(q.sort!.prop as FileIndex)}
        where f.user_id = ${q.userId} and f.trash_id is null and d.live = 1 and ${where}`;
      const back = sql.raw(q.sort!.order === 'descending' ? 'asc' : 'desc');
      const rows = await sql<Row>`with page as (
          select ${cols} ${from} order by ${sortColumn} ${direction} limit ${n}),
        edge as (select sort_value from page order by sort_value ${back} limit 1)
        select x.file_id, x.doc_key, x.tier from (
          select * from page
          union select ${cols} ${from} and ${sortColumn} = (select sort_value from edge)
        ) x order by x.sort_value ${direction}, x.name asc, x.file_id asc
        limit ${n}`.execute(this.db);
      return rows.rows;
    };
    let first: Row[] = [];
    if (q.includeName) {
      const few = await sql<{ n: number }>`select count(*) as n from (select 1 from search_doc d
          where d.user_id = ${q.userId} and d.live = 1 and ${prefixed}
          limit ${WALK_MIN_MATCHES + 1}) x`.execute(this.db);
      const match = sql`d.user_id = ${q.userId} and ${prefixed} and ${this.nameMember(q, slot)}`;
      if (Number(few.rows[0]?.n ?? 0) <= WALK_MIN_MATCHES) {
        // few names begin with the keyword: read from the name index, sorted
        const rows = await sql<Row>`select f.id as file_id, d.doc_key as doc_key, 0 as tier
          from ${this.docThenFile()}
          where f.user_id = ${q.userId} and f.trash_id is null and d.live = 1 and ${match}
          order by ${sortColumn} ${direction}, f.name asc, f.id asc
          limit ${want}`.execute(this.db);
        first = rows.rows;
      } else first = await walk(match, sql`0`, want);
    }
    let rest: Row[] = [];
    if (first.length < want)
      rest = await walk(
        q.includeName
          ? sql`(${tier}) is not null
            and not (${this.nameMember(q, slot)} and ${this.startsWith(sql.ref('d.name_norm'), key)})`
          : sql`(${tier}) is not null`,
        tier,
        want - first.length,
      );
    return {
      hits: [...first, ...rest].slice(q.offset, want).map((r) => ({
        fileId: r.fileId,
        docKey: Number(r.docKey),
        tier: Number(r.tier) as Tier,
      })),
      total,
    };
  }

  /** `column` begins with `key` (through an index where one serves). */
  protected abstract startsWith(column: RawBuilder<unknown>, key: string): RawBuilder<unknown>;

  /** `search_doc d` joined with its file `f`, read in that order. */
  protected abstract docThenFile(): RawBuilder<unknown>;

  /** `file f` joined with its document `d`, read in that order. */
  protected abstract fileThenDoc(index: FileIndex): RawBuilder<unknown>;

  /** `file f`, read through the index named (where the database takes a hint). */
  protected abstract fileBy(index: FileIndex): RawBuilder<unknown>;

  /** A folder's subtree holds few enough rows to be read whole. */
  private async smallSubtree(userId: string, prefix: string): Promise<boolean> {
    const counted = await sql<{ n: number }>`select count(*) as n from (
        select 1 from ${this.fileBy('path')} where f.user_id = ${userId} and f.trash_id is null
          and ${this.under(prefix)} limit ${SUBTREE_READ + 1}) x`.execute(this.db);
    return Number(counted.rows[0]?.n ?? 0) <= SUBTREE_READ;
  }

  private async pageOf(
    rows: Array<{ fileId: string; docKey: number; tier: number; total: number }>,
    count: () => Promise<number>,
  ): Promise<SearchPage> {
    // a page past the end carries no total: count it
    const total = rows.length > 0 ? Number(rows[0]!.total) : await count();
    return {
      hits: rows.map((r) => ({
        fileId: r.fileId,
        docKey: Number(r.docKey),
        tier: Number(r.tier) as Tier,
      })),
      total,
    };
  }

  /** The user's live documents that match, each with its tier (a document may repeat). */
  private matchBranches(q: SearchQuery, slot: number): RawBuilder<unknown>[] {
    const branches: RawBuilder<unknown>[] = [];
    if (q.includeName) {
      const verify =
        q.verify && !q.name
          ? this.contains(sql.ref('d.name_norm'), foldName(q.keyword))
          : sql`1 = 1`;
      branches.push(this.nameHits(q, slot, verify));
    }
    if (q.tagIds.length > 0) {
      branches.push(sql`select d.doc_key as doc_key, 1 as tier from file_tag ft
        join search_doc d on d.file_id = ft.file_id
        where ft.tag_id in (${sql.join(q.tagIds)}) and d.user_id = ${q.userId} and d.live = 1`);
    }
    if (q.includeContent) {
      const verify = q.verify
        ? sql`exists (select 1 from search_content c where c.doc_key = m.doc_key and ${this.contains(sql`lower(c.body)`, q.keyword)})`
        : sql`1 = 1`;
      branches.push(
        sql`select m.doc_key as doc_key, 2 as tier from (${this.contentHits(q, slot)}) m
          where ${verify} and exists (select 1 from search_doc cd where cd.doc_key = m.doc_key
            and cd.user_id = ${q.userId} and cd.live = 1)`,
      );
    }
    return branches;
  }

  /** The matches joined with their file rows. */
  private async fromMatches(
    q: SearchQuery,
    slot: number,
    filters: RawBuilder<unknown>[],
    sortColumn: RawBuilder<unknown>,
  ): Promise<SearchPage> {
    const branches = this.matchBranches(q, slot);
    const where: RawBuilder<unknown>[] = [
      sql`f.user_id = ${q.userId}`,
      sql`f.trash_id is null`,
      sql`d.live = 1`,
      ...filters,
    ];
    const from = await this.joinedFrom(q, slot, where);
    const hits = sql`with hits as (${sql.join(branches, sql` union all `)}),
      best as (select doc_key, min(tier) as tier from hits group by doc_key)`;
    const inner = sql`select f.id as file_id, b.doc_key as doc_key, b.tier as tier,
        d.name_norm as name_norm, f.name as name, ${sortColumn} as sort_value
      from ${from} where ${sql.join(where, sql` and `)}`;
    const rows = await sql<{ fileId: string; docKey: number; tier: number; total: number }>`${hits}
      select x.file_id, x.doc_key, x.tier, count(*) over () as total from (${inner}) x
      order by ${this.orderOf(q)}
      limit ${q.limit} offset ${q.offset}`.execute(this.db);
    return this.pageOf(rows.rows, async () => {
      const counted = await sql<{
        n: number;
      }>`${hits} select count(*) as n from (${inner}) x`.execute(this.db);
      return Number(counted.rows[0]?.n ?? 0);
    });
  }

  /** Browsing with filters only (no keyword): the user's live files that pass them. */
  async filterOnly(
    userId: string,
    filters: SearchFilters,
    sort: { prop: SortProp; order: 'ascending' | 'descending' },
    offset: number,
    limit: number,
  ): Promise<{ fileIds: string[]; total: number }> {
    let query = this.db
      .selectFrom('file as f')
      .where('f.userId', '=', userId)
      .where('f.trashId', 'is', null);
    const f = filters;
    if (f.prefix && f.prefix !== '/')
      query = query.where(startsWithPath(this.db, f.prefix, 'f.path'));
    if (f.fileType) query = query.where('f.fileType', '=', f.fileType);
    if (f.isFolder !== undefined) query = query.where('f.isFolder', '=', f.isFolder ? 1 : 0);
    if (f.isFavorite) query = query.where('f.isFavorite', '=', 1);
    if (f.tagId)
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('fileTag as t')
            .select('t.fileId')
            .whereRef('t.fileId', '=', 'f.id')
            .where('t.tagId', '=', f.tagId!),
        ),
      );
    if (f.modifiedFrom !== undefined) query = query.where('f.updateDate', '>=', f.modifiedFrom);
    if (f.modifiedTo !== undefined) query = query.where('f.updateDate', '<=', f.modifiedTo);
    if (f.sizeMin !== undefined || f.sizeMax !== undefined) {
      query = query.where('f.isFolder', '=', 0);
      if (f.sizeMin !== undefined) query = query.where('f.size', '>=', f.sizeMin);
      if (f.sizeMax !== undefined) query = query.where('f.size', '<=', f.sizeMax);
    }
    const column = {
      name: 'f.name',
      size: 'f.size',
      updateDate: 'f.updateDate',
      uploadDate: 'f.uploadDate',
    } as const;
    const rows = await query
      .select(['f.id', sql<number>`count(*) over ()`.as('total')])
      .orderBy(column[sort.prop], sort.order === 'descending' ? 'desc' : 'asc')
      .orderBy('f.name')
      .limit(limit)
      .offset(offset)
      .execute();
    return { fileIds: rows.map((r) => r.id), total: rows.length > 0 ? Number(rows[0]!.total) : 0 };
  }

  /** The first stored chunk of a document holding one of the words, for a snippet. */
  async chunkWith(docKey: number, words: string[]): Promise<string | undefined> {
    for (const word of words) {
      const row = await this.db
        .selectFrom('searchContent')
        .select('body')
        .where('docKey', '=', docKey)
        .where(this.contains(sql`lower(body)`, word.toLowerCase()) as RawBuilder<boolean>)
        .orderBy('chunk')
        .limit(1)
        .executeTakeFirst();
      if (row) return row.body;
    }
    const first = await this.db
      .selectFrom('searchContent')
      .select('body')
      .where('docKey', '=', docKey)
      .orderBy('chunk')
      .limit(1)
      .executeTakeFirst();
    return first?.body;
  }
}
