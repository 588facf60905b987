import { describe, expect, it } from 'vitest';
import { isFlatView, pathSegments } from './view-kinds';

describe('file views', () => {
  it('marks the type views and the path-less special views as flat (spec §2)', () => {
    const none = new URLSearchParams();
    for (const path of [
      '/recently',
      '/document',
      '/audio',
      '/image',
      '/video',
      '/favorite',
      '/mount',
      '/trash',
      '/tag',
    ]) {
      expect(isFlatView(path, none)).toBe(true);
    }
    expect(isFlatView('/favorite', new URLSearchParams('path=/a'))).toBe(false);
    expect(isFlatView('/', none)).toBe(false);
    expect(isFlatView('/', new URLSearchParams('keyword=x'))).toBe(true);
    expect(isFlatView('/', new URLSearchParams('keyword=x&searchOpenFolder=1'))).toBe(false);
  });

  it('splits a folder path into segments', () => {
    expect(pathSegments('/a/b c/')).toEqual(['a', 'b c']);
    expect(pathSegments('/')).toEqual([]);
    expect(pathSegments(null)).toEqual([]);
  });
});
