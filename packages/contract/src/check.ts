import { z } from 'zod';
import { endpoint } from './endpoint.ts';

/** What the check of the drive can find (docs/operations.md, "Consistency check"). */
export const CHECK_FINDING_KINDS = [
  'missing-bytes',
  'stray-bytes',
  'kind-differs',
  'size-differs',
  'hash-differs',
  'folder-size',
  'used-space',
  'unfinished-journal',
] as const;

/**
 * What a finding's detail rests on: what the row says (`recorded`) against what was found
 * (`actual`), bytes for sizes and the start of a SHA-256 for hashes; for a change a crash left
 * unfinished, its kind and when it began.
 */
export const checkFacts = z.object({
  recorded: z.union([z.number(), z.string()]).optional(),
  actual: z.union([z.number(), z.string()]).optional(),
  operation: z.string().optional(),
  since: z.number().optional(),
});
export type CheckFacts = z.infer<typeof checkFacts>;

/** One thing the check found: repaired, or left for a person. */
export const checkFinding = z.object({
  kind: z.enum(CHECK_FINDING_KINDS),
  /** The owner's username; empty when no user is known. */
  user: z.string(),
  userId: z.string(),
  /** A path in the user's tree, `trash/<id>`, `versions/<file>/<version>`… */
  item: z.string(),
  /** In English, for the command line's table. */
  detail: z.string(),
  /** The figures of the detail, for the web app to say it in the reader's language. */
  facts: checkFacts.optional(),
  repaired: z.boolean(),
});
export type CheckFinding = z.infer<typeof checkFinding>;

/** `POST /cloud/check`: hash every file (`full`) or a sample, and repair what can be. */
export const driveCheckStart = z.object({
  full: z.boolean().default(false),
  repair: z.boolean().default(false),
});
export type DriveCheckStart = z.infer<typeof driveCheckStart>;

/** `GET /cloud/check`: the check running now, or the last one with what it found. */
export const driveCheckView = z.object({
  /** `none` before the first check; `cancelled` keeps what it found until it was cancelled. */
  state: z.enum(['none', 'queued', 'running', 'done', 'failed', 'cancelled']),
  taskId: z.string().nullable(),
  full: z.boolean(),
  repair: z.boolean(),
  /** 0..100 */
  progress: z.number(),
  /** While running: the user being checked; when failed: why. */
  message: z.string().nullable(),
  startedAt: z.number().nullable(),
  finishedAt: z.number().nullable(),
  /** Once done, or cancelled while running (the findings until then). */
  report: z
    .object({
      users: z.number().int(),
      rows: z.number().int(),
      hashed: z.number().int(),
      /** Where bytes no row owned were moved, when any were. */
      lostAndFound: z.string().nullable(),
      findings: z.array(checkFinding),
    })
    .nullable(),
});
export type DriveCheckView = z.infer<typeof driveCheckView>;

/** The drive check's endpoints (Cloud management → Check the drive). */
export const checkApi = {
  /** Starts a check; a 409 when one is running already. */
  start: endpoint({
    method: 'POST',
    path: '/cloud/check',
    body: driveCheckStart,
    // two options: anything near a kilobyte is not a start of the check
    bodyLimit: 1024,
    answer: driveCheckView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** Cancels the check under way; answers once it has stopped, with what it found until then. */
  cancel: endpoint({
    method: 'DELETE',
    path: '/cloud/check',
    answer: driveCheckView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  /** The check running now, or the last one. */
  status: endpoint({
    method: 'GET',
    path: '/cloud/check',
    answer: driveCheckView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};
