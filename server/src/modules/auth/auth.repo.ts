import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { AccessTokenTable, MfaChallengeTable, SessionTable } from '../../db/schema.ts';

export type SessionRow = Selectable<SessionTable>;

/** Every query of the sessions (their rows are keyed by the SHA-256 of the token). */
export class SessionRepo {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<SessionTable>): Promise<void> {
    await this.db.insertInto('session').values(row).execute();
  }

  find(id: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('session').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async setExpiresAt(id: string, expiresAt: number): Promise<void> {
    await this.db.updateTable('session').set({ expiresAt }).where('id', '=', id).execute();
  }

  async touch(id: string, lastSeenAt: number): Promise<void> {
    await this.db.updateTable('session').set({ lastSeenAt }).where('id', '=', id).execute();
  }

  async revoke(id: string, at: number): Promise<void> {
    await this.db.updateTable('session').set({ revokedAt: at }).where('id', '=', id).execute();
  }

  /** Revoke every live session of a user, except one. */
  async revokeAllOf(userId: string, at: number, exceptId?: string): Promise<void> {
    let q = this.db
      .updateTable('session')
      .set({ revokedAt: at })
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null);
    if (exceptId) q = q.where('id', '!=', exceptId);
    await q.execute();
  }

  /** How many live sessions the user has, besides one. */
  async countLiveOf(userId: string, now: number, exceptId?: string): Promise<number> {
    let q = this.db
      .selectFrom('session')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now);
    if (exceptId) q = q.where('id', '!=', exceptId);
    return Number((await q.executeTakeFirstOrThrow()).n);
  }

  /** True when the user has a session made from this (stored) address since the given time. */
  async madeFrom(userId: string, storedIp: string, since: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('session')
      .select('id')
      .where('userId', '=', userId)
      .where('ip', '=', storedIp)
      .where('createdAt', '>=', since)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  async deleteEndedBefore(time: number): Promise<void> {
    await this.db.deleteFrom('session').where('expiresAt', '<', time).execute();
  }
}

/** Every query of the guess counters (`login_attempt`: one row a key). */
export class AttemptRepo {
  constructor(private readonly db: Db) {}

  async deleteQuietSince(time: number): Promise<void> {
    await this.db.deleteFrom('loginAttempt').where('lastAt', '<', time).execute();
  }

  /** The key's first attempt; false when its row already exists. */
  async insertFirst(key: string, now: number): Promise<boolean> {
    const inserted = await this.db
      .insertInto('loginAttempt')
      .values({ key, attempts: 1, lastAt: now })
      .onConflict((oc) => oc.column('key').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /**
   * Count one more attempt in a single conditional statement: it starts again at 1 when the
   * key has been quiet since `quietSince`, and is refused (false) when the key is full.
   */
  async bump(key: string, now: number, quietSince: number, limit: number): Promise<boolean> {
    const result = await this.db
      .updateTable('loginAttempt')
      .set((eb) => ({
        attempts: eb
          .case()
          .when('lastAt', '<', quietSince)
          .then(1)
          .else(eb('attempts', '+', 1))
          .end(),
        lastAt: now,
      }))
      .where('key', '=', key)
      .where((eb) => eb.or([eb('lastAt', '<', quietSince), eb('attempts', '<', limit)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async giveBack(key: string): Promise<void> {
    await this.db
      .updateTable('loginAttempt')
      .set((eb) => ({ attempts: eb('attempts', '-', 1) }))
      .where('key', '=', key)
      .where('attempts', '>', 0)
      .execute();
  }

  async lastAt(key: string): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('loginAttempt')
      .select('lastAt')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.lastAt;
  }
}

export type MfaChallengeRow = Selectable<MfaChallengeTable>;

/** Every query of the two-factor challenges (keyed by the SHA-256 of the challenge token). */
export class MfaChallengeRepo {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<MfaChallengeTable>): Promise<void> {
    await this.db.insertInto('mfaChallenge').values(row).execute();
  }

  find(id: string): Promise<MfaChallengeRow | undefined> {
    return this.db.selectFrom('mfaChallenge').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Count one try against a challenge: false when its tries are used up. */
  async spendAttempt(id: string, limit: number): Promise<boolean> {
    const result = await this.db
      .updateTable('mfaChallenge')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('attempts', '<', limit)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(id: string): Promise<void> {
    await this.db.deleteFrom('mfaChallenge').where('id', '=', id).execute();
  }

  async removeExpired(now: number): Promise<void> {
    await this.db.deleteFrom('mfaChallenge').where('expiresAt', '<', now).execute();
  }
}

export type AccessTokenRow = Selectable<AccessTokenTable>;

/** Every query of the access tokens (keyed for lookup by the SHA-256 of the token). */
export class AccessTokenRepo {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<AccessTokenTable>): Promise<void> {
    await this.db.insertInto('accessToken').values(row).execute();
  }

  byHash(tokenHash: string): Promise<AccessTokenRow | undefined> {
    return this.db
      .selectFrom('accessToken')
      .selectAll()
      .where('tokenHash', '=', tokenHash)
      .executeTakeFirst();
  }

  listOf(userId: string): Promise<AccessTokenRow[]> {
    return this.db
      .selectFrom('accessToken')
      .selectAll()
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .execute();
  }

  countOf(userId: string): Promise<number> {
    return this.db
      .selectFrom('accessToken')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('userId', '=', userId)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  }

  /** True when the user's token was there to delete. */
  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('accessToken')
      .where('id', '=', id)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async removeAllOf(userId: string): Promise<void> {
    await this.db.deleteFrom('accessToken').where('userId', '=', userId).execute();
  }

  async touch(id: string, at: number): Promise<void> {
    await this.db
      .updateTable('accessToken')
      .set({ lastActiveAt: at })
      .where('id', '=', id)
      .execute();
  }
}
