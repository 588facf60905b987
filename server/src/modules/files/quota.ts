import { ErrorCode } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { FilesRepo } from './files.repo.ts';

/** An upload session untouched this long is abandoned: it reserves nothing and is removed. */
export const SESSION_IDLE_MS = 3 * 86400_000;
/** The same for a share visitor's upload session: a visitor's reservation lapses much sooner. */
export const VISITOR_SESSION_IDLE_MS = 3600_000;

export interface SpaceOptions {
  /** Read inside this transaction (one that holds the user's row, see withSpace). */
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
export async function spaceLeft(repo: FilesRepo, userId: string, options: SpaceOptions = {}) {
  const now = options.now ?? Date.now();
  const facts = await repo.spaceFacts(
    userId,
    {
      after: now - SESSION_IDLE_MS,
      visitorAfter: now - VISITOR_SESSION_IDLE_MS,
      exceptSession: options.exceptSession,
    },
    options.trx,
  );
  if (!facts) throw new AppError(ErrorCode.USER_NOT_FOUND, 'User not found');
  return facts.quotaBytes - facts.usedBytes - facts.reservedBytes - facts.heldBytes;
}

export const spaceFull = () =>
  new AppError(ErrorCode.SPACE_FULL, 'Not enough space left in your drive for this');

/**
 * The binding check: in one transaction holding the user's row, make sure `bytes` more fit
 * and run `reserve`, which records what takes the space (an upload session, an operation's
 * intent). Two requests at once are checked one after the other, so both cannot pass.
 */
export function withSpace<T>(
  db: Db,
  repo: FilesRepo,
  userId: string,
  bytes: number,
  reserve: (trx: Db) => Promise<T>,
  options: Omit<SpaceOptions, 'trx'> = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await repo.lockOwner(userId, trx);
    if (bytes > 0 && (await spaceLeft(repo, userId, { ...options, trx })) < bytes)
      throw spaceFull();
    return reserve(trx);
  });
}
