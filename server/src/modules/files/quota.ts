import { ErrorCode } from '@nimbus/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';

/** An upload session untouched this long is abandoned: it reserves nothing and is removed. */
export const SESSION_IDLE_MS = 3 * 86400_000;
/** The same for a share visitor's upload session: a visitor's reservation lapses much sooner. */
export const VISITOR_SESSION_IDLE_MS = 3600_000;

export interface SpaceOptions {
  /** Read inside this transaction (one that holds the user's row, see lockUser). */
  trx?: Db;
  /** An upload session whose reservation is being turned into a file: not counted. */
  exceptSession?: string;
  now?: number;
}

/**
 * The one quota calculation: the user's quota minus the bytes of their files (the trash
 * included), the bytes reserved by their uploads under way (sessions that have not lapsed) and
 * the bytes held by their operations in flight (copies and extractions between their disk work
 * and their commit, `file_op.bytes`).
 */
export async function spaceLeft(db: Db, userId: string, options: SpaceOptions = {}) {
  const q = options.trx ?? db;
  const now = options.now ?? Date.now();
  const user = await q
    .selectFrom('user')
    .select(['usedBytes', 'quotaGb'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user) throw new AppError(ErrorCode.USER_NOT_FOUND, 'User not found');
  let sessions = q
    .selectFrom('uploadSession')
    .select((eb) => eb.fn.sum<number>('totalSize').as('bytes'))
    .where('userId', '=', userId)
    .where('state', 'in', ['uploading', 'merging'])
    .where((eb) =>
      eb.or([
        eb.and([eb('shareId', 'is', null), eb('updatedAt', '>=', now - SESSION_IDLE_MS)]),
        eb.and([
          eb('shareId', 'is not', null),
          eb('updatedAt', '>=', now - VISITOR_SESSION_IDLE_MS),
        ]),
      ]),
    );
  if (options.exceptSession) sessions = sessions.where('id', '!=', options.exceptSession);
  const reserved = await sessions.executeTakeFirstOrThrow();
  const held = await q
    .selectFrom('fileOp')
    .select((eb) => eb.fn.sum<number>('bytes').as('bytes'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return (
    user.quotaGb * 1024 ** 3 -
    Number(user.usedBytes) -
    Number(reserved.bytes ?? 0) -
    Number(held.bytes ?? 0)
  );
}

export const spaceFull = () =>
  new AppError(ErrorCode.SPACE_FULL, 'Not enough space left in your drive for this');

/**
 * Take the user's row for the rest of the transaction, so that checks of the quota and the
 * reservations they guard happen one after the other (PostgreSQL row lock; SQLite transactions
 * are serialised already).
 */
export async function lockUser(trx: Db, userId: string): Promise<void> {
  await trx
    .updateTable('user')
    .set({ usedBytes: sql<number>`used_bytes` })
    .where('id', '=', userId)
    .execute();
}

/**
 * The binding check: in one transaction holding the user's row, make sure `bytes` more fit
 * and run `reserve`, which records what takes the space (an upload session, an operation's
 * intent). Two requests at once are checked one after the other, so both cannot pass.
 */
export function withSpace<T>(
  db: Db,
  userId: string,
  bytes: number,
  reserve: (trx: Db) => Promise<T>,
  options: Omit<SpaceOptions, 'trx'> = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await lockUser(trx, userId);
    if (bytes > 0 && (await spaceLeft(db, userId, { ...options, trx })) < bytes) throw spaceFull();
    return reserve(trx);
  });
}
