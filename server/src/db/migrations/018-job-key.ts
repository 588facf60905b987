import { sql, type Kysely } from 'kysely';

/**
 * `job.dedupe_key`: work that must not be queued twice (one transcode per file, one rebuild per
 * folder) names itself; of the queued and running jobs of a type, at most one holds a key. The
 * database keeps that true across nodes, where a look before the insert could not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('job').addColumn('dedupe_key', 'varchar(200)').execute();
  // the transcodes already under way get their file's key (the oldest, should a file have two)
  const jobs = db as unknown as Kysely<{
    job: {
      id: string;
      type: string;
      state: string;
      payload: string;
      created_at: number;
      dedupe_key: string | null;
    };
  }>;
  const transcodes = await jobs
    .selectFrom('job')
    .select(['id', 'payload'])
    .where('type', '=', 'transcode')
    .where('state', 'in', ['queued', 'running'])
    .orderBy('created_at')
    .execute();
  const keyed = new Set<string>();
  for (const { id, payload } of transcodes) {
    let fileId: unknown;
    try {
      fileId = (JSON.parse(payload) as { fileId?: unknown } | null)?.fileId;
    } catch {
      continue;
    }
    if (typeof fileId !== 'string' || keyed.has(fileId)) continue;
    keyed.add(fileId);
    await jobs
      .updateTable('job')
      .set({ dedupe_key: `file:${fileId}` })
      .where('id', '=', id)
      .execute();
  }
  await db.schema
    .createIndex('job_active_key_idx')
    .unique()
    .on('job')
    .columns(['type', 'dedupe_key'])
    .where(sql.raw<boolean>("state in ('queued', 'running') and dedupe_key is not null"))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('job_active_key_idx').execute();
  await db.schema.alterTable('job').dropColumn('dedupe_key').execute();
}
