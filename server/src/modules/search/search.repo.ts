import { sql, type RawBuilder, type Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { SearchDocTable } from '../../db/schema.ts';
import { escapeLike } from '../files/names.ts';
import { newId } from '../../lib/ids.ts';
import { normalizeText, uniqueTerms, type QueryTerm } from './tokenize.ts';

/** Document keys are `slot * KEY_SPAN + sequence`: each user owns one contiguous range. */
export const KEY_SPAN = 2 ** 36;
/** Stored text is kept in chunks of this many characters (PostgreSQL indexes each chunk). */
export const CHUNK_CHARS = 20_000;
/** Tag and content tiers are materialized up to this many documents per query. */
export const TIER_CAP = 10_000;

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

export const hasFilters = (f: SearchFilters) => Object.values(f).some((v) => v !== undefined);

/** Whether a name matches a query, decided as the index decides (same terms, same rules). */
export function nameMatches(name: string, q: Pick<SearchQuery, 'terms' | 'verify' | 'keyword'>) {
  const terms = uniqueTerms(name);
  const all = q.terms.every((c) =>
    terms.some((t) => (c.prefix ? t.startsWith(c.term) : t === c.term)),
  );
  return all && (!q.verify || normalizeText(name).includes(q.keyword));
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

/**
 * The search index: documents (one per file or folder), their stored text and the search
 * history. What both databases do alike is here; the full-text structures of each
 * are in its backend, chosen once where the services are wired: `search.sqlite.ts` (FTS5 tables
 * holding live documents only, so a user's whole drive is searched inside the full-text index)
 * and `search.postgres.ts` (tsvector columns with GIN indexes on the document and content rows).
 */
export abstract class SearchRepo {
  private readonly slots = new Map<string, number>();

  constructor(protected readonly db: Db) {}

  /** Runs work in one transaction. */
  transaction<T>(work: (trx: Db) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  // ---- the backend: what each database does its own way -----------------------------------

  /** Before a bulk build into an empty index (SQLite drops the name index, rebuilt after). */
  abstract dropNameIndex(): Promise<void>;

  /** Rows of a batch of new documents of one user, with their name terms. */
  protected abstract insertDocs(
    trx: Db,
    userId: string,
    batch: Array<{ doc: DocSource; key: number; terms: string }>,
    now: number,
  ): Promise<void>;

  /** The name terms of a renamed document. */
  protected abstract indexName(
    trx: Db,
    docKey: number,
    live: boolean,
    terms: string[],
  ): Promise<void>;

  /** The live documents of a subtree that went to the trash leave the full-text index. */
  protected abstract unindexTrashed(trx: Db, userId: string, trashId: string): Promise<void>;

  /** Documents back in the live index after a restore; `fileName` is their current name. */
  protected abstract reindexRestored(
    trx: Db,
    batch: Array<{ docKey: number; name: string; fileName: string }>,
  ): Promise<void>;

  /** Stored text chunks of a document (its old ones are gone). */
  protected abstract insertChunks(trx: Db, docKey: number, chunks: string[]): Promise<void>;

  /** The full-text row of a live document from its stored text (SQLite; PostgreSQL needs none). */
  abstract indexStoredText(trx: Db, docKey: number, chunks?: string[]): Promise<void>;

  /** The full-text row of a document's text is removed (SQLite). */
  protected abstract unindexContent(trx: Db, docKey: number): Promise<void>;

  /** One page of matches of a user's query (the user has a slot, the query has terms). */
  protected abstract find(q: SearchQuery, slot: number): Promise<SearchPage>;

  /** `column` contains `text` (case as given). */
  protected abstract contains(column: RawBuilder<unknown>, text: string): RawBuilder<unknown>;

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

  protected range(slot: number): [number, number] {
    return [slot * KEY_SPAN, (slot + 1) * KEY_SPAN - 1];
  }

  // ---- names ------------------------------------------------------------------------------

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
        await this.insertDocs(trx, userId, batch, now);
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
      await this.indexName(trx, doc.docKey, doc.live === 1, terms);
    }
  }

  /** Documents of a subtree that went to the trash leave the live index. */
  async markTrashed(trx: Db, userId: string, trashId: string): Promise<void> {
    await this.unindexTrashed(trx, userId, trashId);
    await trx
      .updateTable('searchDoc')
      .set({ live: 0, updatedAt: Date.now() })
      .where('docKey', 'in', this.liveDocsInTrash(trx, userId, trashId))
      .execute();
  }

  /** The keys of the live documents of a subtree in the trash (a subquery). */
  protected liveDocsInTrash(trx: Db, userId: string, trashId: string) {
    return trx
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .select('d.docKey')
      .where('f.userId', '=', userId)
      .where('f.trashId', '=', trashId)
      .where('d.live', '=', 1);
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
      await trx
        .updateTable('searchDoc')
        .set({ live: 1, updatedAt: now })
        .where(
          'docKey',
          'in',
          batch.map((r) => r.docKey),
        )
        .execute();
      for (const r of batch.filter((b) => b.name !== b.fileName)) {
        await trx
          .updateTable('searchDoc')
          .set({ name: r.fileName, nameNorm: normalizeText(r.fileName) })
          .where('docKey', '=', r.docKey)
          .execute();
      }
      await this.reindexRestored(trx, batch);
    }
    return rows.length;
  }

  // ---- content ----------------------------------------------------------------------------

  /** Replace the stored text of a document and index it. */
  async writeContent(trx: Db, docKey: number, live: boolean, text: string): Promise<void> {
    await this.clearContent(trx, docKey);
    const chunks = splitChunks(text);
    await this.insertChunks(trx, docKey, chunks);
    if (live && chunks.length > 0) await this.indexStoredText(trx, docKey, chunks);
  }

  async clearContent(trx: Db, docKey: number): Promise<void> {
    await trx.deleteFrom('searchContent').where('docKey', '=', docKey).execute();
    await this.unindexContent(trx, docKey);
  }

  /** The stored text of a document, chunk by chunk. */
  protected async storedChunks(trx: Db, docKey: number): Promise<string[]> {
    const rows = await trx
      .selectFrom('searchContent')
      .select('body')
      .where('docKey', '=', docKey)
      .orderBy('chunk')
      .execute();
    return rows.map((r) => r.body);
  }

  /** Copy the stored text of another document with the same bytes. */
  async copyContent(trx: Db, fromKey: number, toKey: number, live: boolean): Promise<boolean> {
    const bodies = await this.storedChunks(trx, fromKey);
    if (bodies.length === 0) return false;
    await this.writeContent(trx, toKey, live, bodies.join(''));
    return true;
  }

  // ---- documents as the index jobs see them -----------------------------------------------

  async isEmpty(): Promise<boolean> {
    const any = await this.db.selectFrom('searchDoc').select('docKey').limit(1).executeTakeFirst();
    return !any;
  }

  docsOfFiles(trx: Db, fileIds: string[]) {
    return trx
      .selectFrom('searchDoc')
      .select(['fileId', 'name', 'state', 'contentHash', 'docKey', 'live'])
      .where('fileId', 'in', fileIds)
      .execute();
  }

  /** Changes a document's row. */
  async updateDoc(docKey: number, fields: Updateable<SearchDocTable>, trx: Db = this.db) {
    await trx.updateTable('searchDoc').set(fields).where('docKey', '=', docKey).execute();
  }

  /** Changes a document's row if it is in state `from`; false when it was not. */
  async updateDocIn(
    docKey: number,
    from: DocState,
    fields: Updateable<SearchDocTable>,
    trx: Db = this.db,
  ): Promise<boolean> {
    const res = await trx
      .updateTable('searchDoc')
      .set(fields)
      .where('docKey', '=', docKey)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Documents back to `pending` (their bytes changed). */
  async markPending(docKeys: number[]): Promise<void> {
    await this.db
      .updateTable('searchDoc')
      .set({ state: 'pending', message: null })
      .where('docKey', 'in', docKeys)
      .execute();
  }

  /** Users with live documents waiting in a lane's queue, and which. */
  usersWithPending() {
    return this.db
      .selectFrom('searchDoc')
      .select(['userId', 'state'])
      .distinct()
      .where('state', 'in', ['pending', 'pending_ocr'])
      .where('live', '=', 1)
      .execute();
  }

  /** Users with documents queued or claimed in either lane. */
  async usersWithWork(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select('userId')
      .distinct()
      .where('state', 'in', ['pending', 'pending_ocr', 'running', 'running_ocr'])
      .execute();
    return rows.map((r) => r.userId);
  }

  async countInState(userId: string, state: DocState): Promise<number> {
    const row = await this.db
      .selectFrom('searchDoc')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('state', '=', state)
      .where('live', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Claim up to `count` live documents of a user from `pending` into `running`. */
  async claim(
    userId: string,
    pending: DocState,
    running: DocState,
    count: number,
  ): Promise<number[]> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .where('userId', '=', userId)
      .where('state', '=', pending)
      .where('live', '=', 1)
      .orderBy('docKey')
      .limit(count)
      .execute();
    const claimed: number[] = [];
    for (const { docKey } of rows) {
      if (await this.updateDocIn(docKey, pending, { state: running, claimedAt: Date.now() }))
        claimed.push(docKey);
    }
    return claimed;
  }

  /** A user's claims in `running` made before `before` (or never stamped) go back to `pending`. */
  async releaseClaims(
    userId: string,
    running: DocState,
    pending: DocState,
    before: number,
  ): Promise<void> {
    await this.db
      .updateTable('searchDoc')
      .set({ state: pending, claimedAt: null })
      .where('userId', '=', userId)
      .where('state', '=', running)
      .where((eb) => eb.or([eb('claimedAt', 'is', null), eb('claimedAt', '<', before)]))
      .execute();
  }

  /** A document with its file's row. */
  fileOf(docKey: number) {
    return this.db
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .selectAll('f')
      .select(['d.docKey', 'd.contentHash', 'd.live'])
      .where('d.docKey', '=', docKey)
      .executeTakeFirst();
  }

  /** Store the text of a document unless it left state `from` meanwhile (its file changed). */
  async storeText(docKey: number, from: DocState, hash: string, text: string): Promise<void> {
    await this.transaction(async (trx) => {
      const fields = {
        state: 'done',
        contentHash: hash,
        message: null,
        claimedAt: null,
        updatedAt: Date.now(),
      } as const;
      if (!(await this.updateDocIn(docKey, from, fields, trx))) return;
      const live = await trx
        .selectFrom('searchDoc')
        .select('live')
        .where('docKey', '=', docKey)
        .executeTakeFirstOrThrow();
      await this.writeContent(trx, docKey, live.live === 1, text);
    });
  }

  /** A document whose file has no text to read: its stored text goes. */
  async dropText(docKey: number): Promise<void> {
    await this.transaction(async (trx) => {
      await this.clearContent(trx, docKey);
      await this.updateDoc(docKey, { state: 'none', contentHash: null, claimedAt: null }, trx);
    });
  }

  async hasStoredText(docKey: number): Promise<boolean> {
    const stored = await this.db
      .selectFrom('searchContent')
      .select('docKey')
      .where('docKey', '=', docKey)
      .limit(1)
      .executeTakeFirst();
    return stored !== undefined;
  }

  /** The stored text is current: done again, and back in the full-text index when live. */
  async reuseStoredText(docKey: number, from: DocState, live: boolean): Promise<void> {
    await this.transaction(async (trx) => {
      const moved = await this.updateDocIn(docKey, from, { state: 'done', claimedAt: null }, trx);
      if (moved && live) await this.indexStoredText(trx, docKey);
    });
  }

  /**
   * Take the stored text of another document with the same bytes. False when there is none
   * (or it had no text after all); true too when the document left `running` meanwhile.
   */
  async copyFromTwin(
    docKey: number,
    hash: string,
    live: boolean,
    running: DocState,
  ): Promise<boolean> {
    const twin = await this.db
      .selectFrom('searchDoc')
      .select('docKey')
      .where('contentHash', '=', hash)
      .where('state', '=', 'done')
      .where('docKey', '!=', docKey)
      .limit(1)
      .executeTakeFirst();
    if (!twin) return false;
    return this.transaction(async (trx) => {
      const fields = { state: 'done', contentHash: hash, message: null, claimedAt: null } as const;
      // the file changed meanwhile: nothing to do now, it is queued again
      if (!(await this.updateDocIn(docKey, running, fields, trx))) return true;
      if (await this.copyContent(trx, twin.docKey, docKey, live)) return true;
      // the twin had no text after all (an image waiting for OCR): read this file itself
      await this.updateDoc(docKey, { state: running }, trx);
      return false;
    });
  }

  /** Documents skipped for want of OCR go back to the text lane; returns their users. */
  async requeueOcrSkipped(): Promise<string[]> {
    const users = await this.db
      .selectFrom('searchDoc')
      .select('userId')
      .distinct()
      .where('state', '=', 'skipped')
      .where('message', 'like', 'ocr:%')
      .execute();
    await this.db
      .updateTable('searchDoc')
      .set({ state: 'pending', message: null })
      .where('state', '=', 'skipped')
      .where('message', 'like', 'ocr:%')
      .execute();
    return users.map((u) => u.userId);
  }

  /** A page of file rows in id order, after `after`, for the bulk build. */
  filesAfter(after: string, limit: number) {
    return this.db
      .selectFrom('file')
      .select(['id', 'userId', 'name', 'isFolder', 'suffix', 'fileType', 'size', 'trashId'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Of these files, those that have a document. */
  async indexedFiles(fileIds: string[]): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('searchDoc')
      .select('fileId')
      .where('fileId', 'in', fileIds)
      .execute();
    return new Set(rows.map((r) => r.fileId));
  }

  /** A page of documents in key order, after `afterKey`, with their files. */
  docsWithFiles(afterKey: number, limit: number) {
    return this.db
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .select([
        'd.docKey',
        'd.fileId',
        'd.userId',
        'd.name',
        'd.live',
        'd.state',
        'd.contentHash',
        'f.name as fileName',
        'f.trashId',
        'f.hash',
      ])
      .where('d.docKey', '>', afterKey)
      .orderBy('d.docKey')
      .limit(limit)
      .execute();
  }

  async usernameOf(userId: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('user')
      .select('username')
      .where('id', '=', userId)
      .executeTakeFirst();
    return row?.username;
  }

  // ---- search -----------------------------------------------------------------------------

  async search(q: SearchQuery): Promise<SearchPage> {
    const slot = await this.slotOf(q.userId);
    if (slot === undefined || q.limit <= 0) return { hits: [], total: 0 };
    if (q.terms.length === 0) return { hits: [], total: 0 };
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

  /** Any filter, any order (and every PostgreSQL query): matches joined with the file rows. */
  protected async searchJoined(q: SearchQuery, slot: number): Promise<SearchPage> {
    const branches: RawBuilder<unknown>[] = [];
    if (q.includeName) {
      const verify = q.verify ? this.contains(sql.ref('d.name_norm'), q.keyword) : sql`1 = 1`;
      branches.push(this.nameHits(q, slot, verify));
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
      branches.push(
        sql`select m.doc_key as doc_key, 2 as tier from (${this.contentHits(q, slot)}) m where ${verify}`,
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

    const from = await this.joinedFrom(q, slot, where);
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

  // ---- search history ---------------------------------------------------------------------

  /** Keep a keyword as the user's latest search (again at the top when searched before). */
  async remember(userId: string, keyword: string, now: number): Promise<void> {
    await this.db
      .insertInto('searchHistory')
      .values({ id: newId(), userId, keyword, createdAt: now })
      .onConflict((oc) => oc.columns(['userId', 'keyword']).doUpdateSet({ createdAt: now }))
      .execute();
  }

  /** Drops a user's searches beyond the newest `keep` (up to 100 at a time). */
  async trimHistory(userId: string, keep: number): Promise<void> {
    const old = await this.db
      .selectFrom('searchHistory')
      .select('id')
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .offset(keep)
      .limit(100)
      .execute();
    if (old.length > 0)
      await this.db
        .deleteFrom('searchHistory')
        .where(
          'id',
          'in',
          old.map((r) => r.id),
        )
        .execute();
  }

  /** A user's searches, newest first; those containing `text` (any case) when given. */
  history(userId: string, text: string | undefined, limit: number) {
    let query = this.db.selectFrom('searchHistory').selectAll().where('userId', '=', userId);
    if (text)
      query = query.where(
        sql<boolean>`lower(keyword) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`,
      );
    return query.orderBy('createdAt', 'desc').orderBy('id').limit(limit).execute();
  }

  async forget(userId: string, id: string): Promise<void> {
    await this.db
      .deleteFrom('searchHistory')
      .where('userId', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  async forgetAll(userId: string): Promise<void> {
    await this.db.deleteFrom('searchHistory').where('userId', '=', userId).execute();
  }
}
