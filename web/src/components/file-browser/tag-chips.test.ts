import { describe, expect, it } from 'vitest';
import { inkOn } from './TagChips';

describe('tag chips', () => {
  it('write in black on light colours and in white on dark ones', () => {
    expect(inkOn('#f56c6c')).toBe('#fff');
    expect(inkOn('#ffeb3b')).toBe('#000');
    expect(inkOn('#fff')).toBe('#000');
    expect(inkOn('#1f2937')).toBe('#fff');
    expect(inkOn('#2f6fed')).toBe('#fff');
    expect(inkOn('#000000cc')).toBe('#fff');
    expect(inkOn('nonsense')).toBe('#fff');
  });
});
