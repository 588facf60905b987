import type { Migration, MigrationProvider } from 'kysely';
import * as m001 from './001-accounts.ts';
import * as m002 from './002-files.ts';
import * as m003 from './003-jobs.ts';
import * as m004 from './004-uploads.ts';
import * as m005 from './005-search.ts';
import * as m006 from './006-shares.ts';
import * as m007 from './007-upload-merge.ts';
import * as m008 from './008-accounts-hardening.ts';
import * as m009 from './009-upload-hardening.ts';
import * as m010 from './010-share-hardening.ts';
import * as m011 from './011-access-tokens-mfa.ts';
import * as m012 from './012-webdav.ts';
import * as m013 from './013-ldap-accounts.ts';
import * as m014 from './014-history.ts';
import * as m015 from './015-document-draft.ts';
import * as m016 from './016-audit.ts';
import * as m017 from './017-transcode-failure.ts';
import * as m018 from './018-job-key.ts';
import * as m019 from './019-audit-without-codes.ts';
import * as m020 from './020-access-token-scope.ts';
import * as m021 from './021-audit-second-factor.ts';
import * as m022 from './022-name-substring-search.ts';
import * as m023 from './023-menus-of-the-original.ts';
import * as m024 from './024-file-kinds.ts';
import * as m025 from './025-search-plans.ts';
import * as m026 from './026-node-presence.ts';

/** Migrations in order; names are permanent once released. */
const migrations: Record<string, Migration> = {
  '001-accounts': m001,
  '002-files': m002,
  '003-jobs': m003,
  '004-uploads': m004,
  '005-search': m005,
  '006-shares': m006,
  '007-upload-merge': m007,
  '008-accounts-hardening': m008,
  '009-upload-hardening': m009,
  '010-share-hardening': m010,
  '011-access-tokens-mfa': m011,
  '012-webdav': m012,
  '013-ldap-accounts': m013,
  '014-history': m014,
  '015-document-draft': m015,
  '016-audit': m016,
  '017-transcode-failure': m017,
  '018-job-key': m018,
  '019-audit-without-codes': m019,
  '020-access-token-scope': m020,
  '021-audit-second-factor': m021,
  '022-name-substring-search': m022,
  '023-menus-of-the-original': m023,
  '024-file-kinds': m024,
  '025-search-plans': m025,
  '026-node-presence': m026,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};
