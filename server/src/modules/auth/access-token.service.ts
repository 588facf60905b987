import type { AccessTokenView } from '@nimbus/contract';
import type { Db } from '../../db/index.ts';
import { exists, notFound } from '../../lib/errors.ts';
import { newId, newToken, sha256 } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import { AccessTokenRepo } from './auth.repo.ts';

/** Every access token starts so: a session token never does, so one lookup is enough. */
export const ACCESS_TOKEN_PREFIX = 'nat_';
/** Tokens one person may hold. */
export const MAX_ACCESS_TOKENS = 50;
/** The last use is written at most this often per token, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/**
 * Access tokens: long-lived credentials for programs (WebDAV clients, scripts) and the way in
 * over WebDAV for accounts with two-factor sign-in. Shown once when made, kept as their SHA-256,
 * accepted wherever a session token is, refused at once when deleted.
 */
export class AccessTokenService {
  private readonly repo: AccessTokenRepo;

  constructor(db: Db) {
    this.repo = new AccessTokenRepo(db);
  }

  /** A new token for the user: the only time its text is seen. */
  async generate(userId: string, name: string): Promise<string> {
    if ((await this.repo.countOf(userId)) >= MAX_ACCESS_TOKENS)
      throw exists(`At most ${MAX_ACCESS_TOKENS} access tokens; delete one you no longer use`);
    const token = `${ACCESS_TOKEN_PREFIX}${newToken()}`;
    await this.repo.insert({
      id: newId(),
      userId,
      name,
      tokenHash: sha256(token),
      createdAt: Date.now(),
      lastActiveAt: null,
    });
    return token;
  }

  async list(userId: string, username: string): Promise<AccessTokenView[]> {
    const rows = await this.repo.listOf(userId);
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      username,
      createTime: formatDateTime(r.createdAt),
      lastActiveTime: formatDateTime(r.lastActiveAt),
    }));
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.repo.remove(userId, id))) throw notFound('This access token does not exist');
  }

  /** The user and token id behind a token, recording its use; null when it is not one. */
  async resolve(token: string): Promise<{ userId: string; tokenId: string } | null> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return null;
    const row = await this.repo.byHash(sha256(token));
    if (!row) return null;
    const now = Date.now();
    if (row.lastActiveAt === null || now - row.lastActiveAt >= TOUCH_EVERY_MS)
      await this.repo.touch(row.id, now);
    return { userId: row.userId, tokenId: row.id };
  }
}
