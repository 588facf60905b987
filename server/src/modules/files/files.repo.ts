import {
  sql,
  type Insertable,
  type RawBuilder,
  type Selectable,
  type SelectQueryBuilder,
  type Updateable,
} from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, FileTable } from '../../db/schema.ts';
import { escapeLike } from './names.ts';

export type FileRow = Selectable<FileTable>;
export type NewFileRow = Insertable<FileTable>;

export const ROOT_ID = '0';

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

/** `/a/b/` for the folder row `b` under `/a/`: the path of its children. */
export const prefixOf = (row: Pick<FileRow, 'path' | 'name'>) => `${row.path}${row.name}/`;

/** `substr(path, 1, n) = prefix`: every row below a folder, counted in characters. */
export const underPrefix = (prefix: string) =>
  sql<boolean>`substr(path, 1, ${[...prefix].length}) = ${prefix}`;

/** The folders whose children have the path `prefix`, and those above it: `/a/b/` gives a, b. */
export function foldersAlong(prefix: string): Array<{ path: string; name: string }> {
  const names = prefix.split('/').filter(Boolean);
  return names.map((name, i) => ({ path: `/${names.slice(0, i).join('/')}${i ? '/' : ''}`, name }));
}

export class FilesRepo {
  constructor(private readonly db: Db) {}

  /** The user's live rows (not in the trash): where most queries start. */
  private liveRows(userId: string, trx: Db = this.db) {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is', null);
  }

  byId(userId: string, id: string, trx: Db = this.db): Promise<FileRow | undefined> {
    return trx
      .selectFrom('file')
      .selectAll()
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
  }

  live(userId: string, id: string, trx: Db = this.db): Promise<FileRow | undefined> {
    return this.liveRows(userId, trx).where('id', '=', id).executeTakeFirst();
  }

  /**
   * The user's live rows among `ids`. Read by primary key alone, a slice at a time: with the
   * user in the query a database may walk the user's whole index instead, and a selection of a
   * whole folder can hold 100,000 ids (more than a statement may bind).
   */
  /**
   * The rows among `ids` that still exist, live or in the trash, whoever owns them: for the
   * cache sweep, which knows files only by the ids in its entries' keys.
   */
  async existing(ids: string[]): Promise<FileRow[]> {
    const out: FileRow[] = [];
    for (let i = 0; i < ids.length; i += 1000)
      out.push(
        ...(await this.db
          .selectFrom('file')
          .selectAll()
          .where('id', 'in', ids.slice(i, i + 1000))
          .execute()),
      );
    return out;
  }

  async liveMany(userId: string, ids: string[], trx: Db = this.db): Promise<FileRow[]> {
    const out: FileRow[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await trx
        .selectFrom('file')
        .selectAll()
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
      for (const row of rows) if (row.userId === userId && row.trashId === null) out.push(row);
    }
    return out;
  }

  /** A live file of the user with this content hash and size (an instant upload copies it). */
  liveWithContent(userId: string, hash: string, size: number): Promise<FileRow | undefined> {
    return this.liveRows(userId)
      .where('hash', '=', hash)
      .where('size', '=', size)
      .where('isFolder', '=', 0)
      .executeTakeFirst();
  }

  /** The live item at `/a/b` given as its parent path `/a/` and name `b`. */
  liveAt(userId: string, parentPath: string, name: string): Promise<FileRow | undefined> {
    return this.liveRows(userId)
      .where('path', '=', parentPath)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  /** The live rows directly in a folder. */
  liveChildren(userId: string, parentId: string): Promise<FileRow[]> {
    return this.liveRows(userId).where('parentId', '=', parentId).execute();
  }

  /** The live folder at `/a/b` given as its parent path `/a/` and name `b`. */
  folderAt(
    userId: string,
    parentPath: string,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow | undefined> {
    return this.liveRows(userId, trx)
      .where('path', '=', parentPath)
      .where('name', '=', name)
      .where('isFolder', '=', 1)
      .executeTakeFirst();
  }

  childNamed(
    userId: string,
    parentId: string,
    name: string,
    trx: Db = this.db,
  ): Promise<FileRow | undefined> {
    return this.liveRows(userId, trx)
      .where('parentId', '=', parentId)
      .where('name', '=', name)
      .executeTakeFirst();
  }

  async childNames(userId: string, parentId: string, trx: Db = this.db): Promise<Set<string>> {
    const rows = await trx
      .selectFrom('file')
      .select('name')
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .where('trashId', 'is', null)
      .execute();
    // a mounted share placed in the folder holds its name too
    const mounts = await trx
      .selectFrom('mount')
      .select('name')
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .execute();
    return new Set([...rows, ...mounts].map((r) => r.name));
  }

  /** Whether a share the user mounted sits in this folder under this name. */
  async mountNamed(userId: string, parentId: string, name: string, trx: Db = this.db) {
    const found = await trx
      .selectFrom('mount')
      .select('id')
      .where('userId', '=', userId)
      .where('parentId', '=', parentId)
      .where('name', '=', name)
      .executeTakeFirst();
    return found !== undefined;
  }

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
    const rows = new Map((await this.liveMany(q.userId, fileIds)).map((r) => [r.id, r]));
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

  /** Every live row below a folder whose own path+name is `prefix` (`/a/b/`). */
  descendants(userId: string, prefix: string, trx: Db = this.db): Promise<FileRow[]> {
    return this.liveRows(userId, trx).where(underPrefix(prefix)).execute();
  }

  /**
   * The rows below a folder (`/a/b/`) and the bytes of its files: a folder row's own size is
   * the sum of what is below it, so it is never counted a second time.
   */
  async subtreeTotals(
    userId: string,
    prefix: string,
    trx: Db = this.db,
  ): Promise<{ count: number; bytes: number }> {
    const r = await trx
      .selectFrom('file')
      .select((eb) => [
        eb.fn.countAll<number>().as('n'),
        eb.fn.sum<number>(sql<number>`case when is_folder = 0 then size else 0 end`).as('bytes'),
      ])
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(underPrefix(prefix))
      .executeTakeFirstOrThrow();
    return { count: Number(r.n), bytes: Number(r.bytes ?? 0) };
  }

  /**
   * The longest path (in bytes, its name included) and the deepest one (in folders) among the
   * rows below a folder: the live ones under `prefix`, or those of one trash entry. One query,
   * whatever the tree holds; zeros when there is nothing below.
   */
  async deepestBelow(
    userId: string,
    below: { prefix: string } | { trashId: string },
    trx: Db = this.db,
  ): Promise<{ bytes: number; depth: number }> {
    let query = trx
      .selectFrom('file')
      .select([
        sql<number | null>`max(octet_length(path) + octet_length(name))`.as('bytes'),
        sql<number | null>`max(length(path) - length(replace(path, '/', '')))`.as('depth'),
      ])
      .where('userId', '=', userId);
    query =
      'prefix' in below
        ? query.where('trashId', 'is', null).where(underPrefix(below.prefix))
        : query.where('trashId', '=', below.trashId).whereRef('id', '!=', 'trashId');
    const r = await query.executeTakeFirstOrThrow();
    return { bytes: Number(r.bytes ?? 0), depth: Number(r.depth ?? 0) };
  }

  /** Rewrite the path prefix of every live row below a folder: one statement. */
  async rewritePrefix(
    userId: string,
    oldPrefix: string,
    newPrefix: string,
    trx: Db = this.db,
  ): Promise<void> {
    const cut = [...oldPrefix].length + 1;
    await trx
      .updateTable('file')
      .set({ path: sql<string>`${newPrefix} || substr(path, ${cut})` })
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where(underPrefix(oldPrefix))
      .execute();
  }

  async adjustChildren(parentId: string, delta: number, trx: Db = this.db): Promise<void> {
    if (parentId === ROOT_ID || delta === 0) return;
    await trx
      .updateTable('file')
      .set({ childrenCount: sql<number>`children_count + ${delta}` })
      .where('id', '=', parentId)
      .execute();
  }

  /**
   * Bytes added (or, negative, taken away) in the live folder whose children have the path
   * `prefix` (`/a/b/`): that folder and every folder above it carry them in their size. One
   * statement, whatever the depth; the root (`/`) has no row.
   */
  async addToFolderSizes(
    userId: string,
    prefix: string,
    delta: number,
    trx: Db = this.db,
  ): Promise<void> {
    const folders = foldersAlong(prefix);
    if (delta === 0 || folders.length === 0) return;
    await trx
      .updateTable('file')
      .set({ size: sql<number>`size + ${delta}` })
      .where('userId', '=', userId)
      .where('trashId', 'is', null)
      .where('isFolder', '=', 1)
      .where((eb) =>
        eb.or(folders.map((f) => eb.and([eb('path', '=', f.path), eb('name', '=', f.name)]))),
      )
      .execute();
  }

  /** Set the sizes of some folders (the folder-size pass), in one transaction. */
  async setFolderSizes(sizes: Array<{ id: string; size: number }>, trx: Db): Promise<void> {
    for (const { id, size } of sizes)
      await trx.updateTable('file').set({ size }).where('id', '=', id).execute();
  }

  async adjustUsed(userId: string, delta: number, trx: Db = this.db): Promise<void> {
    if (delta === 0) return;
    await trx
      .updateTable('user')
      .set({ usedBytes: sql<number>`used_bytes + ${delta}` })
      .where('id', '=', userId)
      .execute();
  }

  /**
   * Set some keys of a row's `media` facts (one key per module: image, music, video…), keeping
   * the others; answers the facts as stored, or undefined when the row is gone.
   */
  async setMediaKeys(
    userId: string,
    id: string,
    values: Record<string, unknown>,
  ): Promise<string | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('file')
        .select('media')
        .where('id', '=', id)
        .where('userId', '=', userId)
        .executeTakeFirst();
      if (!row) return undefined;
      const media = { ...parseMedia(row.media), ...values };
      const text = JSON.stringify(media);
      await trx.updateTable('file').set({ media: text }).where('id', '=', id).execute();
      return text;
    });
  }

  /** Change some fields of one row. */
  async update(id: string, changes: Updateable<FileTable>, trx: Db = this.db): Promise<void> {
    await trx.updateTable('file').set(changes).where('id', '=', id).execute();
  }

  async setFavorite(userId: string, ids: string[], favorite: boolean): Promise<void> {
    for (let i = 0; i < ids.length; i += 1000)
      await this.db
        .updateTable('file')
        .set({ isFavorite: favorite ? 1 : 0 })
        .where('userId', '=', userId)
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
  }

  /** The items the user put in the trash (not the rows that went with them). */
  trashRoots(userId: string): Promise<FileRow[]> {
    return this.db
      .selectFrom('file')
      .selectAll()
      .where('userId', '=', userId)
      .where('trashId', 'is not', null)
      .whereRef('trashId', '=', 'id')
      .execute();
  }

  /** Delete a live row and, for a folder, every live row below it. */
  async deleteLive(userId: string, row: FileRow, trx: Db): Promise<void> {
    if (row.isFolder)
      await trx
        .deleteFrom('file')
        .where('userId', '=', userId)
        .where('trashId', 'is', null)
        .where(underPrefix(prefixOf(row)))
        .execute();
    await trx.deleteFrom('file').where('id', '=', row.id).execute();
  }

  /** The user's live folders (id, path, name, size) and files (path, size): the folder-size pass. */
  async liveTree(userId: string) {
    const folders = await this.db
      .selectFrom('file')
      .select(['id', 'path', 'name', 'size'])
      .where('userId', '=', userId)
      .where('isFolder', '=', 1)
      .where('trashId', 'is', null)
      .execute();
    const files = await this.db
      .selectFrom('file')
      .select(['path', 'size'])
      .where('userId', '=', userId)
      .where('isFolder', '=', 0)
      .where('trashId', 'is', null)
      .execute();
    return { folders, files };
  }

  /**
   * What the quota calculation (quota.ts) needs: the user's quota and used bytes, the bytes
   * reserved by their upload sessions touched after the given times (their own, a share
   * visitor's) and the bytes held by their operations in flight. Undefined: no such user.
   */
  async spaceFacts(
    userId: string,
    sessions: { after: number; visitorAfter: number; exceptSession?: string },
    trx: Db = this.db,
  ) {
    const user = await trx
      .selectFrom('user')
      .select(['usedBytes', 'quotaGb'])
      .where('id', '=', userId)
      .executeTakeFirst();
    if (!user) return undefined;
    let reserving = trx
      .selectFrom('uploadSession')
      .select((eb) => eb.fn.sum<number>('totalSize').as('bytes'))
      .where('userId', '=', userId)
      .where('state', 'in', ['uploading', 'merging'])
      .where((eb) =>
        eb.or([
          eb.and([eb('shareId', 'is', null), eb('updatedAt', '>=', sessions.after)]),
          eb.and([eb('shareId', 'is not', null), eb('updatedAt', '>=', sessions.visitorAfter)]),
        ]),
      );
    if (sessions.exceptSession) reserving = reserving.where('id', '!=', sessions.exceptSession);
    const reserved = await reserving.executeTakeFirstOrThrow();
    const held = await trx
      .selectFrom('fileOp')
      .select((eb) => eb.fn.sum<number>('bytes').as('bytes'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      quotaBytes: user.quotaGb * 1024 ** 3,
      usedBytes: Number(user.usedBytes),
      reservedBytes: Number(reserved.bytes ?? 0),
      heldBytes: Number(held.bytes ?? 0),
    };
  }

  /**
   * What the user's used space is made of: the bytes of their live files, of their files in the
   * trash and of the earlier versions kept of their documents (one query each).
   */
  async spaceUse(userId: string) {
    const files = await this.db
      .selectFrom('file')
      .select((eb) => [
        eb.fn.sum<number>(sql<number>`case when trash_id is null then size else 0 end`).as('live'),
        eb.fn
          .sum<number>(sql<number>`case when trash_id is null then 0 else size end`)
          .as('trashed'),
      ])
      .where('userId', '=', userId)
      .where('isFolder', '=', 0)
      .executeTakeFirstOrThrow();
    const versions = await this.db
      .selectFrom('fileVersion')
      .innerJoin('file', 'file.id', 'fileVersion.fileId')
      .select((eb) => eb.fn.sum<number>('fileVersion.storedSize').as('bytes'))
      .where('file.userId', '=', userId)
      .executeTakeFirstOrThrow();
    return {
      files: Number(files.live ?? 0),
      trash: Number(files.trashed ?? 0),
      versions: Number(versions.bytes ?? 0),
    };
  }

  /**
   * Take the user's row for the rest of the transaction, so that checks of the quota and the
   * reservations they guard happen one after the other (PostgreSQL row lock; SQLite
   * transactions are serialised already).
   */
  async lockOwner(userId: string, trx: Db): Promise<void> {
    await trx
      .updateTable('user')
      .set({ usedBytes: sql<number>`used_bytes` })
      .where('id', '=', userId)
      .execute();
  }

  async insertMany(rows: NewFileRow[], trx: Db = this.db): Promise<void> {
    // stay under SQLite's bound-parameter limit
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('file')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  }

  likeName(text: string) {
    return `%${escapeLike(text)}%`;
  }
}

/** A row's `media` facts as an object; damaged or missing facts read as none. */
export function parseMedia(media: string | null): Record<string, unknown> {
  if (!media) return {};
  try {
    const parsed: unknown = JSON.parse(media);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
