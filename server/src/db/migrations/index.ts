import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-accounts.ts';
import * as m003 from './003-jobs.ts';

/** Migrations in order; names are permanent once released. */
const migrations: Record<string, Migration> = {
  '001-accounts': m001,
  '003-jobs': m003,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
