import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DavLockTable } from '../../db/schema.ts';

export type LockRow = Selectable<DavLockTable>;

/** The queries of the locks on a user's items (taken over WebDAV, kept for every node). */
export class ItemLocksRepo {
  constructor(private readonly db: Db) {}

  /** The user's locks in force (a few at most, usually none: one query for a whole change). */
  locksOf(userId: string, now: number): Promise<LockRow[]> {
    return this.db
      .selectFrom('davLock')
      .selectAll()
      .where('userId', '=', userId)
      .where('expiresAt', '>', now)
      .execute();
  }
}
