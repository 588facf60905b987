import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** The queries of a user's space: the quota's facts, what the used bytes are made of. */
export class SpaceRepo {
  constructor(private readonly db: Db) {}

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
}
