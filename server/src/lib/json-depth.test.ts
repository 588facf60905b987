import { describe, expect, it } from 'vitest';
import { jsonDepth } from './json-depth.ts';

describe('JSON depth', () => {
  it('counts objects and arrays, not brackets inside strings', () => {
    expect(jsonDepth('1')).toBe(0);
    expect(jsonDepth('{}')).toBe(1);
    expect(jsonDepth('{"a":[{"b":[]}]}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{"}')).toBe(1);
    expect(jsonDepth('{"a":"\\"[[[["}')).toBe(1);
    expect(jsonDepth('[[],[[]],[]]')).toBe(3);
  });

  it('stops counting past the limit, in one pass over a very deep text', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonDepth(deep, 64)).toBe(65);
    expect(jsonDepth(deep)).toBe(1_000_000);
  });
});
