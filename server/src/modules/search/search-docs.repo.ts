import { sql, type Updateable } from 'kysely';
import type { Db } from '../../db/index.ts';
import { slices } from '../../lib/slices.ts';
import type { SearchDocTable } from '../../db/schema.ts';
import { foldName, uniqueTerms } from './tokenize.ts';
import { KEY_SPAN, splitChunks, type DocSource, type DocState } from './search-types.ts';

/**
 * The documents of the search index (one per file or folder) and their stored text: the keys
 * they are filed under, their names, what follows the tree into them and what the repair pass
 * reads back. What both databases do alike is here; what each does its own way is declared
 * here and written in its backend (`search.sqlite.ts`, `search.postgres.ts`).
 */
export abstract class SearchDocsRepo {
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

  /** The name terms and folded name (`name_norm`) of a renamed document. */
  protected abstract indexName(
    trx: Db,
    docKey: number,
    live: boolean,
    terms: string[],
    nameNorm: string,
  ): Promise<void>;

  /** The live documents of a subtree that went to the trash leave the full-text index. */
  protected abstract unindexTrashed(trx: Db, userId: string, trashIds: string[]): Promise<void>;

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
    await sql`create index if not exists search_doc_name_idx on search_doc (user_id, live, name_norm, doc_key)`.execute(
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
      const nameNorm = foldName(row.name);
      const doc = await trx
        .updateTable('searchDoc')
        .set({ name: row.name, nameNorm, updatedAt: now })
        .where('fileId', '=', row.fileId)
        .returning(['docKey', 'live'])
        .executeTakeFirst();
      if (!doc) continue;
      await this.indexName(trx, doc.docKey, doc.live === 1, terms, nameNorm);
    }
  }

  /** Documents of a subtree that went to the trash leave the live index. */
  async markTrashed(trx: Db, userId: string, trashIds: string[]): Promise<void> {
    for (const slice of slices(trashIds)) {
      await this.unindexTrashed(trx, userId, slice);
      await trx
        .updateTable('searchDoc')
        .set({ live: 0, updatedAt: Date.now() })
        .where('docKey', 'in', this.liveDocsInTrash(trx, userId, slice))
        .execute();
    }
  }

  /** The keys of the live documents of a subtree in the trash (a subquery). */
  protected liveDocsInTrash(trx: Db, userId: string, trashIds: string[]) {
    return trx
      .selectFrom('searchDoc as d')
      .innerJoin('file as f', 'f.id', 'd.fileId')
      .select('d.docKey')
      .where('f.userId', '=', userId)
      .where('f.trashId', 'in', trashIds)
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
          .set({ name: r.fileName, nameNorm: foldName(r.fileName) })
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

  // ---- documents --------------------------------------------------------------------------

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

  // ---- what the repair pass reads -----------------------------------------------------------

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
}
