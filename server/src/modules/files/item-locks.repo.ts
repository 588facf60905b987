import { sql, type Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { DavLockTable } from '../../db/schema.ts';

export type LockRow = Selectable<DavLockTable>;

/** The queries of the locks on a user's items (taken over WebDAV, kept for every node). */
export class ItemLocksRepo {
  constructor(private readonly db: Db) {}

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
          ...(below ? [sql<boolean>`substr(path, 1, ${[...prefix].length}) = ${prefix}`] : []),
        ]),
      )
      .execute();
  }
}
