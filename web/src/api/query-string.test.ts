import { describe, expect, it } from 'vitest';
import { toQueryString } from './query-string';

describe('toQueryString', () => {
  it('sends list values as repeated keys', () => {
    expect(toQueryString({ ids: ['a', 'b'], page: 2 })).toBe('?ids=a&ids=b&page=2');
  });

  it('leaves out undefined and null values and encodes the rest', () => {
    expect(toQueryString({ username: undefined, showName: null, path: '/a b/ü' })).toBe(
      '?path=%2Fa+b%2F%C3%BC',
    );
  });

  it('gives an empty string without parameters', () => {
    expect(toQueryString({})).toBe('');
    expect(toQueryString(undefined)).toBe('');
  });
});
