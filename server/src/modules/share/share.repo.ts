import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { MountTable, ShareTable } from '../../db/schema.ts';
import { startsWithPath } from '../../db/path-range.ts';

export type ShareRow = Selectable<ShareTable>;
export type MountRow = Selectable<MountTable>;

export type ShareSort = 'createDate' | 'expireDate' | 'fileName' | 'views' | 'downloads';

/** The ancestors of an item as (parent path, name) pairs: `/a/b/` → (`/`, a), (`/a/`, b). */
export function ancestorsOf(path: string): Array<{ path: string; name: string }> {
  const segments = path.split('/').filter(Boolean);
  return segments.map((name, i) => ({
    path: i === 0 ? '/' : `/${segments.slice(0, i).join('/')}/`,
    name,
  }));
}

export class ShareRepo {
  constructor(private readonly db: Db) {}

  byId(id: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('share').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** By its short address first, then by id (addresses never take the shape of an id). */
  async byAddress(address: string): Promise<ShareRow | undefined> {
    return (
      (await this.db
        .selectFrom('share')
        .selectAll()
        .where('shortId', '=', address)
        .executeTakeFirst()) ?? (await this.byId(address))
    );
  }

  /** The share of a file, whoever owns it. */
  ofFile(fileId: string): Promise<ShareRow | undefined> {
    return this.db.selectFrom('share').selectAll().where('fileId', '=', fileId).executeTakeFirst();
  }

  byFile(userId: string, fileId: string): Promise<ShareRow | undefined> {
    return this.db
      .selectFrom('share')
      .selectAll()
      .where('userId', '=', userId)
      .where('fileId', '=', fileId)
      .executeTakeFirst();
  }

  async shortIdTaken(shortId: string, exceptId?: string): Promise<boolean> {
    let q = this.db.selectFrom('share').select('id').where('shortId', '=', shortId);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return (await q.executeTakeFirst()) !== undefined;
  }

  async insert(row: ShareRow): Promise<void> {
    await this.db.insertInto('share').values(row).execute();
  }

  async update(id: string, values: Partial<Omit<ShareRow, 'id'>>): Promise<void> {
    await this.db.updateTable('share').set(values).where('id', '=', id).execute();
  }

  async remove(userId: string, ids: string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const result = await this.db
      .deleteFrom('share')
      .where('userId', '=', userId)
      .where('id', 'in', ids)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async countView(id: string): Promise<void> {
    await this.db
      .updateTable('share')
      .set({ views: sql<number>`views + 1` })
      .where('id', '=', id)
      .execute();
  }

  async countDownload(id: string): Promise<void> {
    await this.db
      .updateTable('share')
      .set({ downloads: sql<number>`downloads + 1` })
      .where('id', '=', id)
      .execute();
  }

  /**
   * The shares of the live folders among the ancestors of an item: the shares a share of that
   * item would sit inside (in no particular order).
   */
  enclosing(userId: string, itemPath: string): Promise<ShareRow[]> {
    const ancestors = ancestorsOf(itemPath);
    if (ancestors.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('share')
      .innerJoin('file', 'file.id', 'share.fileId')
      .selectAll('share')
      .where('share.userId', '=', userId)
      .where('file.userId', '=', userId)
      .where('file.isFolder', '=', 1)
      .where('file.trashId', 'is', null)
      .where((eb) =>
        eb.or(
          ancestors.map((a) =>
            eb.and([eb('file.path', '=', a.path), eb('file.name', '=', a.name)]),
          ),
        ),
      )
      .execute();
  }

  /**
   * The shares that touch a page of a listing, in one query: the items' own shares and the
   * shares of the live folders above them. Each comes with its item's place (`path`, `name`).
   */
  async aroundItems(
    userId: string,
    items: Array<{ id: string; path: string }>,
  ): Promise<Array<ShareRow & { filePath: string; fileName: string }>> {
    if (items.length === 0) return [];
    const ancestors = new Map<string, { path: string; name: string }>();
    for (const item of items)
      for (const a of ancestorsOf(item.path)) ancestors.set(`${a.path}${a.name}`, a);
    const byPlace = [...ancestors.values()];
    return this.db
      .selectFrom('share')
      .innerJoin('file', 'file.id', 'share.fileId')
      .selectAll('share')
      .select(['file.path as filePath', 'file.name as fileName'])
      .where('share.userId', '=', userId)
      .where('file.userId', '=', userId)
      .where('file.trashId', 'is', null)
      .where((eb) =>
        eb.or([
          eb(
            'file.id',
            'in',
            items.map((item) => item.id),
          ),
          ...(byPlace.length
            ? [
                eb.and([
                  eb('file.isFolder', '=', 1),
                  eb.or(
                    byPlace.map((a) =>
                      eb.and([eb('file.path', '=', a.path), eb('file.name', '=', a.name)]),
                    ),
                  ),
                ]),
              ]
            : []),
        ]),
      )
      .execute();
  }

  /** Shares of items strictly below a folder (whose children have the path `prefix`). */
  inside(userId: string, prefix: string): Promise<ShareRow[]> {
    return this.db
      .selectFrom('share')
      .innerJoin('file', 'file.id', 'share.fileId')
      .selectAll('share')
      .where('share.userId', '=', userId)
      .where('file.userId', '=', userId)
      .where('file.trashId', 'is', null)
      .where(startsWithPath(this.db, prefix, 'file.path'))
      .execute();
  }

  async page(
    userId: string,
    sort: ShareSort,
    order: 'asc' | 'desc',
    offset: number,
    limit: number,
  ): Promise<{ shares: ShareRow[]; total: number }> {
    const base = this.db
      .selectFrom('share')
      .innerJoin('file', 'file.id', 'share.fileId')
      .where('share.userId', '=', userId);
    const total = await base
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const column = {
      createDate: 'share.createdAt',
      expireDate: 'share.expiresAt',
      fileName: 'file.name',
      views: 'share.views',
      downloads: 'share.downloads',
    } as const;
    const shares = await base
      .selectAll('share')
      .orderBy(column[sort], order)
      .orderBy('share.id', 'asc')
      .offset(offset)
      .limit(limit)
      .execute();
    return { total: Number(total.n), shares };
  }

  // ---- mounts -------------------------------------------------------------------------------

  mountOf(userId: string, shareId: string): Promise<MountRow | undefined> {
    return this.db
      .selectFrom('mount')
      .selectAll()
      .where('userId', '=', userId)
      .where('shareId', '=', shareId)
      .executeTakeFirst();
  }

  mountById(userId: string, id: string): Promise<MountRow | undefined> {
    return this.db
      .selectFrom('mount')
      .selectAll()
      .where('userId', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  mountsOf(userId: string): Promise<MountRow[]> {
    return this.db
      .selectFrom('mount')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('name', 'asc')
      .execute();
  }

  /** The shares a user mounted, whoever owns them. */
  sharesMountedBy(userId: string): Promise<ShareRow[]> {
    return this.db
      .selectFrom('mount')
      .innerJoin('share', 'share.id', 'mount.shareId')
      .selectAll('share')
      .where('mount.userId', '=', userId)
      .execute();
  }

  async insertMount(row: MountRow): Promise<void> {
    await this.db.insertInto('mount').values(row).execute();
  }

  /** Remove every mount of these shares. */
  async removeMountsOf(shareIds: string[]): Promise<void> {
    if (shareIds.length === 0) return;
    await this.db.deleteFrom('mount').where('shareId', 'in', shareIds).execute();
  }

  async removeMount(userId: string, id: string): Promise<number> {
    const result = await this.db
      .deleteFrom('mount')
      .where('userId', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
