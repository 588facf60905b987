import type { Kysely } from 'kysely';

/**
 * Sign-ins whose password passed with a second factor still to come were written with English
 * words in their target (`/login (second factor next)`): they become their own action, which the
 * web names in the reader's language, and keep the bare route.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kdb = db as Kysely<{ audit_entry: { id: string; action: string; target: string | null } }>;
  const rows = await kdb
    .selectFrom('audit_entry')
    .select(['id', 'target'])
    .where('action', '=', 'signIn')
    .where('target', 'like', '% (second factor next)')
    .execute();
  for (const row of rows) {
    const target = (row.target ?? '').replace(/ \(second factor next\)$/, '');
    await kdb
      .updateTable('audit_entry')
      .set({ action: 'signInSecondFactorNext', target })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function down(): Promise<void> {
  // the entries read the same either way
}
