import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// tests beside the server's sources are pure (no database): they run once, with the unit tests;
// the server's API and integration tests run on both databases
const serverTests = ['server/test/**/*.test.ts'];
// the tests' own tooling, which needs no database: once, with the unit tests
const toolingTests = ['server/test/leash.test.ts'];
const notTooling = [...configDefaults.exclude, ...toolingTests];

// fixtures a program makes slowly (a video, a rendered page), made once for the whole run and
// read back by the same test file on the other database (server/test/run-fixtures.ts)
const fixtures = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-run-fixtures-'));
process.once('exit', () => fs.rmSync(fixtures, { recursive: true, force: true }));

export default defineConfig({
  test: {
    // the API tests are mostly the server's own work (CPU): vitest's default of one worker fewer
    // than the cores would run them one file at a time on a two-core machine; a test gets a
    // minute, as two files share the machine
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'packages/contract/src/**/*.test.ts',
            'server/src/**/*.test.ts',
            'web/src/**/*.test.ts',
            'web/build/**/*.test.ts',
            'bench/**/*.test.ts',
            ...toolingTests,
          ],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: serverTests,
          exclude: notTooling,
          env: { NIMBUS_TEST_DIALECT: 'sqlite', NIMBUS_TEST_FIXTURES: fixtures },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: serverTests,
          exclude: notTooling,
          env: { NIMBUS_TEST_DIALECT: 'postgres', NIMBUS_TEST_FIXTURES: fixtures },
          globalSetup: ['server/test/pg-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
