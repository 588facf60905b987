import { ErrorCode, formatSize } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';
import type { SpaceRepo } from './space.repo.ts';

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
  /** The request's field that asks for the bytes, named when they do not fit. */
  field?: string;
}

/**
 * The one quota calculation: the user's quota minus the bytes of their files (the trash
 * included), the bytes reserved by their uploads under way (sessions that have not lapsed) and
 * the bytes held by their operations in flight (copies and extractions between their disk work
 * and their commit, `file_op.bytes`).
 */
export async function spaceLeft(repo: SpaceRepo, userId: string, options: SpaceOptions = {}) {
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

/**
 * The drive has no room for `needed` more bytes (`free` are left): a client mistake, 413, that
 * says how much is needed and free and, when one field asks for the bytes, names it.
 */
export const spaceFull = (needed?: number, free?: number, field?: string) => {
  if (needed === undefined || free === undefined)
    return new AppError(ErrorCode.SPACE_FULL, 'Not enough space left in your drive for this');
  const left = Math.max(0, free);
  return new AppError(
    ErrorCode.SPACE_FULL,
    `${field ? `${field}: ` : ''}Not enough space: needs ${formatSize(needed)}, ${formatSize(left)} free`,
    { ...(field ? { field } : {}), needed, free: left },
  );
};

/**
 * The binding check: in one transaction holding the user's row, make sure `bytes` more fit
 * and run `reserve`, which records what takes the space (an upload session, an operation's
 * intent). Two requests at once are checked one after the other, so both cannot pass.
 */
export function withSpace<T>(
  db: Db,
  repo: SpaceRepo,
  userId: string,
  bytes: number,
  reserve: (trx: Db) => Promise<T>,
  options: Omit<SpaceOptions, 'trx'> = {},
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await repo.lockOwner(userId, trx);
    if (bytes > 0) {
      const free = await spaceLeft(repo, userId, { ...options, trx });
      if (free < bytes) throw spaceFull(bytes, free, options.field);
    }
    return reserve(trx);
  });
}
