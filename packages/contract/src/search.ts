import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { fileItem, SORT_ORDERS, SORT_PROPS } from './files.ts';
import { tagItem } from './tags.ts';
import { clientText, queryNumber } from './validation.ts';

/** Where a search result matched. */
export const SEARCH_MATCHES = ['name', 'tag', 'content'] as const;
export type SearchMatch = (typeof SEARCH_MATCHES)[number];

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

/** The OCR engines a server may have (spec §1, OCR settings). */
export const OCR_ENGINES = ['tesseract', 'tesseract.js'] as const;
export type OcrEngineName = (typeof OCR_ENGINES)[number];
export const MAX_OCR_TASKS = 8;

// ---- requests -------------------------------------------------------------------------------

/** `true`/`1` or `false`; absent or empty stays absent. */
const optionalFlag = z.preprocess(
  (v) => (v === undefined || v === '' ? undefined : v === true || v === 'true' || v === '1'),
  z.boolean().optional(),
);
/** `true`/`1` or `false`; absent or empty is `value`. */
const flagDefault = (value: boolean) =>
  z.preprocess(
    (v) => (v === undefined || v === '' ? value : v === true || v === 'true' || v === '1'),
    z.boolean(),
  );
/** A bound of a date or size range: absent, or a number of at least 0. */
const bound = queryNumber(z.number().finite().min(0).optional());

export const searchQuery = z.object({
  keyword: z.string().max(SEARCH_KEYWORD_MAX).default(''),
  currentDirectory: clientText(z.string().max(4096)).optional(),
  folder: z.string().max(64).optional(),
  tagId: z.string().max(64).optional(),
  isFolder: optionalFlag,
  isFavorite: optionalFlag,
  queryFileType: z.string().max(16).optional(),
  type: z.string().max(16).optional(),
  queryModifyStart: bound,
  queryModifyEnd: bound,
  querySizeMin: bound,
  querySizeMax: bound,
  searchOverall: flagDefault(false),
  exactSearch: flagDefault(false),
  includeTagName: flagDefault(true),
  includeFileName: flagDefault(true),
  includeFileContent: flagDefault(true),
  sortableProp: z.enum(SORT_PROPS).optional().catch(undefined),
  order: z.enum(SORT_ORDERS).optional().catch(undefined),
  pageIndex: queryNumber(z.number().int().min(1)).default(1),
  pageSize: queryNumber(z.number().int().min(1).max(500)).default(50),
  // results shown while typing: not kept in the search history
  quick: flagDefault(false),
});
export type SearchQuery = z.infer<typeof searchQuery>;

export const searchHistoryQuery = z.object({
  keyword: z.string().max(SEARCH_KEYWORD_MAX).optional(),
});
export const searchHistoryItemQuery = z.object({ id: z.string().max(64) });

export const ocrConfigBody = z.object({
  enable: z.boolean(),
  maxTasks: queryNumber(z.number().int().min(1).max(MAX_OCR_TASKS)),
  ocrEngine: z.enum(OCR_ENGINES).optional().catch(undefined),
});

// ---- answers --------------------------------------------------------------------------------

/** The fields a search result has beside the file's usual ones. */
export const searchHitFields = z.object({
  tags: z.array(tagItem),
  /** The words of the keyword to highlight in the name and the snippet. */
  highlight: z.array(z.string()),
  matchedIn: z.enum(SEARCH_MATCHES),
  /** A piece of the file's text around the first match (content matches). */
  snippet: z.string().optional(),
});
export type SearchHitFields = z.infer<typeof searchHitFields>;

export const searchHit = fileItem.extend(searchHitFields.shape);
export type SearchHit = z.infer<typeof searchHit>;
export const searchHits = z.array(searchHit);

export const searchHistoryItem = z.object({
  id: z.string(),
  keyword: z.string(),
  searchTime: z.string(),
});
export type SearchHistoryItem = z.infer<typeof searchHistoryItem>;
export const searchHistory = z.array(searchHistoryItem);

/** The OCR settings, and what this server has installed (read only). */
export const ocrView = z.object({
  enable: z.boolean(),
  maxTasks: z.number().int(),
  ocrEngine: z.enum(OCR_ENGINES),
  engines: z.object({ tesseract: z.boolean(), 'tesseract.js': z.boolean() }),
  languages: z.array(z.string()),
  pdfText: z.boolean(),
});
export type OcrView = z.infer<typeof ocrView>;

/** The OCR settings (administrators). */
export const ocrConfigApi = {
  config: endpoint({
    method: 'GET',
    path: '/cloud/setting/ocr/config',
    answer: ocrView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
  setConfig: endpoint({
    method: 'PUT',
    path: '/cloud/setting/ocr/config',
    body: ocrConfigBody,
    answer: ocrView,
    access: 'user',
    authority: 'cloud:set:sync',
  }),
};

/** The search history's endpoints: each person's own recent searches. */
export const searchHistoryApi = {
  /** Recent searches, newest first; those containing `keyword` when it is given. */
  recent: endpoint({
    method: 'GET',
    path: '/search/recentlySearchHistory',
    query: searchHistoryQuery,
    answer: searchHistory,
    access: 'user',
  }),
  /** Forgets one search. */
  forget: endpoint({
    method: 'DELETE',
    path: '/search/deleteSearchHistory',
    query: searchHistoryItemQuery,
    answer: null,
    access: 'user',
  }),
  /** Forgets every search. */
  forgetAll: endpoint({
    method: 'DELETE',
    path: '/search/deleteAllSearchHistory',
    answer: null,
    access: 'user',
  }),
};

/** The drive's search (API-NOTES §1.13): a page of hits, the total in the envelope's `count`. */
export const searchApi = {
  search: endpoint({
    method: 'GET',
    path: '/search-file',
    query: searchQuery,
    answer: searchHits,
    access: 'user',
  }),
};
