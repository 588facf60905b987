import { describe, expect, it } from 'vitest';
import { quotaColor, quotaText } from './quota';

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

  it('reads like "1.2G / 8G"', () => {
    expect(quotaText(1.2 * 1024 ** 3, 8)).toBe('1.2G / 8G');
    expect(quotaText(0, 10)).toBe('0B / 10G');
    expect(quotaText(512 * 1024, 0.5)).toBe('512K / 0.5G');
    expect(quotaText(1536, 8)).toBe('1.5K / 8G');
    expect(quotaText(100, 8)).toBe('100B / 8G');
  });
});
