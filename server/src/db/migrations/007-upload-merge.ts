import type { Kysely } from 'kysely';

// A large upload is merged by a background task; the session remembers which one.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_session').addColumn('job_id', 'varchar(36)').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_session').dropColumn('job_id').execute();
}
