import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DavLockTable } from '../../db/schema.ts';
import { startsWithPath } from '../../db/path-range.ts';

export type LockRow = Selectable<DavLockTable>;

export interface PropertyRow {
  fileId: string;
  name: string;
  value: string;
}

class TooManyProps extends Error {}

/** The queries of WebDAV's locks and dead properties. */
export class WebdavRepo {
  constructor(private readonly db: Db) {}

  // ---- locks ----------------------------------------------------------------------------

  /**
   * The user's locks in force that touch `path`: on it, on one of `ancestors`, or (with
   * `below`) on anything under it.
   */
  locksAround(
    userId: string,
    path: string,
    ancestors: string[],
    below: boolean,
    now: number,
  ): Promise<LockRow[]> {
    const prefix = path === '/' ? '/' : `${path}/`;
    return this.db
      .selectFrom('davLock')
      .selectAll()
      .where('userId', '=', userId)
      .where('expiresAt', '>', now)
      .where((eb) =>
        eb.or([
          eb('path', 'in', [path, ...ancestors]),
          ...(below ? [startsWithPath(this.db, prefix)] : []),
        ]),
      )
      .execute();
  }

  byToken(userId: string, token: string, now: number): Promise<LockRow | undefined> {
    return this.db
      .selectFrom('davLock')
      .selectAll()
      .where('userId', '=', userId)
      .where('token', '=', token)
      .where('expiresAt', '>', now)
      .executeTakeFirst();
  }

  async countLocks(userId: string, now: number): Promise<number> {
    const r = await this.db
      .selectFrom('davLock')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('expiresAt', '>', now)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async insertLock(row: LockRow): Promise<void> {
    await this.db.insertInto('davLock').values(row).execute();
  }

  async refreshLock(token: string, timeoutSeconds: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('davLock')
      .set({ timeoutSeconds, expiresAt })
      .where('token', '=', token)
      .execute();
  }

  async deleteLock(userId: string, token: string): Promise<boolean> {
    const res = await this.db
      .deleteFrom('davLock')
      .where('userId', '=', userId)
      .where('token', '=', token)
      .executeTakeFirst();
    return Number(res.numDeletedRows) > 0;
  }

  /** The locks on an item and everything under it (it was deleted or moved away). */
  async deleteLocksAt(userId: string, path: string): Promise<void> {
    const prefix = `${path}/`;
    await this.db
      .deleteFrom('davLock')
      .where('userId', '=', userId)
      .where((eb) => eb.or([eb('path', '=', path), startsWithPath(this.db, prefix)]))
      .execute();
  }

  async pruneLocks(now: number): Promise<void> {
    await this.db.deleteFrom('davLock').where('expiresAt', '<=', now).execute();
  }

  // ---- dead properties ------------------------------------------------------------------

  propsOf(fileId: string): Promise<PropertyRow[]> {
    return this.db
      .selectFrom('davProperty')
      .select(['fileId', 'name', 'value'])
      .where('fileId', '=', fileId)
      .execute();
  }

  /** The properties of every item in a folder, in one query (a PROPFIND of depth 1). */
  propsOfChildren(userId: string, parentId: string): Promise<PropertyRow[]> {
    return this.db
      .selectFrom('davProperty')
      .innerJoin('file', 'file.id', 'davProperty.fileId')
      .select(['davProperty.fileId', 'davProperty.name', 'davProperty.value'])
      .where('file.userId', '=', userId)
      .where('file.parentId', '=', parentId)
      .where('file.trashId', 'is', null)
      .execute();
  }

  /** Set and remove properties of an item, all or none; false when it would hold more than `max`. */
  async updateProps(
    fileId: string,
    changes: ({ name: string; value: string } | { name: string; value: null })[],
    max: number,
  ): Promise<boolean> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        for (const change of changes) {
          await trx
            .deleteFrom('davProperty')
            .where('fileId', '=', fileId)
            .where('name', '=', change.name)
            .execute();
          if (change.value !== null)
            await trx
              .insertInto('davProperty')
              .values({ fileId, name: change.name, value: change.value })
              .execute();
        }
        const held = await trx
          .selectFrom('davProperty')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('fileId', '=', fileId)
          .executeTakeFirstOrThrow();
        if (Number(held.n) <= max) return true;
        // more than an item may keep: undone with the transaction
        throw new TooManyProps();
      })
      .catch((err: unknown) => {
        if (err instanceof TooManyProps) return false;
        throw err;
      });
  }

  /** Copies get the properties of what they were copied from: pairs of (from, to) ids. */
  async copyProps(pairs: [string, string][]): Promise<void> {
    const to = new Map(pairs);
    const froms = [...to.keys()];
    for (let i = 0; i < froms.length; i += 500) {
      const rows = await this.db
        .selectFrom('davProperty')
        .select(['fileId', 'name', 'value'])
        .where('fileId', 'in', froms.slice(i, i + 500))
        .execute();
      if (rows.length === 0) continue;
      await this.db
        .insertInto('davProperty')
        .values(rows.map((r) => ({ ...r, fileId: to.get(r.fileId)! })))
        .execute();
    }
  }
}
