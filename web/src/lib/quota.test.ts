import { describe, expect, it } from 'vitest';
import { quotaColor, quotaParts, quotaText } from './quota';

describe('quota bar', () => {
  it('changes colour at 20, 40, 60, 80 and 100 percent', () => {
    const colours = [0, 20, 20.01, 40, 40.5, 60, 61, 80, 81, 100].map(quotaColor);
    expect(colours[0]).toBe(colours[1]);
    expect(colours[2]).not.toBe(colours[1]);
    expect(colours[3]).toBe(colours[2]);
    expect(colours[4]).not.toBe(colours[3]);
    expect(colours[5]).toBe(colours[4]);
    expect(colours[6]).not.toBe(colours[5]);
    expect(colours[7]).toBe(colours[6]);
    expect(colours[8]).not.toBe(colours[7]);
    expect(colours[9]).toBe(colours[8]);
    expect(new Set(colours).size).toBe(5);
  });

  it('reads like "1.2 / 8G": one unit, the larger size\'s, for both numbers', () => {
    expect(quotaText(1.2 * 1024 ** 3, 8)).toBe('1.2 / 8G');
    expect(quotaText(0, 10)).toBe('0 / 10G');
    // 30 MB of a 0.05 GB quota: both in MB, not "30M / 0.05G"
    expect(quotaText(30 * 1024 ** 2, 0.05)).toBe('30 / 51.2M');
    expect(quotaText(512 * 1024, 0.5)).toBe('0.5 / 512M');
    // a little used is never shown as nothing
    expect(quotaText(7, 10)).toBe('<0.01 / 10G');
    // beyond the quota, the used size sets the unit
    expect(quotaText(3 * 1024 ** 3, 0.5)).toBe('3 / 0.5G');
  });

  it('gives the parts, so a sentence can say them in its own words', () => {
    expect(quotaParts(30 * 1024 ** 2, 0.05)).toEqual({ used: '30M', quota: '51.2M' });
  });
});
