import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import type { FileRow, FilesRepo } from './files.repo.ts';

export type SortProp = 'name' | 'size' | 'updateDate' | 'uploadDate';
export type SortOrder = 'ascending' | 'descending';

export interface ListQuery {
  userId: string;
  /** A folder id, or a drive-wide view. */
  parentId?: string;
  fileType?: string;
  favorite?: boolean;
  tagId?: string;
  trash?: boolean;
  foldersOnly?: boolean;
  filesOnly?: boolean;
  /** The folder's own count of live children, kept up to date: saves counting the files. */
  knownTotal?: number;
  sortProp: SortProp;
  order: SortOrder;
  offset: number;
  limit: number;
}

/**
 * A mount (the share module's `mount` row): someone's shared folder placed in a folder of the
 * user's drive. It is listed among that folder's folders; its files stay the owner's.
 */
export interface MountEntry {
  mountId: string;
  shareId: string;
  name: string;
  parentId: string;
  createdAt: number;
  /** The shared folder (the owner's row). */
  fileId: string;
  updateDate: number;
  childrenCount: number;
  ownerUsername: string;
  ownerShowName: string;
}

/** One entry of a folder listing: a row of the tree, or a mount placed in the folder. */
export type ListedEntry = { kind: 'file'; row: FileRow } | { kind: 'mount'; mount: MountEntry };

const sortColumns = {
  name: 'name',
  size: 'size',
  updateDate: 'updateDate',
  uploadDate: 'uploadDate',
} as const;

/** The pages of a folder's listing (or the trash, a type, a tag…) and of the user's mounts. */
export class FolderListingRepo {
  constructor(
    private readonly db: Db,
    private readonly rows: FilesRepo,
  ) {}

  async list(q: ListQuery): Promise<{ rows: FileRow[]; total: number }> {
    const { entries, total } = await this.listEntries(q, false);
    return { rows: entries.flatMap((e) => (e.kind === 'file' ? [e.row] : [])), total };
  }

  /**
   * A page of a listing, folders first. With `withMounts` (a folder listing), the user's mounts
   * placed in the folder sort among its folders, ordered by the database with them.
   */
  async listEntries(
    q: ListQuery,
    withMounts: boolean,
  ): Promise<{ entries: ListedEntry[]; total: number }> {
    let base = this.db.selectFrom('file').where('userId', '=', q.userId);
    if (q.trash) base = base.where('trashId', 'is not', null).whereRef('trashId', '=', 'id');
    else base = base.where('trashId', 'is', null);
    if (q.parentId !== undefined) base = base.where('parentId', '=', q.parentId);
    if (q.fileType) base = base.where('fileType', '=', q.fileType);
    if (q.favorite) base = base.where('isFavorite', '=', 1);
    if (q.tagId)
      base = base.where('id', 'in', (eb) =>
        eb.selectFrom('fileTag').select('fileId').where('tagId', '=', q.tagId!),
      );
    if (q.foldersOnly) base = base.where('isFolder', '=', 1);
    const direction = q.order === 'descending' ? 'desc' : 'asc';
    const column = sortColumns[q.sortProp];
    const count = (query: typeof base) =>
      query
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    const page = (query: typeof base, offset: number, limit: number) => {
      let ordered = query.selectAll().orderBy(column, direction);
      if (q.sortProp !== 'name') ordered = ordered.orderBy('name', 'asc');
      return ordered.offset(offset).limit(limit).execute();
    };
    const asFiles = (rows: FileRow[]): ListedEntry[] => rows.map((row) => ({ kind: 'file', row }));
    // folders first: each half is read in index order, whatever the sort
    const folders = base.where('isFolder', '=', 1);
    const filesOnly = base.where('isFolder', '=', 0);
    const mountCount =
      withMounts && q.parentId !== undefined && !q.trash && !q.filesOnly
        ? await this.countMounts(q.userId, q.parentId)
        : 0;
    const folderCount = q.filesOnly ? 0 : (await count(folders)) + mountCount;
    const total = q.foldersOnly
      ? folderCount
      : q.knownTotal !== undefined && !q.filesOnly && q.knownTotal + mountCount >= folderCount
        ? q.knownTotal + mountCount
        : folderCount + (await count(filesOnly));
    const entries: ListedEntry[] = [];
    if (q.offset < folderCount) {
      entries.push(
        ...(mountCount > 0
          ? await this.foldersAndMounts(q, folders, q.offset, q.limit)
          : asFiles(await page(folders, q.offset, q.limit))),
      );
    }
    const remaining = q.limit - entries.length;
    if (remaining > 0 && !q.foldersOnly)
      entries.push(
        ...asFiles(await page(filesOnly, Math.max(0, q.offset - folderCount), remaining)),
      );
    return { entries, total };
  }

  /** The mounts of the user whose shared folder is alive. */
  private liveMounts(userId: string) {
    return this.db
      .selectFrom('mount')
      .innerJoin('share', 'share.id', 'mount.shareId')
      .innerJoin('file as shared', 'shared.id', 'share.fileId')
      .where('mount.userId', '=', userId)
      .where('shared.trashId', 'is', null);
  }

  /** The mounts of the user placed in a folder whose shared folder is alive. */
  private mountsIn(userId: string, parentId: string) {
    return this.liveMounts(userId).where('mount.parentId', '=', parentId);
  }

  /** A page of all the user's live mounts, wherever they sit, by name. */
  async mountPage(
    userId: string,
    order: 'asc' | 'desc',
    offset: number,
    limit: number,
  ): Promise<{ mounts: MountEntry[]; total: number }> {
    const { n } = await this.liveMounts(userId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const keys = await this.liveMounts(userId)
      .select('mount.id as id')
      .orderBy('mount.name', order)
      .orderBy('mount.id', 'asc')
      .offset(offset)
      .limit(limit)
      .execute();
    const byId = new Map(
      (
        await this.mountEntries(
          userId,
          keys.map((k) => k.id),
        )
      ).map((m) => [m.mountId, m]),
    );
    return {
      mounts: keys.flatMap((k) => byId.get(k.id) ?? []),
      total: Number(n),
    };
  }

  async countMounts(userId: string, parentId: string): Promise<number> {
    const r = await this.mountsIn(userId, parentId)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /**
   * A page of a folder's folders and the mounts in it, merged and paged by the database: one
   * sorted union of (id, sort key, name), then the rows of the page.
   */
  private async foldersAndMounts(
    q: ListQuery,
    folders: SelectQueryBuilder<Database, 'file', object>,
    offset: number,
    limit: number,
  ): Promise<ListedEntry[]> {
    const direction = q.order === 'descending' ? 'desc' : 'asc';
    // what a mount sorts by: its name, its date in this drive, the shared folder's change
    // date; it takes no space in the mounter's drive
    const mountKey: RawBuilder<string | number> = {
      name: sql<string>`${sql.ref('mount.name')}`,
      size: sql<number>`0`,
      updateDate: sql<number>`${sql.ref('shared.updateDate')}`,
      uploadDate: sql<number>`${sql.ref('mount.createdAt')}`,
    }[q.sortProp];
    const fileArm = folders.select([
      'file.id as id',
      'file.name as name',
      sql<number>`0`.as('isMount'),
      sql<string | number>`${sql.ref(`file.${sortColumns[q.sortProp]}`)}`.as('sortKey'),
    ]);
    const mountArm = this.mountsIn(q.userId, q.parentId!).select([
      'mount.id as id',
      'mount.name as name',
      sql<number>`1`.as('isMount'),
      mountKey.as('sortKey'),
    ]);
    let union = fileArm.unionAll(mountArm).orderBy('sortKey', direction);
    if (q.sortProp !== 'name') union = union.orderBy('name', 'asc');
    // a mount may share its name with a folder made after it: the order stays total
    const keys = await union
      .orderBy('isMount', 'asc')
      .orderBy('id', 'asc')
      .offset(offset)
      .limit(limit)
      .execute();
    const fileIds = keys.filter((k) => Number(k.isMount) === 0).map((k) => k.id);
    const mountIds = keys.filter((k) => Number(k.isMount) === 1).map((k) => k.id);
    const rows = new Map((await this.rows.liveMany(q.userId, fileIds)).map((r) => [r.id, r]));
    const mounts = new Map(
      (await this.mountEntries(q.userId, mountIds)).map((m) => [m.mountId, m]),
    );
    const out: ListedEntry[] = [];
    for (const key of keys) {
      const row = rows.get(key.id);
      const mount = mounts.get(key.id);
      if (row) out.push({ kind: 'file', row });
      else if (mount) out.push({ kind: 'mount', mount });
    }
    return out;
  }

  async mountEntries(userId: string, mountIds: string[]): Promise<MountEntry[]> {
    if (mountIds.length === 0) return [];
    return this.db
      .selectFrom('mount')
      .innerJoin('share', 'share.id', 'mount.shareId')
      .innerJoin('file as shared', 'shared.id', 'share.fileId')
      .innerJoin('user as owner', 'owner.id', 'share.userId')
      .where('mount.userId', '=', userId)
      .where('mount.id', 'in', mountIds)
      .select([
        'mount.id as mountId',
        'mount.shareId as shareId',
        'mount.name as name',
        'mount.parentId as parentId',
        'mount.createdAt as createdAt',
        'shared.id as fileId',
        'shared.updateDate as updateDate',
        'shared.childrenCount as childrenCount',
        'owner.username as ownerUsername',
        'owner.showName as ownerShowName',
      ])
      .execute()
      .then((rows) =>
        rows.map((r) => ({
          ...r,
          createdAt: Number(r.createdAt),
          updateDate: Number(r.updateDate),
          childrenCount: Number(r.childrenCount),
        })),
      );
  }
}
