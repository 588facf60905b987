import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { newToken, sha256 } from '../../lib/ids.ts';

export interface SessionInfo {
  sessionId: string;
  userId: string;
  /** A replacement token when the session was rotated on this request. */
  refreshedToken?: string;
}

/** How long a rotated-away token keeps working, for requests already in flight. */
const ROTATION_GRACE_MS = 60_000;

/** An address as stored (64 characters at most): one from a proxy header can be anything. */
const storedAddress = (ip: string) => (ip.length <= 64 ? ip : sha256(ip));

/** A session's row is kept this long after it ends: a record of where the account signed in. */
export const SIGN_IN_MEMORY_MS = 30 * 86400_000;

/**
 * Opaque bearer tokens; the database keeps only their SHA-256, so a leaked database holds no
 * usable token. A session past half its lifetime is rotated and the new token sent back.
 */
export class SessionService {
  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly now: () => number = Date.now,
  ) {}

  private ttl(remember: boolean): number {
    return remember ? this.config.rememberTtlMs : this.config.sessionTtlMs;
  }

  async create(
    userId: string,
    remember: boolean,
    meta: { userAgent?: string; ip?: string } = {},
  ): Promise<string> {
    const token = newToken();
    const now = this.now();
    await this.db
      .insertInto('session')
      .values({
        id: sha256(token),
        userId,
        remember: remember ? 1 : 0,
        createdAt: now,
        expiresAt: now + this.ttl(remember),
        lastSeenAt: now,
        revokedAt: null,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
        ip: meta.ip === undefined ? null : storedAddress(meta.ip),
      })
      .execute();
    return token;
  }

  /** The live session behind a token, or null when it is unknown, expired or revoked. */
  async resolve(token: string): Promise<SessionInfo | null> {
    const id = sha256(token);
    const row = await this.db
      .selectFrom('session')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    const now = this.now();
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    const remember = row.remember === 1;
    const lifetime = this.ttl(remember);
    if (row.expiresAt - now < lifetime / 2 && row.expiresAt - row.createdAt >= lifetime / 2) {
      const refreshedToken = await this.create(row.userId, remember, {
        userAgent: row.userAgent ?? undefined,
        ip: row.ip ?? undefined,
      });
      await this.db
        .updateTable('session')
        .set({ expiresAt: Math.min(row.expiresAt, now + ROTATION_GRACE_MS) })
        .where('id', '=', id)
        .execute();
      return { sessionId: sha256(refreshedToken), userId: row.userId, refreshedToken };
    }
    if (now - row.lastSeenAt > 60_000) {
      await this.db.updateTable('session').set({ lastSeenAt: now }).where('id', '=', id).execute();
    }
    return { sessionId: id, userId: row.userId };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .updateTable('session')
      .set({ revokedAt: this.now() })
      .where('id', '=', sessionId)
      .execute();
  }

  /** Revoke every session of a user, except one that should survive (the caller's own). */
  async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
    let q = this.db
      .updateTable('session')
      .set({ revokedAt: this.now() })
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null);
    if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
    await q.execute();
  }

  /** True when the user signed in from this address since the given time. */
  async signedInFrom(userId: string, ip: string, since: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('session')
      .select('id')
      .where('userId', '=', userId)
      .where('ip', '=', storedAddress(ip))
      .where('createdAt', '>=', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Drop rows that can no longer be used nor tell where the account signed in from. */
  async prune(): Promise<void> {
    await this.db
      .deleteFrom('session')
      .where('expiresAt', '<', this.now() - SIGN_IN_MEMORY_MS)
      .execute();
  }
}
