import { sql, type Kysely } from 'kysely';

/**
 * Expiry dates were once taken beyond what a date can show (up to 8.64e15 ms and past it), and
 * were shown as `NaN`. Those stored before the check are brought within the showable range:
 * 9999-12-31 23:59:59 (server time) at the latest, 1970-01-01 (long expired) at the earliest.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const last = new Date(9999, 11, 31, 23, 59, 59, 999).getTime();
  await sql`update share set expires_at = ${last} where expires_at > ${last}`.execute(db);
  await sql`update share set expires_at = 0 where expires_at < 0`.execute(db);
}

export async function down(): Promise<void> {
  // the dates brought into range stay there
}
