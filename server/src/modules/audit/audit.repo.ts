import type { Db } from '../../db/index.ts';
import type { AuditEntryTable } from '../../db/schema.ts';

export type AuditRow = AuditEntryTable;

/** The audit log's queries. */
export class AuditRepo {
  constructor(private readonly db: Db) {}

  async insert(row: AuditRow): Promise<void> {
    await this.db.insertInto('auditEntry').values(row).execute();
  }

  async page(
    filter: { action?: string; username?: string },
    offset: number,
    limit: number,
  ): Promise<{ rows: AuditRow[]; total: number }> {
    let query = this.db.selectFrom('auditEntry');
    if (filter.action) query = query.where('action', '=', filter.action);
    if (filter.username) query = query.where('username', '=', filter.username);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('at', 'desc').orderBy('id').offset(offset).limit(limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(count?.n ?? 0) };
  }

  /** Entries older than `before` go. */
  async prune(before: number): Promise<number> {
    const result = await this.db
      .deleteFrom('auditEntry')
      .where('at', '<', before)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
