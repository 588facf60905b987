import { ErrorCode } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { AppError } from '../../lib/errors.ts';

/** Failed sign-ins allowed in a window before the key is locked (per username, per address). */
const LIMITS = {
  user: { failures: 5, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
  ip: { failures: 20, windowMs: 15 * 60_000, lockMs: 15 * 60_000 },
} as const;

type Kind = keyof typeof LIMITS;

const keyOf = (kind: Kind, value: string) => `${kind}:${value.toLowerCase()}`;

/** Sign-in throttling kept in the database so every node shares it. */
export class LoginThrottle {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async assertAllowed(username: string, ip: string): Promise<void> {
    const rows = await this.db
      .selectFrom('loginAttempt')
      .selectAll()
      .where('key', 'in', [keyOf('user', username), keyOf('ip', ip)])
      .execute();
    const now = this.now();
    const lockedUntil = Math.max(0, ...rows.map((r) => r.lockedUntil));
    if (lockedUntil > now) {
      const minutes = Math.ceil((lockedUntil - now) / 60_000);
      throw new AppError(
        ErrorCode.TOO_MANY_REQUESTS,
        `Too many failed sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        { retryAfterSeconds: Math.ceil((lockedUntil - now) / 1000) },
      );
    }
  }

  async recordFailure(username: string, ip: string): Promise<void> {
    await this.bump('user', username);
    await this.bump('ip', ip);
  }

  async recordSuccess(username: string): Promise<void> {
    await this.db.deleteFrom('loginAttempt').where('key', '=', keyOf('user', username)).execute();
  }

  private async bump(kind: Kind, value: string): Promise<void> {
    const limit = LIMITS[kind];
    const key = keyOf(kind, value);
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
        else await trx.insertInto('loginAttempt').values(values).execute();
        return;
      }
      const failures = row.failures + 1;
      const lockedUntil = failures >= limit.failures ? now + limit.lockMs : row.lockedUntil;
      await trx
        .updateTable('loginAttempt')
        .set({
          failures: failures >= limit.failures ? 0 : failures,
          lockedUntil,
          windowStart: failures >= limit.failures ? now : row.windowStart,
        })
        .where('key', '=', key)
        .execute();
    });
  }
}
