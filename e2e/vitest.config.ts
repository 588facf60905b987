import path from 'node:path';
import { defineConfig } from 'vitest/config';

/** End-to-end flows: the real server and a real Chromium, one file at a time. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: path.resolve(import.meta.dirname, '..'),
    include: ['e2e/**/*.e2e.ts'],
    environment: 'node',
    testTimeout: 120_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
