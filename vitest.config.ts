import os from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

// tests beside the server's sources are pure (no database): they run once, with the unit tests;
// the server's API and integration tests run on both databases
const serverTests = ['server/test/**/*.test.ts'];
// the tests' own tooling, which needs no database: once, with the unit tests
const toolingTests = ['server/test/leash.test.ts'];
const notTooling = [...configDefaults.exclude, ...toolingTests];

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
          env: { NIMBUS_TEST_DIALECT: 'sqlite' },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: serverTests,
          exclude: notTooling,
          env: { NIMBUS_TEST_DIALECT: 'postgres' },
          globalSetup: ['server/test/pg-global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
