// `npm run check [-- --full] [-- --repair] [-- --sample N]`: the consistency check of the
// database against the stored bytes (docs/operations.md, "Consistency check"), with the same
// settings as `npm start` (the environment, then .env in the project folder). Exits 0 when
// nothing is wrong (or all of it was repaired), 1 when something remains, 2 on a usage error.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/index.ts';
import { checkDrive, DEFAULT_SAMPLE, findingsTable } from '../modules/check/check.service.ts';
import { LocalStore } from '../storage/local-store.ts';

const usage = 'usage: npm run check -- [--full] [--repair] [--sample N]';

let args;
try {
  args = parseArgs({
    options: {
      full: { type: 'boolean', default: false },
      repair: { type: 'boolean', default: false },
      sample: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${usage}`);
  process.exit(2);
}
if (args.help) {
  console.log(usage);
  process.exit(0);
}
const sample = args.sample === undefined ? DEFAULT_SAMPLE : Number(args.sample);
if (!Number.isInteger(sample) || sample < 0) {
  console.error(`--sample: a whole number of files, 0 or more\n${usage}`);
  process.exit(2);
}

const envFile = path.resolve(import.meta.dirname, '..', '..', '..', '.env');
if (fs.existsSync(envFile)) process.loadEnvFile(envFile);
const config = loadConfig();
const database = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const report = await checkDrive(database.db, new LocalStore(config.dataDir), {
    full: args.full,
    sample,
    repair: args.repair,
  });
  const left = report.findings.filter((f) => !f.repaired);
  console.log(
    `Checked ${report.users} users, ${report.rows} rows, ${report.hashed} hashes` +
      ` (${args.full ? 'all' : 'a sample'}).`,
  );
  if (report.findings.length === 0) console.log('Nothing is wrong.');
  else {
    console.log(findingsTable(report.findings));
    if (report.lostAndFound) console.log(`Bytes no row owned were moved to ${report.lostAndFound}`);
    console.log(
      `${report.findings.length} found, ${report.findings.length - left.length} repaired,` +
        ` ${left.length} left${left.length > 0 && !args.repair ? ' (--repair repairs what it can)' : ''}.`,
    );
  }
  process.exitCode = left.length > 0 ? 1 : 0;
} catch (err) {
  console.error(`check failed: ${(err as Error).message}`);
  process.exitCode = 2;
} finally {
  await database.close();
}
