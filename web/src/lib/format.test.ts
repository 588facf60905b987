import { describe, expect, it } from 'vitest';
import {
  displayWidth,
  formatCount,
  formatDateTime,
  formatSize,
  parseServerDate,
  relativeTime,
  truncateName,
} from './format';

describe('sizes (spec §9: B/K/M/G/T, base 1024, 2 decimals)', () => {
  it('formats each unit', () => {
    expect(formatSize(0)).toBe('0B');
    expect(formatSize(1023)).toBe('1023B');
    expect(formatSize(1024)).toBe('1.00K');
    expect(formatSize(1536)).toBe('1.50K');
    expect(formatSize(321.53 * 1024 ** 2)).toBe('321.53M');
    expect(formatSize(8 * 1024 ** 3)).toBe('8.00G');
    expect(formatSize(2.5 * 1024 ** 4)).toBe('2.50T');
    expect(formatSize(3000 * 1024 ** 4)).toBe('3000.00T');
  });
});

describe('relative time (spec §9)', () => {
  const now = new Date(2025, 5, 15, 12, 0, 0).getTime();
  const ago = (seconds: number) => relativeTime(now - seconds * 1000, now);

  it('says just now under a minute, and for a time in the future', () => {
    expect(ago(0)).toEqual({ unit: 'justNow', value: 0 });
    expect(ago(59)).toEqual({ unit: 'justNow', value: 0 });
    expect(ago(-120)).toEqual({ unit: 'justNow', value: 0 });
  });

  it('counts minutes, hours and days', () => {
    expect(ago(60)).toEqual({ unit: 'minutes', value: 1 });
    expect(ago(3599)).toEqual({ unit: 'minutes', value: 59 });
    expect(ago(3600)).toEqual({ unit: 'hours', value: 1 });
    expect(ago(86399)).toEqual({ unit: 'hours', value: 23 });
    expect(ago(86400)).toEqual({ unit: 'days', value: 1 });
    expect(ago(29 * 86400)).toEqual({ unit: 'days', value: 29 });
  });

  it('counts months from 30 days up to 720 days, then years', () => {
    expect(ago(30 * 86400)).toEqual({ unit: 'months', value: 1 });
    expect(ago(719 * 86400)).toEqual({ unit: 'months', value: 23 });
    expect(ago(720 * 86400)).toEqual({ unit: 'months', value: 24 });
    expect(ago(721 * 86400)).toEqual({ unit: 'years', value: 1 });
    expect(ago(3 * 365 * 86400)).toEqual({ unit: 'years', value: 3 });
  });
});

describe('dates', () => {
  it('reads the API date format as local time', () => {
    const date = parseServerDate('2024-02-29 23:05:09');
    expect(date?.getFullYear()).toBe(2024);
    expect(date?.getMonth()).toBe(1);
    expect(date?.getDate()).toBe(29);
    expect(date?.getHours()).toBe(23);
    expect(date?.getSeconds()).toBe(9);
    expect(formatDateTime(date)).toBe('2024-02-29 23:05');
  });

  it('returns null for nothing or nonsense', () => {
    expect(parseServerDate('')).toBeNull();
    expect(parseServerDate(undefined)).toBeNull();
    expect(parseServerDate('yesterday-ish')).toBeNull();
    expect(formatDateTime(null)).toBe('');
  });
});

describe('names by display width (spec §5)', () => {
  it('counts wide characters twice', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('文件')).toBe(4);
    expect(displayWidth('ｱｲ')).toBe(2);
  });

  it('leaves a name that fits alone', () => {
    expect(truncateName('report.pdf', 20)).toBe('report.pdf');
  });

  it('shortens the base name and keeps the extension', () => {
    const short = truncateName('a-very-long-quarterly-report.pdf', 16);
    expect(short).toBe('a-very-lon….pdf');
    expect(displayWidth(short)).toBeLessThanOrEqual(16);
    const cjk = truncateName('使用说明必看的长长文件.txt', 14);
    expect(cjk.endsWith('….txt')).toBe(true);
    expect(displayWidth(cjk)).toBeLessThanOrEqual(14);
  });

  it('shortens names without a usable extension at the end', () => {
    expect(truncateName('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefgh…');
    expect(truncateName('folder.with.a.very-long-tail-after-the-dot', 12).endsWith('…')).toBe(true);
  });
});

describe('counts', () => {
  it('groups digits', () => {
    expect(formatCount(100000)).toBe('100,000');
  });
});
