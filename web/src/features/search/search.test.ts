import { describe, expect, it } from 'vitest';
import { matchRanges } from './highlight';
import {
  DEFAULT_OPTIONS,
  changedOptions,
  dateRange,
  optionsFromUrl,
  resultsUrl,
  searchParams,
} from './options';

describe('highlighting', () => {
  it('marks every occurrence of every word, case-insensitively, merging overlaps', () => {
    expect(matchRanges('Report 项目报告 report', ['report', '报告'])).toEqual([
      [0, 6],
      [9, 11],
      [12, 18],
    ]);
    // overlapping and touching matches read as one mark
    expect(matchRanges('abcabc', ['ab', 'bc'])).toEqual([[0, 6]]);
    expect(matchRanges('ab-ab', ['ab'])).toEqual([
      [0, 2],
      [3, 5],
    ]);
    expect(matchRanges('nothing', ['', ' '])).toEqual([]);
  });
});

describe('search options', () => {
  it('turn date shortcuts into ranges ending now', () => {
    const now = new Date(2024, 5, 12, 15, 30); // a Wednesday
    expect(dateRange('today', now)).toEqual([new Date(2024, 5, 12).getTime(), now.getTime()]);
    expect(dateRange('month', now)).toEqual([new Date(2024, 5, 1).getTime(), now.getTime()]);
    expect(dateRange('last3', now)).toEqual([
      new Date(2024, 5, 9, 15, 30).getTime(),
      now.getTime(),
    ]);
    expect(dateRange('last7', now)[0]).toBe(new Date(2024, 5, 5, 15, 30).getTime());
    const [weekStart] = dateRange('week', now);
    expect(weekStart).toBeLessThanOrEqual(new Date(2024, 5, 10).getTime());
    expect(weekStart).toBeGreaterThanOrEqual(new Date(2024, 5, 9).getTime());
  });

  it('become search-file parameters', () => {
    const now = new Date(2024, 5, 12, 15, 30);
    expect(searchParams('报告', DEFAULT_OPTIONS, '/a/b/', now)).toEqual({
      keyword: '报告',
      searchOverall: false,
      currentDirectory: '/a/b/',
      exactSearch: false,
      includeFileName: true,
      includeTagName: true,
      includeFileContent: true,
    });
    const all = searchParams(
      'x',
      { ...DEFAULT_OPTIONS, type: 'folder', date: 'today', sizeMin: 1, sizeMax: 2.5, exact: true },
      '/',
      now,
    );
    expect(all).toMatchObject({
      searchOverall: true,
      isFolder: true,
      exactSearch: true,
      queryModifyStart: new Date(2024, 5, 12).getTime(),
      querySizeMin: 1048576,
      querySizeMax: 2621440,
    });
    expect(all.currentDirectory).toBeUndefined();
    expect(searchParams('x', { ...DEFAULT_OPTIONS, type: 'image' }, '/')).toMatchObject({
      type: 'image',
    });
  });

  it('round-trip through the results URL and count what differs from the defaults', () => {
    const options = {
      ...DEFAULT_OPTIONS,
      type: 'document' as const,
      date: 'last5' as const,
      sizeMax: 10,
      wholeDrive: true,
      includeContent: false,
    };
    const url = resultsUrl('季度 report', options, '/docs/');
    const params = new URLSearchParams(url.slice(2));
    expect(params.get('keyword')).toBe('季度 report');
    expect(params.get('path')).toBe('/docs/');
    expect(optionsFromUrl(params)).toEqual({ ...options, sizeMin: undefined });
    expect(changedOptions(options)).toBe(5);
    expect(changedOptions(DEFAULT_OPTIONS)).toBe(0);
    expect(optionsFromUrl(new URLSearchParams('type=bogus&date=never&sizeMin=-1'))).toEqual(
      DEFAULT_OPTIONS,
    );
  });
});
