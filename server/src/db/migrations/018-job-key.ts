import { sql, type Kysely } from 'kysely';

/**
 * `job.dedupe_key`: work that must not be queued twice (one transcode per file, one rebuild per
 * folder) names itself; of the queued and running jobs of a type, at most one holds a key. The
 * database keeps that true across nodes, where a look before the insert could not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('job').addColumn('dedupe_key', 'varchar(200)').execute();
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
