import { VERSION_PRUNE_AFTER_MS } from '@nimbus/contract';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a file's history keeps: the administrator's two settings. */
export interface VersionPolicy {
  /** The newest this many versions are kept (`versionsPerFile`, at least 1). */
  keep: number;
  /** Versions older than this many days go; 0: no age limit (`versionRetentionDays`). */
  maxAgeDays: number;
}

/**
 * The one retention rule of versions: of a file's versions (newest first), those that go at
 * `now`. A file's newest version always stays. Beyond the newest `keep`, a version goes once it
 * is older than a day (a burst of replacements never pushes out what it replaced: the quota
 * bounds it instead); with an age limit, any older version goes.
 */
export function expiredVersions<T extends { createdAt: number }>(
  newestFirst: readonly T[],
  policy: VersionPolicy,
  now: number,
): T[] {
  const keep = Math.max(1, policy.keep);
  const countedBefore = now - VERSION_PRUNE_AFTER_MS;
  const agedBefore = policy.maxAgeDays > 0 ? now - policy.maxAgeDays * DAY_MS : null;
  return newestFirst.filter(
    (v, i) =>
      i > 0 &&
      ((i >= keep && v.createdAt < countedBefore) ||
        (agedBefore !== null && v.createdAt < agedBefore)),
  );
}

/** The time before which a version is old by the age limit; null without one. */
export function agedBefore(policy: VersionPolicy, now: number): number | null {
  return policy.maxAgeDays > 0 ? now - policy.maxAgeDays * DAY_MS : null;
}
