import { CompiledQuery, sql, type RawBuilder } from 'kysely';
import type { Db, Dialect } from '../../db/index.ts';
import { indexTerms, normalizeText, uniqueTerms, type QueryTerm } from './tokenize.ts';

/** Document keys are `slot * KEY_SPAN + sequence`: each user owns one contiguous range. */
export const KEY_SPAN = 2 ** 36;
/** Stored text is kept in chunks of this many characters (PostgreSQL indexes each chunk). */
export const CHUNK_CHARS = 20_000;
/** Tag and content tiers are materialized up to this many documents per query. */
export const TIER_CAP = 10_000;
/** Names that equal or begin with the keyword are listed first, up to this many. */
const BOOST_CAP = 100;

export type DocState =
  'none' | 'pending' | 'pending_ocr' | 'running' | 'running_ocr' | 'done' | 'failed' | 'skipped';

/** A file or folder to index by name. */
export interface DocSource {
  fileId: string;
  userId: string;
  name: string;
  live: boolean;
  state: DocState;
}

export interface SearchFilters {
  /** Only below this folder (`/a/b/`); the whole drive when absent. */
  prefix?: string;
  fileType?: string;
  isFolder?: boolean;
  isFavorite?: boolean;
  tagId?: string;
  modifiedFrom?: number;
  modifiedTo?: number;
  sizeMin?: number;
  sizeMax?: number;
}

export type SortProp = 'name' | 'size' | 'updateDate' | 'uploadDate';

export interface SearchQuery {
  userId: string;
  terms: QueryTerm[];
  /** The folded keyword: exact matching and ranking. */
  keyword: string;
  /** The keyword must occur as typed (folded), not only its words. */
  verify: boolean;
  includeName: boolean;
  /** Tags of the user whose names match the keyword. */
  tagIds: string[];
  includeContent: boolean;
  filters: SearchFilters;
  sort?: { prop: SortProp; order: 'ascending' | 'descending' };
  offset: number;
  limit: number;
}

/** Where a result matched: 0 its name, 1 one of its tags, 2 its content. */
export type Tier = 0 | 1 | 2;

export interface SearchPage {
  hits: Array<{ fileId: string; docKey: number; tier: Tier }>;
  total: number;
}

const hasFilters = (f: SearchFilters) => Object.values(f).some((v) => v !== undefined);

/** Whether a name matches a query, decided as the index decides (same terms, same rules). */
export function nameMatches(name: string, q: Pick<SearchQuery, 'terms' | 'verify' | 'keyword'>) {
  const terms = uniqueTerms(name);
  const all = q.terms.every((c) =>
    terms.some((t) => (c.prefix ? t.startsWith(c.term) : t === c.term)),
  );
  return all && (!q.verify || normalizeText(name).includes(q.keyword));
}

/** The text of a tsquery for PostgreSQL: lexemes quoted, prefixes marked. */
function tsQuery(terms: QueryTerm[]): string {
  return terms.map((t) => `'${t.term.replace(/['\\]/g, '')}'${t.prefix ? ':*' : ''}`).join(' & ');
}

/** An FTS5 query: every term quoted, prefixes starred, all required. */
function ftsQuery(terms: QueryTerm[]): string {
  return terms.map((t) => `"${t.term.replace(/"/g, '')}"${t.prefix ? '*' : ''}`).join(' AND ');
}

/**
 * The search index: documents (one per file or folder), their stored text, and the full-text
 * structures of each dialect. SQLite: FTS5 tables keyed by document key, holding live documents
 * only, so the common query (a user's whole drive) is answered inside the full-text index.
 * PostgreSQL: tsvector columns with GIN indexes on the document and content rows.
 */
export class SearchRepo {
  private readonly slots = new Map<string, number>();

  constructor(
    private readonly db: Db,
    readonly dialect: Dialect,
  ) {}

  private get sqlite() {
    return this.dialect === 'sqlite';
  }

  // ---- keys -------------------------------------------------------------------------------

  async slotOf(userId: string, trx: Db = this.db): Promise<number | undefined> {
    const known = this.slots.get(userId);
    if (known !== undefined) return known;
    const row = await trx
      .selectFrom('searchUser')
      .select('slot')
      .where('userId', '=', userId)
      .executeTakeFirst();
    if (row) this.slots.set(userId, row.slot);
    return row?.slot;
  }

  /** `count` fresh keys of a user, in order. */
  private async allocate(trx: Db, userId: string, count: number): Promise<number[]> {
    let slot = await this.slotOf(userId, trx);
    if (slot === undefined) {
      const top = await trx
        .selectFrom('searchUser')
        .select((eb) => eb.fn.max<number>('slot').as('top'))
        .executeTakeFirst();
      slot = Number(top?.top ?? 0) + 1;
      await trx
        .insertInto('searchUser')
        .values({ userId, slot, nextSeq: 1 })
        .onConflict((oc) => oc.column('userId').doNothing())
        .execute();
      this.slots.delete(userId);
      slot = (await this.slotOf(userId, trx))!;
    }
    const row = await trx
      .updateTable('searchUser')
      .set({ nextSeq: sql<number>`next_seq + ${count}` })
      .where('userId', '=', userId)
      .returning('nextSeq')
      .executeTakeFirstOrThrow();
    const first = Number(row.nextSeq) - count;
    return Array.from({ length: count }, (_, i) => slot * KEY_SPAN + first + i);
  }

  private range(slot: number): [number, number] {
    return [slot * KEY_SPAN, (slot + 1) * KEY_SPAN - 1];
  }

  // ---- names ------------------------------------------------------------------------------

  /**
   * SQLite: a bulk build into an empty index adds a million rows in random name order to
   * this index; made afterwards from sorted rows it costs a fraction. Queries fall back to
   * scanning meanwhile, and a build cut short gets the index back at the next start.
   */
  async dropNameIndex(): Promise<void> {
    if (this.sqlite) await sql`drop index if exists search_doc_name_idx`.execute(this.db);
  }

  async ensureNameIndex(): Promise<void> {
    await sql`create index if not exists search_doc_name_idx on search_doc (user_id, live, name_norm)`.execute(
      this.db,
    );
  }

  /** Documents for files and folders that have none yet. */
  async addDocs(trx: Db, docs: DocSource[]): Promise<void> {
    const byUser = new Map<string, DocSource[]>();
    for (const d of docs) {
      const list = byUser.get(d.userId);
      if (list) list.push(d);
      else byUser.set(d.userId, [d]);
    }
    const now = Date.now();
    for (const [userId, list] of byUser) {
      const keys = await this.allocate(trx, userId, list.length);
      for (let i = 0; i < list.length; i += 400) {
        const batch = list.slice(i, i + 400).map((d, j) => ({
          doc: d,
          key: keys[i + j]!,
          terms: uniqueTerms(d.name).join(' '),
        }));
        if (this.sqlite) {
          // built by hand: compiling thousands of parameters through the query builder costs
          // more than the insert itself
          const values: unknown[] = [];
          for (const { doc, key } of batch)
            values.push(
              key,
              doc.fileId,
              userId,
              doc.name,
              normalizeText(doc.name),
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
          }
        } else {
          const col = <T>(pick: (b: (typeof batch)[number]) => T) => batch.map(pick);
          await sql`insert into search_doc (doc_key, file_id, user_id, name, name_norm, live, state, updated_at, name_vec)
            select k, f, ${userId}, n, nn, l, s, ${now}, array_to_tsvector(string_to_array(t, ' '))
            from unnest(${col((b) => b.key)}::bigint[], ${col((b) => b.doc.fileId)}::varchar[],
              ${col((b) => b.doc.name)}::varchar[], ${col((b) => normalizeText(b.doc.name))}::varchar[],
              ${col((b) => (b.doc.live ? 1 : 0))}::int[], ${col((b) => b.doc.state)}::varchar[],
              ${col((b) => b.terms)}::text[]) as x(k, f, n, nn, l, s, t)`.execute(trx);
        }
      }
    }
  }

  /** New names for documents (rename, restore under another name, repair). */
  async renameDocs(trx: Db, rows: Array<{ fileId: string; name: string }>): Promise<void> {
    const now = Date.now();
    for (const row of rows) {
      const terms = uniqueTerms(row.name);
      const doc = await trx
        .updateTable('searchDoc')
        .set({ name: row.name, nameNorm: normalizeText(row.name), updatedAt: now })
        .where('fileId', '=', row.fileId)
        .returning(['docKey', 'live'])
        .executeTakeFirst();
      if (!doc) continue;
      if (this.sqlite) {
        await sql`delete from search_name_fts where rowid = ${doc.docKey}`.execute(trx);
        if (doc.live)
          await sql`insert into search_name_fts (rowid, terms) values (${doc.docKey}, ${terms.join(' ')})`.execute(
            trx,
          );
      } else {
        await sql`update search_doc set name_vec = array_to_tsvector(${terms}::text[]) where doc_key = ${doc.docKey}`.execute(
          trx,
        );
      }
    }
  }

  /** Documents of a subtree that went to the trash leave the live index. */
  async markTrashed(trx: Db, userId: string, trashId: string): Promise<void> {
    const docs = trx
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .select('d.docKey')
      .where('f.userId', '=', userId)
      .where('f.trashId', '=', trashId)
      .where('d.live', '=', 1);
    if (this.sqlite) {
      await sql`delete from search_name_fts where rowid in (${docs})`.execute(trx);
      await sql`delete from search_content_fts where rowid in (${docs})`.execute(trx);
    }
    await trx
      .updateTable('searchDoc')
      .set({ live: 0, updatedAt: Date.now() })
      .where('docKey', 'in', docs)
      .execute();
  }

  /**
   * Documents whose files are live again (a restore) return to the live index, under their
   * file's current name. Their stored text goes back in through the content job (SQLite),
   * so a big restore never waits on re-reading text.
   */
  async markRestored(trx: Db, userId: string): Promise<number> {
    const rows = await trx
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .select(['d.docKey', 'd.name', 'f.name as fileName', 'd.state'])
      .where('d.userId', '=', userId)
      .where('d.live', '=', 0)
      .where('f.trashId', 'is', null)
      .execute();
    const now = Date.now();
    for (let i = 0; i < rows.length; i += 400) {
      const batch = rows.slice(i, i + 400);
      const keys = batch.map((r) => r.docKey);
      await trx
        .updateTable('searchDoc')
        .set({ live: 1, updatedAt: now })
        .where('docKey', 'in', keys)
        .execute();
      const renamed = batch.filter((r) => r.name !== r.fileName);
      for (const r of renamed) {
        await trx
          .updateTable('searchDoc')
          .set({ name: r.fileName, nameNorm: normalizeText(r.fileName) })
          .where('docKey', '=', r.docKey)
          .execute();
        if (!this.sqlite)
          await sql`update search_doc set name_vec = array_to_tsvector(${uniqueTerms(r.fileName)}::text[]) where doc_key = ${r.docKey}`.execute(
            trx,
          );
      }
      if (this.sqlite) {
        await sql`insert into search_name_fts (rowid, terms) values ${sql.join(
          batch.map((r) => sql`(${r.docKey}, ${uniqueTerms(r.fileName).join(' ')})`),
        )}`.execute(trx);
        // stored text is put back into the full-text table by the content job
        await trx
          .updateTable('searchDoc')
          .set({ state: 'pending' })
          .where('docKey', 'in', keys)
          .where('state', '=', 'done')
          .execute();
      }
    }
    return rows.length;
  }

  // ---- content ----------------------------------------------------------------------------

  /** Replace the stored text of a document and index it. */
  async writeContent(trx: Db, docKey: number, live: boolean, text: string): Promise<void> {
    await this.clearContent(trx, docKey);
    const chunks = splitChunks(text);
    for (let i = 0; i < chunks.length; i += 20) {
      const batch = chunks.slice(i, i + 20);
      if (this.sqlite) {
        await trx
          .insertInto('searchContent')
          .values(batch.map((body, j) => ({ docKey, chunk: i + j, body })))
          .execute();
      } else {
        for (const [j, body] of batch.entries()) {
          await sql`insert into search_content (doc_key, chunk, body, vec)
            values (${docKey}, ${i + j}, ${body}, array_to_tsvector(${uniqueTerms(body)}::text[]))`.execute(
            trx,
          );
        }
      }
    }
    if (this.sqlite && live && text.length > 0) await this.indexStoredText(trx, docKey, chunks);
  }

  /** SQLite: the full-text row of a document from its stored text. */
  async indexStoredText(trx: Db, docKey: number, chunks?: string[]): Promise<void> {
    if (!this.sqlite) return;
    const bodies =
      chunks ??
      (
        await trx
          .selectFrom('searchContent')
          .select('body')
          .where('docKey', '=', docKey)
          .orderBy('chunk')
          .execute()
      ).map((r) => r.body);
    await sql`delete from search_content_fts where rowid = ${docKey}`.execute(trx);
    if (bodies.length === 0) return;
    // terms are joined per chunk so a huge text never becomes one array of millions of terms
    const terms = bodies.map((b) => indexTerms(b).join(' ')).join(' ');
    await sql`insert into search_content_fts (rowid, terms) values (${docKey}, ${terms})`.execute(
      trx,
    );
  }

  async clearContent(trx: Db, docKey: number): Promise<void> {
    await trx.deleteFrom('searchContent').where('docKey', '=', docKey).execute();
    if (this.sqlite) await sql`delete from search_content_fts where rowid = ${docKey}`.execute(trx);
  }

  /** Copy the stored text of another document with the same bytes. */
  async copyContent(trx: Db, fromKey: number, toKey: number, live: boolean): Promise<boolean> {
    const bodies = await trx
      .selectFrom('searchContent')
      .select('body')
      .where('docKey', '=', fromKey)
      .orderBy('chunk')
      .execute();
    if (bodies.length === 0) return false;
    await this.writeContent(trx, toKey, live, bodies.map((b) => b.body).join(''));
    return true;
  }

  // ---- search -----------------------------------------------------------------------------

  async search(q: SearchQuery): Promise<SearchPage> {
    const slot = await this.slotOf(q.userId);
    if (slot === undefined || q.limit <= 0) return { hits: [], total: 0 };
    if (q.terms.length === 0) return { hits: [], total: 0 };
    const general = !this.sqlite || hasFilters(q.filters) || q.sort !== undefined;
    return general ? this.searchJoined(q, slot) : this.searchFast(q, slot);
  }

  private contains(column: RawBuilder<unknown>, text: string) {
    return this.sqlite ? sql`instr(${column}, ${text}) > 0` : sql`strpos(${column}, ${text}) > 0`;
  }

  /**
   * SQLite, whole drive, by relevance: counts and pages come from the full-text index alone;
   * only the page's rows are read from the tables. Order: names equal to or beginning with
   * the keyword, other name matches (newest first), tag matches, content matches (best first).
   */
  private async searchFast(q: SearchQuery, slot: number): Promise<SearchPage> {
    const [lo, hi] = this.range(slot);
    const match = ftsQuery(q.terms);
    const verifyName = q.verify
      ? sql`exists (select 1 from search_doc d where d.doc_key = search_name_fts.rowid and ${this.contains(sql.ref('d.name_norm'), q.keyword)})`
      : sql`1 = 1`;

    let nameCount = 0;
    let boosted: number[] = [];
    if (q.includeName) {
      const counted = await sql<{
        n: number;
      }>`select count(*) as n from search_name_fts where search_name_fts match ${match} and rowid between ${lo} and ${hi} and ${verifyName}`.execute(
        this.db,
      );
      nameCount = Number(counted.rows[0]?.n ?? 0);
      if (nameCount > 0 && q.keyword) {
        const prefixed = await this.db
          .selectFrom('searchDoc')
          .select(['docKey', 'name'])
          .where('userId', '=', q.userId)
          .where('live', '=', 1)
          .where('nameNorm', '>=', q.keyword)
          .where('nameNorm', '<', `${q.keyword}\u{10ffff}`)
          .orderBy(sql`name_norm = ${q.keyword}`, 'desc')
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
      const skip = boosted.length > 0 ? sql`rowid not in (${sql.join(boosted)})` : sql`1 = 1`;
      const rows = await sql<{ rowid: number }>`select rowid from search_name_fts
        where search_name_fts match ${match} and rowid between ${lo} and ${hi} and ${skip} and ${verifyName}
        order by rowid desc limit ${limit} offset ${offset}`.execute(this.db);
      for (const r of rows.rows) keys.push({ key: Number(r.rowid), tier: 0 });
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

  /** Any filter, any order, and PostgreSQL: matches joined with the file rows. */
  private async searchJoined(q: SearchQuery, slot: number): Promise<SearchPage> {
    const [lo, hi] = this.range(slot);
    const branches: RawBuilder<unknown>[] = [];
    const match = ftsQuery(q.terms);
    const tsq = tsQuery(q.terms);
    if (q.includeName) {
      const verify = q.verify ? this.contains(sql.ref('d.name_norm'), q.keyword) : sql`1 = 1`;
      branches.push(
        !this.sqlite
          ? sql`select d.doc_key as doc_key, 0 as tier from search_doc d
              where d.user_id = ${q.userId} and d.live = 1 and d.name_vec @@ ${tsq}::tsquery and ${verify}`
          : q.verify
            ? sql`select d.doc_key as doc_key, 0 as tier from search_name_fts
              join search_doc d on d.doc_key = search_name_fts.rowid
              where search_name_fts match ${match} and search_name_fts.rowid between ${lo} and ${hi} and ${verify}`
            : sql`select rowid as doc_key, 0 as tier from search_name_fts
              where search_name_fts match ${match} and rowid between ${lo} and ${hi}`,
      );
    }
    if (q.tagIds.length > 0) {
      branches.push(sql`select d.doc_key as doc_key, 1 as tier from file_tag ft
        join search_doc d on d.file_id = ft.file_id
        where ft.tag_id in (${sql.join(q.tagIds)}) and d.user_id = ${q.userId}`);
    }
    if (q.includeContent) {
      const verify = q.verify
        ? sql`exists (select 1 from search_content c where c.doc_key = m.doc_key and ${this.contains(sql`lower(c.body)`, q.keyword)})`
        : sql`1 = 1`;
      const matched = this.sqlite
        ? sql`select rowid as doc_key from search_content_fts
            where search_content_fts match ${match} and rowid between ${lo} and ${hi}`
        : // every term somewhere in the document, whichever chunk holds it
          sql.join(
            q.terms.map(
              (t) => sql`select doc_key from search_content where vec @@ ${tsQuery([t])}::tsquery`,
            ),
            sql` intersect `,
          );
      branches.push(
        sql`select m.doc_key as doc_key, 2 as tier from (${matched}) m where ${verify}`,
      );
    }
    if (branches.length === 0) return { hits: [], total: 0 };

    const f = q.filters;
    const where: RawBuilder<unknown>[] = [
      sql`f.user_id = ${q.userId}`,
      sql`f.trash_id is null`,
      sql`d.live = 1`,
    ];
    if (f.prefix && f.prefix !== '/')
      where.push(sql`substr(f.path, 1, ${[...f.prefix].length}) = ${f.prefix}`);
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

    const columns = {
      name: sql.ref('f.name'),
      size: sql.ref('f.size'),
      updateDate: sql.ref('f.update_date'),
      uploadDate: sql.ref('f.upload_date'),
    };
    const order = q.sort
      ? sql`${columns[q.sort.prop]} ${sql.raw(q.sort.order === 'descending' ? 'desc' : 'asc')}, f.name asc`
      : sql`b.tier, case when b.tier = 0 and d.name_norm = ${q.keyword} then 0
          when b.tier = 0 and substr(d.name_norm, 1, ${[...q.keyword].length}) = ${q.keyword} then 1 else 2 end,
          case when b.tier = 0 and substr(d.name_norm, 1, ${[...q.keyword].length}) = ${q.keyword} then d.name_norm end,
          b.doc_key desc`;

    // SQLite plans without statistics and would walk all of the user's files: the joins are
    // ordered by hand, from the matches, or from the folder when it holds fewer files
    let from = sql`best b join search_doc d on d.doc_key = b.doc_key join file f on f.id = d.file_id`;
    if (this.sqlite) {
      from = sql`best b cross join search_doc d cross join file f`;
      where.push(sql`d.doc_key = b.doc_key`, sql`f.id = d.file_id`);
      if (f.prefix && f.prefix !== '/') {
        const end = `${f.prefix}\u{10ffff}`;
        const inFolder = await this.db
          .selectFrom('file')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('userId', '=', q.userId)
          .where('path', '>=', f.prefix)
          .where('path', '<', end)
          .executeTakeFirstOrThrow();
        if (Number(inFolder.n) < (await this.estimateHits(q, match, lo, hi))) {
          from = sql`file f cross join search_doc d cross join best b`;
          where.push(sql`f.path >= ${f.prefix}`, sql`f.path < ${end}`);
        }
      }
    }
    const body = sql`from ${from} where ${sql.join(where, sql` and `)}`;
    const hits = sql`with hits as (${sql.join(branches, sql` union all `)}),
      best as (select doc_key, min(tier) as tier from hits group by doc_key)`;
    const rows = await sql<{ fileId: string; docKey: number; tier: number; total: number }>`${hits}
      select f.id as file_id, b.doc_key as doc_key, b.tier as tier, count(*) over () as total
      ${body}
      order by ${order}
      limit ${q.limit} offset ${q.offset}`.execute(this.db);
    let total = rows.rows.length > 0 ? Number(rows.rows[0]!.total) : 0;
    if (rows.rows.length === 0 && q.offset > 0) {
      // a page past the end carries no total: count it
      const counted = await sql<{ n: number }>`${hits} select count(*) as n ${body}`.execute(
        this.db,
      );
      total = Number(counted.rows[0]?.n ?? 0);
    }
    return {
      hits: rows.rows.map((r) => ({
        fileId: r.fileId,
        docKey: Number(r.docKey),
        tier: Number(r.tier) as Tier,
      })),
      total,
    };
  }

  /** SQLite: about how many documents match (names and text), counted in the index. */
  private async estimateHits(q: SearchQuery, match: string, lo: number, hi: number) {
    let total = 0;
    for (const table of ['search_name_fts', 'search_content_fts']) {
      if (table === 'search_name_fts' ? !q.includeName : !q.includeContent) continue;
      const counted = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}
        where ${sql.table(table)} match ${match} and rowid between ${lo} and ${hi}`.execute(
        this.db,
      );
      total += Number(counted.rows[0]?.n ?? 0);
    }
    return total;
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
      query = query.where(sql<boolean>`substr(f.path, 1, ${[...f.prefix].length}) = ${f.prefix}`);
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

/** Text in chunks of CHUNK_CHARS, never splitting a surrogate pair. */
export function splitChunks(text: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + CHUNK_CHARS);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}
