import type { TagItem } from './tags.ts';

/** Where a search result matched. */
export type SearchMatch = 'name' | 'tag' | 'content';

/** Extra fields of a search-file result beside the file's usual ones. */
export interface SearchHitFields {
  tags: TagItem[];
  /** The words of the keyword to highlight in the name and the snippet. */
  highlight: string[];
  matchedIn: SearchMatch;
  /** A piece of the file's text around the first match (content matches). */
  snippet?: string;
}

export interface SearchHistoryItem {
  id: string;
  keyword: string;
  searchTime: string;
}

/** File types a search can be limited to (API-NOTES §1.13 `type` / `queryFileType`). */
export const SEARCH_FILE_TYPES = [
  'image',
  'video',
  'audio',
  'document',
  'text',
  'archive',
  'other',
] as const;
export type SearchFileType = (typeof SEARCH_FILE_TYPES)[number];

export const SEARCH_KEYWORD_MAX = 200;
export const SEARCH_HISTORY_KEEP = 30;
