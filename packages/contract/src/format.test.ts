import { describe, expect, it } from 'vitest';
import {
  addUserBody,
  DEFAULT_QUOTA_GB,
  formatDateTime,
  formatLimit,
  LOGO_MAX_BYTES,
  parseDateTime,
  SHOW_NAME_MAX_LENGTH,
  updateUserBody,
} from './index.ts';

describe('the API date', () => {
  it('is written by the server and read back by the web app in one form', () => {
    const at = new Date(2024, 1, 29, 23, 5, 9);
    expect(formatDateTime(at.getTime())).toBe('2024-02-29 23:05:09');
    expect(formatDateTime(at, 'minutes')).toBe('2024-02-29 23:05');
    expect(parseDateTime(formatDateTime(at.getTime()))?.getTime()).toBe(at.getTime());
  });

  it('is empty for no date, and no date for what cannot be read', () => {
    expect(formatDateTime(null)).toBe('');
    expect(formatDateTime(undefined)).toBe('');
    expect(formatDateTime(Number.NaN)).toBe('');
    expect(parseDateTime('')).toBeNull();
    expect(parseDateTime('yesterday-ish')).toBeNull();
  });
});

describe('the limits of a user', () => {
  it('take a display name of the same length in every form that sets one', () => {
    const name = 'n'.repeat(SHOW_NAME_MAX_LENGTH);
    const base = { username: 'carl', password: 'carl-secret' };
    expect(addUserBody.safeParse({ ...base, showName: name }).success).toBe(true);
    expect(addUserBody.safeParse({ ...base, showName: `${name}n` }).success).toBe(false);
    expect(updateUserBody.safeParse({ id: 'u1', showName: `${name}n` }).success).toBe(false);
    expect(addUserBody.safeParse({ ...base, quota: DEFAULT_QUOTA_GB }).success).toBe(true);
  });
});

describe('a limit in words', () => {
  it('names the largest unit the limit fills whole', () => {
    expect(formatLimit(LOGO_MAX_BYTES)).toBe('128 KB');
    expect(formatLimit(5 * 1024 ** 2)).toBe('5 MB');
    expect(formatLimit(1536)).toBe('1536 bytes');
    expect(formatLimit(2 * 1024 ** 4)).toBe('2048 GB');
  });
});
