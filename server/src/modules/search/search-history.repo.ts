import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { newId } from '../../lib/ids.ts';
import { escapeLike } from '../files/names.ts';

/** The searches each user made, newest first, for suggestions as they type. */
export class SearchHistoryRepo {
  constructor(private readonly db: Db) {}

  /** Keep a keyword as the user's latest search (again at the top when searched before). */
  async remember(userId: string, keyword: string, now: number): Promise<void> {
    await this.db
      .insertInto('searchHistory')
      .values({ id: newId(), userId, keyword, createdAt: now })
      .onConflict((oc) => oc.columns(['userId', 'keyword']).doUpdateSet({ createdAt: now }))
      .execute();
  }

  /** Drops a user's searches beyond the newest `keep` (up to 100 at a time). */
  async trimHistory(userId: string, keep: number): Promise<void> {
    const old = await this.db
      .selectFrom('searchHistory')
      .select('id')
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .offset(keep)
      .limit(100)
      .execute();
    if (old.length > 0)
      await this.db
        .deleteFrom('searchHistory')
        .where(
          'id',
          'in',
          old.map((r) => r.id),
        )
        .execute();
  }

  /** A user's searches, newest first; those containing `text` (any case) when given. */
  list(userId: string, text: string | undefined, limit: number) {
    let query = this.db.selectFrom('searchHistory').selectAll().where('userId', '=', userId);
    if (text)
      query = query.where(
        sql<boolean>`lower(keyword) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`,
      );
    return query.orderBy('createdAt', 'desc').orderBy('id').limit(limit).execute();
  }

  async forget(userId: string, id: string): Promise<void> {
    await this.db
      .deleteFrom('searchHistory')
      .where('userId', '=', userId)
      .where('id', '=', id)
      .execute();
  }

  async forgetAll(userId: string): Promise<void> {
    await this.db.deleteFrom('searchHistory').where('userId', '=', userId).execute();
  }
}
