import path from 'node:path';
import { DEFAULT_QUOTA_GB } from '@nimbus/contract';
import { z } from 'zod';
import { PASSWORD_COST } from './lib/password.ts';

/** Every setting Nimbus reads from the environment; the only reader of process.env. */
const envSchema = z.object({
  NIMBUS_PORT: z.coerce.number().int().min(0).max(65535).default(8088),
  NIMBUS_HOST: z.string().default('0.0.0.0'),
  NIMBUS_DATA_DIR: z.string().default('./data'),
  NIMBUS_DATABASE_URL: z.string().optional(),
  // unset or empty: live events stay in this process
  NIMBUS_REDIS_URL: z
    .union([z.literal(''), z.url({ protocol: /^rediss?$/, error: 'a redis:// or rediss:// URL' })])
    .optional(),
  // all: serve the API and run background jobs; web: only the API; worker: only the jobs
  NIMBUS_ROLE: z.enum(['all', 'web', 'worker']).default('all'),
  NIMBUS_WEB_DIR: z.string().optional(),
  NIMBUS_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  NIMBUS_SESSION_HOURS: z.coerce.number().positive().default(24),
  NIMBUS_REMEMBER_DAYS: z.coerce.number().positive().default(30),
  NIMBUS_DEFAULT_QUOTA_GB: z.coerce.number().min(0).default(DEFAULT_QUOTA_GB),
  NIMBUS_SECRET_KEY: z.string().optional(),
  NIMBUS_IMAGE_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  // bytes; 0: no bound
  NIMBUS_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(10 * 1024 ** 3),
  NIMBUS_TRUST_PROXY: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  // 1: every API error answers HTTP 200 with its envelope, for clients of the original product
  NIMBUS_LEGACY_STATUS: z
    .enum(['0', '1'])
    .default('0')
    .transform((v) => v === '1'),
  // unset or empty: no update check (nothing is fetched from the internet unless asked)
  NIMBUS_UPDATE_FEED: z
    .union([z.literal(''), z.url({ protocol: /^https?$/, error: 'an http or https URL' })])
    .optional(),
  // unset or empty: only administrators may read /metrics
  NIMBUS_METRICS_TOKEN: z
    .union([z.literal(''), z.string().min(16, { error: 'at least 16 characters' })])
    .optional(),
});

/** The names of the environment variables Nimbus reads (README's table names each). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** What a node does: everything, only the API (web), or only the background jobs (worker). */
export type NodeRole = 'all' | 'web' | 'worker';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Redis that carries live events between nodes; undefined: events stay in this process. */
  redisUrl: string | undefined;
  /** `web` nodes run no background jobs; `worker` nodes answer only health and readiness. */
  role: NodeRole;
  webDir: string;
  logLevel: string;
  sessionTtlMs: number;
  rememberTtlMs: number;
  defaultQuotaGb: number;
  trustProxy: boolean;
  /** API errors answer HTTP 200 with their envelope (clients of the original read no other). */
  legacyStatus: boolean;
  /** The key that seals secrets at rest (32 bytes, base64 or hex); else a key file in dataDir. */
  secretKey: string | undefined;
  /** Uploads of this many bytes or more are merged by a background task. */
  backgroundMergeBytes: number;
  /** How long a merge request waits for a background merge before answering "still merging". */
  mergeWaitMs: number;
  /** At most this many thumbnails and image conversions are made at once. */
  imageWorkers: number;
  /** The caches of derived files are brought under this many bytes by each sweep; 0: no bound. */
  cacheMaxBytes: number;
  /** Where the latest release is announced (JSON); undefined: the server never checks. */
  updateFeed: string | undefined;
  /** The scrape token that may read /metrics besides administrators; undefined: none. */
  metricsToken: string | undefined;
  /** Hold every JSON answer against its route's response schema (tests). */
  checkResponses: boolean;
  /** scrypt's work for new password hashes, as log2 of N (see lib/password.ts). */
  passwordCost: number;
}

const repoRoot = path.resolve(import.meta.dirname, '..', '..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`invalid configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  // nodes with different roles are several processes: they must share one PostgreSQL (SQLite's
  // job queue takes any running job for one cut short by a crash) and one Redis (the locks that
  // order a user's changes, the live events of jobs run elsewhere)
  if (e.NIMBUS_ROLE !== 'all' && (!e.NIMBUS_DATABASE_URL || !e.NIMBUS_REDIS_URL))
    throw new Error(
      `invalid configuration: NIMBUS_ROLE: ${e.NIMBUS_ROLE} needs NIMBUS_DATABASE_URL (PostgreSQL) and NIMBUS_REDIS_URL, shared by every node`,
    );
  return {
    port: e.NIMBUS_PORT,
    host: e.NIMBUS_HOST,
    dataDir: path.resolve(e.NIMBUS_DATA_DIR),
    databaseUrl: e.NIMBUS_DATABASE_URL || undefined,
    redisUrl: e.NIMBUS_REDIS_URL || undefined,
    role: e.NIMBUS_ROLE,
    webDir: path.resolve(e.NIMBUS_WEB_DIR ?? path.join(repoRoot, 'web', 'dist')),
    logLevel: e.NIMBUS_LOG_LEVEL,
    sessionTtlMs: e.NIMBUS_SESSION_HOURS * 3600_000,
    rememberTtlMs: e.NIMBUS_REMEMBER_DAYS * 86400_000,
    defaultQuotaGb: e.NIMBUS_DEFAULT_QUOTA_GB,
    trustProxy: e.NIMBUS_TRUST_PROXY,
    legacyStatus: e.NIMBUS_LEGACY_STATUS,
    secretKey: e.NIMBUS_SECRET_KEY || undefined,
    backgroundMergeBytes: 64 * 1024 * 1024,
    mergeWaitMs: 10_000,
    imageWorkers: e.NIMBUS_IMAGE_WORKERS,
    cacheMaxBytes: e.NIMBUS_CACHE_MAX_BYTES,
    updateFeed: e.NIMBUS_UPDATE_FEED || undefined,
    metricsToken: e.NIMBUS_METRICS_TOKEN || undefined,
    checkResponses: false,
    passwordCost: PASSWORD_COST,
  };
}

/**
 * A config for tests and tools: defaults plus overrides. Passwords are hashed with a thirty-second
 * of the work (log2 N = 10, under a millisecond's worth of memory traffic): an API test signs in
 * dozens of times, and the production cost made most of the suite's time. The hashes are the
 * same scrypt, verified by the same code; password.test.ts holds the production cost.
 */
export function testConfig(overrides: Partial<Config>): Config {
  return { ...loadConfig({}), checkResponses: true, passwordCost: 10, ...overrides };
}
