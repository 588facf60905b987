import type { Kysely } from 'kysely';

/**
 * Audit entries written before a `code` was known to be a secret outside the role routes kept
 * second-factor and recovery codes in their target (`/mfa/enable code=976460`): those parts go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kdb = db as Kysely<{ audit_entry: { id: string; target: string | null } }>;
  const rows = await kdb
    .selectFrom('audit_entry')
    .select(['id', 'target'])
    .where('target', 'like', '% code=%')
    .where('target', 'not like', '/role/%')
    .execute();
  for (const row of rows) {
    const target = (row.target ?? '').replace(/ code=\S*/g, '');
    await kdb.updateTable('audit_entry').set({ target }).where('id', '=', row.id).execute();
  }
}

export async function down(): Promise<void> {
  // the codes are gone for good
}
