import { VERSION_PRUNE_AFTER_MS } from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { expiredVersions } from './version-retention.ts';

const DAY = 24 * 60 * 60 * 1000;
const now = 1_800_000_000_000;
/** Versions made `ages` days ago, newest first. */
const made = (...ages: number[]) =>
  ages.map((days, i) => ({ id: `v${i}`, createdAt: now - days * DAY }));
const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id);

describe('the retention rule of versions', () => {
  it('keeps the newest `keep`, and lets the older ones go once older than a day', () => {
    const versions = made(0, 0.5, 2, 3, 4);
    expect(ids(expiredVersions(versions, { keep: 2, maxAgeDays: 0 }, now))).toEqual([
      'v2',
      'v3',
      'v4',
    ]);
    // a burst: all younger than a day, none goes whatever the count
    expect(expiredVersions(made(0, 0.1, 0.2, 0.3), { keep: 1, maxAgeDays: 0 }, now)).toEqual([]);
    expect(VERSION_PRUNE_AFTER_MS).toBe(DAY);
  });

  it('lets versions older than the age limit go, the newest always staying', () => {
    expect(ids(expiredVersions(made(1, 5, 40, 90), { keep: 50, maxAgeDays: 30 }, now))).toEqual([
      'v2',
      'v3',
    ]);
    // every version old: the newest of them stays
    expect(ids(expiredVersions(made(100, 200, 300), { keep: 50, maxAgeDays: 30 }, now))).toEqual([
      'v1',
      'v2',
    ]);
    expect(expiredVersions(made(100), { keep: 1, maxAgeDays: 1 }, now)).toEqual([]);
  });

  it('applies both limits together', () => {
    expect(ids(expiredVersions(made(0, 2, 3, 31), { keep: 2, maxAgeDays: 30 }, now))).toEqual([
      'v2',
      'v3',
    ]);
  });
});
