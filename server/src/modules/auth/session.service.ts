import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { newToken, sha256 } from '../../lib/ids.ts';
import { SessionRepo } from './auth.repo.ts';

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
  private readonly repo: SessionRepo;

  constructor(
    db: Db,
    private readonly config: Config,
    private readonly now: () => number = Date.now,
  ) {
    this.repo = new SessionRepo(db);
  }

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
    await this.repo.insert({
      id: sha256(token),
      userId,
      remember: remember ? 1 : 0,
      createdAt: now,
      expiresAt: now + this.ttl(remember),
      lastSeenAt: now,
      revokedAt: null,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
      ip: meta.ip === undefined ? null : storedAddress(meta.ip),
    });
    return token;
  }

  /** The live session behind a token, or null when it is unknown, expired or revoked. */
  async resolve(token: string): Promise<SessionInfo | null> {
    const id = sha256(token);
    const row = await this.repo.find(id);
    const now = this.now();
    if (!row || row.revokedAt !== null || row.expiresAt <= now) return null;
    const remember = row.remember === 1;
    const lifetime = this.ttl(remember);
    if (row.expiresAt - now < lifetime / 2 && row.expiresAt - row.createdAt >= lifetime / 2) {
      const refreshedToken = await this.create(row.userId, remember, {
        userAgent: row.userAgent ?? undefined,
        ip: row.ip ?? undefined,
      });
      await this.repo.setExpiresAt(id, Math.min(row.expiresAt, now + ROTATION_GRACE_MS));
      return { sessionId: sha256(refreshedToken), userId: row.userId, refreshedToken };
    }
    if (now - row.lastSeenAt > 60_000) {
      await this.repo.touch(id, now);
    }
    return { sessionId: id, userId: row.userId };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.repo.revoke(sessionId, this.now());
  }

  /** Revoke every session of a user, except one that should survive (the caller's own). */
  async revokeAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
    await this.repo.revokeAllOf(userId, this.now(), exceptSessionId);
  }

  /** How many sessions of the user are live, besides one (the caller's own). */
  countLive(userId: string, exceptSessionId?: string): Promise<number> {
    return this.repo.countLiveOf(userId, this.now(), exceptSessionId);
  }

  /** True when the user signed in from this address since the given time. */
  async signedInFrom(userId: string, ip: string, since: number): Promise<boolean> {
    return this.repo.madeFrom(userId, storedAddress(ip), since);
  }

  /** Drop rows that can no longer be used nor tell where the account signed in from. */
  async prune(): Promise<void> {
    await this.repo.deleteEndedBefore(this.now() - SIGN_IN_MEMORY_MS);
  }
}
