import { describe, expect, it } from 'vitest';
import { parseQueryString, withoutBlanks } from './query-string.ts';

describe('query strings', () => {
  it('reads key[] and key[n] as the list key, beside repeated keys', () => {
    expect({ ...parseQueryString('fileIds%5B%5D=a&fileIds%5B%5D=b') }).toEqual({
      fileIds: ['a', 'b'],
    });
    expect({ ...parseQueryString('ids[0]=a&ids[1]=b&ids=c') }).toEqual({ ids: ['a', 'b', 'c'] });
    expect({ ...parseQueryString('a=1&a=2&b=x+y') }).toEqual({ a: ['1', '2'], b: 'x y' });
    // a key named __proto__ is a key, not the object's prototype
    const odd = parseQueryString('__proto__=x');
    expect(Object.keys(odd)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(odd)).toBeNull();
  });

  it('drops empty values', () => {
    expect(withoutBlanks({ sortProp: '', page: '1', ids: ['a'] })).toEqual({
      page: '1',
      ids: ['a'],
    });
  });
});
