import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** The queries of drive-wide settings: one JSON text per key. */
export class SettingsRepo {
  constructor(private readonly db: Db) {}

  async value(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('setting')
      .select('value')
      .where('key', '=', key)
      .executeTakeFirst();
    return row?.value;
  }

  all(): Promise<Array<{ key: string; value: string }>> {
    return this.db.selectFrom('setting').select(['key', 'value']).execute();
  }

  async put(key: string, value: string): Promise<void> {
    const now = Date.now();
    await this.db
      .insertInto('setting')
      .values({ key, value, updatedAt: now })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: now }))
      .execute();
  }

  /**
   * Stores a value unless the key has one already, and answers the value that stands: when two
   * nodes race, both get the first one's.
   */
  async putOnce(key: string, value: string): Promise<string> {
    await this.db
      .insertInto('setting')
      .values({ key, value, updatedAt: Date.now() })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    return (await this.value(key)) ?? value;
  }

  /** Answers when the database does; throws when it cannot be reached. */
  async ping(): Promise<void> {
    await sql`select 1`.execute(this.db);
  }
}
