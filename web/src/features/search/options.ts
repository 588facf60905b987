import dayjs from 'dayjs';
import type { QueryParams } from '../../api/query-string';

export const SEARCH_TYPES = [
  'folder',
  'image',
  'video',
  'audio',
  'document',
  'text',
  'archive',
  'other',
] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

/** Date shortcuts (spec §9): today, this week, this month, the last 3, 5 and 7 days. */
export const DATE_SHORTCUTS = ['today', 'week', 'month', 'last3', 'last5', 'last7'] as const;
export type DateShortcut = (typeof DATE_SHORTCUTS)[number];

/** What the options popover sets; the results page keeps it in its URL. */
export interface SearchOptions {
  type?: SearchType;
  date?: DateShortcut;
  /** Megabytes. */
  sizeMin?: number;
  sizeMax?: number;
  wholeDrive: boolean;
  exact: boolean;
  includeName: boolean;
  includeTag: boolean;
  includeContent: boolean;
}

export const DEFAULT_OPTIONS: SearchOptions = {
  wholeDrive: false,
  exact: false,
  includeName: true,
  includeTag: true,
  includeContent: true,
};

const MB = 1024 * 1024;

/** The modified-date range of a shortcut, in epoch ms, as of `now`. */
export function dateRange(shortcut: DateShortcut, now: Date = new Date()): [number, number] {
  const end = now.getTime();
  const day = dayjs(now);
  switch (shortcut) {
    case 'today':
      return [day.startOf('day').valueOf(), end];
    case 'week':
      return [day.startOf('week').valueOf(), end];
    case 'month':
      return [day.startOf('month').valueOf(), end];
    case 'last3':
    case 'last5':
    case 'last7': {
      const days = Number(shortcut.slice(4));
      return [day.subtract(days, 'day').valueOf(), end];
    }
  }
}

/** The options that differ from the defaults (a badge on the options button). */
export function changedOptions(options: SearchOptions): number {
  let n = 0;
  if (options.type) n += 1;
  if (options.date) n += 1;
  if (options.sizeMin !== undefined || options.sizeMax !== undefined) n += 1;
  if (options.wholeDrive !== DEFAULT_OPTIONS.wholeDrive) n += 1;
  if (options.exact) n += 1;
  if (!options.includeName || !options.includeTag || !options.includeContent) n += 1;
  return n;
}

/** The search-file parameters (API-NOTES §1.13) of a keyword, its options and the folder. */
export function searchParams(
  keyword: string,
  options: SearchOptions,
  folder: string,
  now: Date = new Date(),
): QueryParams {
  const params: QueryParams = {
    keyword,
    searchOverall: options.wholeDrive || folder === '/',
    exactSearch: options.exact,
    includeFileName: options.includeName,
    includeTagName: options.includeTag,
    includeFileContent: options.includeContent,
  };
  if (!params.searchOverall) params.currentDirectory = folder;
  if (options.type === 'folder') params.isFolder = true;
  else if (options.type) params.type = options.type;
  if (options.date) {
    const [start, end] = dateRange(options.date, now);
    params.queryModifyStart = start;
    params.queryModifyEnd = end;
  }
  if (options.sizeMin !== undefined) params.querySizeMin = Math.round(options.sizeMin * MB);
  if (options.sizeMax !== undefined) params.querySizeMax = Math.round(options.sizeMax * MB);
  return params;
}

const flag = (value: string | null, fallback: boolean) =>
  value === null ? fallback : value === '1' || value === 'true';
const number = (value: string | null) => {
  if (value === null || value === '') return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** Options from the results page's URL. */
export function optionsFromUrl(params: URLSearchParams): SearchOptions {
  const type = params.get('type');
  const date = params.get('date');
  return {
    type: (SEARCH_TYPES as readonly string[]).includes(type ?? '')
      ? (type as SearchType)
      : undefined,
    date: (DATE_SHORTCUTS as readonly string[]).includes(date ?? '')
      ? (date as DateShortcut)
      : undefined,
    sizeMin: number(params.get('sizeMin')),
    sizeMax: number(params.get('sizeMax')),
    wholeDrive: flag(params.get('overall'), DEFAULT_OPTIONS.wholeDrive),
    exact: flag(params.get('exact'), DEFAULT_OPTIONS.exact),
    includeName: flag(params.get('name'), true),
    includeTag: flag(params.get('tag'), true),
    includeContent: flag(params.get('content'), true),
  };
}

/** The results page's URL for a keyword, its options and the folder searched. */
export function resultsUrl(keyword: string, options: SearchOptions, folder: string): string {
  const params = new URLSearchParams({ keyword });
  if (folder !== '/') params.set('path', folder);
  if (options.type) params.set('type', options.type);
  if (options.date) params.set('date', options.date);
  if (options.sizeMin !== undefined) params.set('sizeMin', String(options.sizeMin));
  if (options.sizeMax !== undefined) params.set('sizeMax', String(options.sizeMax));
  if (options.wholeDrive) params.set('overall', '1');
  if (options.exact) params.set('exact', '1');
  if (!options.includeName) params.set('name', '0');
  if (!options.includeTag) params.set('tag', '0');
  if (!options.includeContent) params.set('content', '0');
  return `/?${params.toString()}`;
}
