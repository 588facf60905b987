import { ErrorCode } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';

/**
 * Wrong share codes allowed before guessing is paused: per share and address, so one visitor
 * cannot lock out the others, and per share, so many addresses together cannot guess a code.
 */
const LIMITS = {
  visitor: { failures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  share: { failures: 100, windowMs: 60 * 60_000, lockMs: 30 * 60_000 },
} as const;

type Kind = keyof typeof LIMITS;

/** Kept in the sign-in attempt table, so every node shares the counters. */
export class ShareCodeThrottle {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  private keys(shareId: string, ip: string): Record<Kind, string> {
    return { visitor: `share:${shareId}:${ip}`, share: `share:${shareId}` };
  }

  async assertAllowed(shareId: string, ip: string): Promise<void> {
    const keys = this.keys(shareId, ip);
    const rows = await this.db
      .selectFrom('loginAttempt')
      .selectAll()
      .where('key', 'in', Object.values(keys))
      .execute();
    const now = this.now();
    const lockedUntil = Math.max(0, ...rows.map((r) => r.lockedUntil));
    if (lockedUntil > now) {
      const minutes = Math.ceil((lockedUntil - now) / 60_000);
      throw new AppError(
        ErrorCode.TOO_MANY_REQUESTS,
        `Too many wrong share codes. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { retryAfterSeconds: Math.ceil((lockedUntil - now) / 1000) },
      );
    }
  }

  async recordFailure(shareId: string, ip: string): Promise<void> {
    const keys = this.keys(shareId, ip);
    for (const kind of Object.keys(LIMITS) as Kind[]) await this.bump(kind, keys[kind]);
  }

  async recordSuccess(shareId: string, ip: string): Promise<void> {
    await this.db
      .deleteFrom('loginAttempt')
      .where('key', '=', this.keys(shareId, ip).visitor)
      .execute();
  }

  private async bump(kind: Kind, key: string): Promise<void> {
    const limit = LIMITS[kind];
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('loginAttempt')
        .selectAll()
        .where('key', '=', key)
        .executeTakeFirst();
      if (!row || now - row.windowStart > limit.windowMs) {
        const values = { key, failures: 1, windowStart: now, lockedUntil: row?.lockedUntil ?? 0 };
        if (row) await trx.updateTable('loginAttempt').set(values).where('key', '=', key).execute();
        else
          await trx
            .insertInto('loginAttempt')
            .values(values)
            .onConflict((oc) => oc.column('key').doNothing())
            .execute();
        return;
      }
      const failures = row.failures + 1;
      const locked = failures >= limit.failures;
      await trx
        .updateTable('loginAttempt')
        .set({
          failures: locked ? 0 : failures,
          lockedUntil: locked ? now + limit.lockMs : row.lockedUntil,
          windowStart: locked ? now : row.windowStart,
        })
        .where('key', '=', key)
        .execute();
    });
  }
}
