import type { Db } from '../src/db/index.ts';
import { checkDrive, folderSizeDrift } from '../src/modules/check/check.service.ts';
import { LocalStore } from '../src/storage/local-store.ts';

/**
 * What the product's consistency check (`npm run check`, modules/check) finds for one user and
 * in the crash journal, every hash compared, one line per finding. Empty: disk and database
 * agree.
 */
export async function consistencyProblems(
  db: Db,
  dataDir: string,
  userId: string,
  _username?: string,
): Promise<string[]> {
  const report = await checkDrive(db, new LocalStore(dataDir), { full: true, userIds: [userId] });
  return report.findings.map((f) => `${f.kind}: ${f.item} (${f.detail})`);
}

/** Each live folder of the user whose size is not the bytes of the live files below it. */
export async function folderSizeProblems(db: Db, userId: string): Promise<string[]> {
  return (await folderSizeDrift(db, userId)).map(
    (f) => `folder ${f.item} has size ${f.recorded} but holds ${f.actual} bytes`,
  );
}
