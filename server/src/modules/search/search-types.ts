import {
  foldName,
  nameQueryMatches,
  uniqueTerms,
  type NameQuery,
  type QueryTerm,
} from './tokenize.ts';

/** Document keys are `slot * KEY_SPAN + sequence`: each user owns one contiguous range. */
export const KEY_SPAN = 2 ** 36;
/** Stored text is kept in chunks of this many characters (PostgreSQL indexes each chunk). */
export const CHUNK_CHARS = 20_000;
/** Tag and content tiers are materialized up to this many documents per query. */
export const TIER_CAP = 10_000;

export type DocState =
  'none' | 'pending' | 'pending_ocr' | 'running' | 'running_ocr' | 'done' | 'failed' | 'skipped';

/** A file or folder to index by name. */
export interface DocSource {
  fileId: string;
  userId: string;
  name: string;
  live: boolean;
  state: DocState;
}

export interface SearchFilters {
  /** Only below this folder (`/a/b/`); the whole drive when absent. */
  prefix?: string;
  fileType?: string;
  isFolder?: boolean;
  isFavorite?: boolean;
  tagId?: string;
  modifiedFrom?: number;
  modifiedTo?: number;
  sizeMin?: number;
  sizeMax?: number;
}

export type SortProp = 'name' | 'size' | 'updateDate' | 'uploadDate';

export interface SearchQuery {
  userId: string;
  terms: QueryTerm[];
  /** The folded keyword: exact matching and ranking. */
  keyword: string;
  /** The keyword must occur as typed (folded), not only its words. */
  verify: boolean;
  /**
   * How names match when the search is not exact: each word anywhere in the name. Absent,
   * names match by `terms` (whole words, with `verify`) as text does.
   */
  name?: NameQuery;
  includeName: boolean;
  /** Tags of the user whose names match the keyword. */
  tagIds: string[];
  includeContent: boolean;
  filters: SearchFilters;
  sort?: { prop: SortProp; order: 'ascending' | 'descending' };
  offset: number;
  limit: number;
}

/** Where a result matched: 0 its name, 1 one of its tags, 2 its content. */
export type Tier = 0 | 1 | 2;

export interface SearchPage {
  hits: Array<{ fileId: string; docKey: number; tier: Tier }>;
  total: number;
}

export const hasFilters = (f: SearchFilters) => Object.values(f).some((v) => v !== undefined);

/** Whether a name matches a query, decided as the index decides (same terms, same rules). */
export function nameMatches(
  name: string,
  q: Pick<SearchQuery, 'terms' | 'verify' | 'keyword' | 'name'>,
) {
  if (q.name) return nameQueryMatches(name, q.name);
  const terms = uniqueTerms(name);
  const all = q.terms.every((c) =>
    terms.some((t) => (c.prefix ? t.startsWith(c.term) : t === c.term)),
  );
  return all && (!q.verify || foldName(name).includes(foldName(q.keyword)));
}

/** Text in chunks of CHUNK_CHARS, never splitting a surrogate pair. */
export function splitChunks(text: string): string[] {
  const chunks: string[] = [];
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + CHUNK_CHARS);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
    chunks.push(text.slice(at, end));
    at = end;
  }
  return chunks;
}
