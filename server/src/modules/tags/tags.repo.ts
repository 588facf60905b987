import { MAX_LIST_PAGE_SIZE } from '@nimbus/contract';
import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { TagTable } from '../../db/schema.ts';

export type TagRow = Selectable<TagTable>;

/** Tag and file-tag queries only. */
export class TagsRepo {
  constructor(private readonly db: Db) {}

  list(userId: string, trx: Db = this.db): Promise<TagRow[]> {
    return trx
      .selectFrom('tag')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('sort')
      .orderBy('createdAt')
      .orderBy('id')
      .execute();
  }

  byId(userId: string, id: string, trx: Db = this.db): Promise<TagRow | undefined> {
    return trx
      .selectFrom('tag')
      .selectAll()
      .where('userId', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async insert(row: TagRow, trx: Db = this.db): Promise<void> {
    await trx.insertInto('tag').values(row).execute();
  }

  async update(
    userId: string,
    id: string,
    fields: Partial<Pick<TagRow, 'name' | 'color' | 'sort'>>,
    trx: Db = this.db,
  ): Promise<void> {
    await trx
      .updateTable('tag')
      .set({ ...fields, updatedAt: Date.now() })
      .where('userId', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  async remove(userId: string, ids: string[], trx: Db = this.db): Promise<number> {
    if (ids.length === 0) return 0;
    const res = await trx
      .deleteFrom('tag')
      .where('userId', '=', userId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }

  async nextSort(userId: string, trx: Db = this.db): Promise<number> {
    const row = await trx
      .selectFrom('tag')
      .select((eb) => eb.fn.max<number>('sort').as('top'))
      .where('userId', '=', userId)
      .executeTakeFirst();
    return row?.top === null || row?.top === undefined ? 0 : Number(row.top) + 1;
  }

  async attach(userId: string, fileIds: string[], tagIds: string[], trx: Db = this.db) {
    const now = Date.now();
    const rows = fileIds.flatMap((fileId) =>
      tagIds.map((tagId) => ({ fileId, tagId, userId, createdAt: now })),
    );
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('fileTag')
        .values(rows.slice(i, i + 500))
        .onConflict((oc) => oc.columns(['fileId', 'tagId']).doNothing())
        .execute();
    }
  }

  async detach(userId: string, fileIds: string[], tagIds: string[], trx: Db = this.db) {
    if (fileIds.length === 0 || tagIds.length === 0) return;
    await trx
      .deleteFrom('fileTag')
      .where('userId', '=', userId)
      .where('fileId', 'in', fileIds)
      .where('tagId', 'in', tagIds)
      .execute();
  }

  /** The tags of each file, in the user's tag order. */
  async ofFiles(userId: string, fileIds: string[]): Promise<Map<string, TagRow[]>> {
    const out = new Map<string, TagRow[]>();
    // a listing's page is one query
    for (let i = 0; i < fileIds.length; i += MAX_LIST_PAGE_SIZE) {
      const rows = await this.db
        .selectFrom('fileTag as ft')
        .innerJoin('tag as t', 't.id', 'ft.tagId')
        .selectAll('t')
        .select('ft.fileId')
        .where('ft.userId', '=', userId)
        .where('ft.fileId', 'in', fileIds.slice(i, i + MAX_LIST_PAGE_SIZE))
        .orderBy('t.sort')
        .orderBy('t.createdAt')
        .execute();
      for (const { fileId, ...tag } of rows) {
        const list = out.get(fileId);
        if (list) list.push(tag);
        else out.set(fileId, [tag]);
      }
    }
    return out;
  }
}
