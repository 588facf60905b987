import {
  ACCESS_TOKEN_MAX_LIFETIME_MS,
  accessTokenScope,
  type AccessTokenScope,
  type AccessTokenView,
} from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/access.ts';
import { badParameter, exists, notFound } from '../../lib/errors.ts';
import { newId, newToken, sha256 } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import { AccessTokenRepo } from './auth.repo.ts';

/** Every access token starts so: a session token never does, so one lookup is enough. */
export const ACCESS_TOKEN_PREFIX = 'nat_';
/** Tokens one person may hold. */
export const MAX_ACCESS_TOKENS = 50;
/** The last use is written at most this often per token, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/** The access token a request came with, as its actor carries it. */
export type AccessTokenUse = NonNullable<Actor['accessToken']>;

/** A scope as stored; anything unknown reads only, so a bad row never gives more. */
const scopeOf = (stored: string): AccessTokenScope => {
  const parsed = accessTokenScope.safeParse(stored);
  return parsed.success ? parsed.data : 'read';
};

/**
 * Access tokens: long-lived credentials for programs (WebDAV clients, scripts) and the way in
 * over WebDAV for accounts with two-factor sign-in. Shown once when made, kept as their SHA-256,
 * each with a scope (token-scope.ts) and an optional expiry, refused at once when deleted or
 * expired, and all ended by a recovery step (a new password, two-factor sign-in turned on).
 */
export class AccessTokenService {
  private readonly repo: AccessTokenRepo;

  constructor(db: Db) {
    this.repo = new AccessTokenRepo(db);
  }

  /** A new token for the user: the only time its text is seen. */
  async generate(
    userId: string,
    input: { name: string; scope: AccessTokenScope; expiresAt?: number },
  ): Promise<string> {
    const now = Date.now();
    if (input.expiresAt !== undefined && input.expiresAt <= now)
      throw badParameter('expiresAt: the expiry must be in the future');
    if (input.expiresAt !== undefined && input.expiresAt > now + ACCESS_TOKEN_MAX_LIFETIME_MS)
      throw badParameter('expiresAt: a token lasts at most ten years');
    if ((await this.repo.countOf(userId)) >= MAX_ACCESS_TOKENS)
      throw exists(`At most ${MAX_ACCESS_TOKENS} access tokens; delete one you no longer use`);
    const token = `${ACCESS_TOKEN_PREFIX}${newToken()}`;
    await this.repo.insert({
      id: newId(),
      userId,
      name: input.name,
      tokenHash: sha256(token),
      createdAt: now,
      lastActiveAt: null,
      scope: input.scope,
      expiresAt: input.expiresAt ?? null,
    });
    return token;
  }

  async list(userId: string, username: string): Promise<AccessTokenView[]> {
    const rows = await this.repo.listOf(userId);
    const now = Date.now();
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      username,
      scope: scopeOf(r.scope),
      createTime: formatDateTime(r.createdAt),
      lastActiveTime: formatDateTime(r.lastActiveAt),
      expireTime: formatDateTime(r.expiresAt),
      expiresAt: r.expiresAt,
      expired: r.expiresAt !== null && r.expiresAt <= now,
    }));
  }

  /** How many tokens the user holds (what a recovery step would end). */
  countOf(userId: string): Promise<number> {
    return this.repo.countOf(userId);
  }

  /** End every token of the user (a recovery step). */
  async removeAllOf(userId: string): Promise<void> {
    await this.repo.removeAllOf(userId);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.repo.remove(userId, id))) throw notFound('This access token does not exist');
  }

  /**
   * The user and token behind a token, recording its use; null when it is not one, or has
   * expired.
   */
  async resolve(token: string): Promise<{ userId: string; token: AccessTokenUse } | null> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
    const row = await this.repo.byHash(sha256(token));
    if (!row) return null;
    const now = Date.now();
    if (row.expiresAt !== null && row.expiresAt <= now) return null;
    if (row.lastActiveAt === null || now - row.lastActiveAt >= TOUCH_EVERY_MS)
      await this.repo.touch(row.id, now);
    return { userId: row.userId, token: { id: row.id, scope: scopeOf(row.scope) } };
  }
}
