import {
  SEARCH_HISTORY_KEEP,
  type SearchHistoryItem,
  type SearchHitFields,
  type SearchMatch,
} from '@nimbus/contract';
import { requireAuthority, type Actor } from '../../lib/access.ts';
import { formatDateTime } from '../../lib/time.ts';
import { toView, type FileView } from '../files/file-view.ts';
import type { FilesService } from '../files/files.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import type { TagsService } from '../tags/tags.service.ts';
import type { Ocr, OcrEngineName } from './content/ocr.ts';
import { pdfToolsAvailable } from './content/pdf.ts';
import type { OcrConfig, OcrSettings } from './ocr-settings.ts';
import type { SearchHistoryRepo } from './search-history.repo.ts';
import type { SearchIndexer } from './search-index.ts';
import type { SearchFilters, SearchRepo, SortProp, Tier } from './search.repo.ts';
import {
  nameQuery,
  nameQueryMatches,
  normalizeText,
  parseQuery,
  type ParsedQuery,
} from './tokenize.ts';
import type { FilesRepo } from '../files/files.repo.ts';

export interface SearchParams {
  keyword: string;
  currentDirectory?: string;
  folder?: string;
  searchOverall: boolean;
  tagId?: string;
  isFolder?: boolean;
  isFavorite?: boolean;
  fileType?: string;
  modifiedFrom?: number;
  modifiedTo?: number;
  sizeMin?: number;
  sizeMax?: number;
  exactSearch: boolean;
  includeTagName: boolean;
  includeFileName: boolean;
  includeFileContent: boolean;
  sortableProp?: SortProp;
  order?: 'ascending' | 'descending';
  pageIndex: number;
  pageSize: number;
  /** Keep the keyword in the search history (false for results shown while typing). */
  remember?: boolean;
}

export type SearchResult = FileView & SearchHitFields;

/** The OCR settings with what this server can do. */
export interface OcrView extends OcrConfig {
  engines: { tesseract: boolean; 'tesseract.js': boolean };
  languages: string[];
  pdfText: boolean;
}

/** The file types a search can be narrowed to; any other value filters nothing. */
const FILE_TYPES = new Set(['image', 'video', 'audio', 'document', 'text', 'archive', 'other']);

const MATCHES: Record<Tier, SearchMatch> = { 0: 'name', 1: 'tag', 2: 'content' };
const SNIPPET_BEFORE = 40;
const SNIPPET_LENGTH = 160;

/** A short piece of text around the first of the words found in it, on one line. */
export function snippetOf(text: string, words: string[]): string {
  const lower = text.toLowerCase();
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w.toLowerCase());
    if (i >= 0 && (at < 0 || i < at)) at = i;
  }
  const start = Math.max(0, at - SNIPPET_BEFORE);
  let piece = text
    .slice(start, start + SNIPPET_LENGTH)
    .replace(/\s+/g, ' ')
    .trim();
  if (start > 0) piece = `…${piece}`;
  if (start + SNIPPET_LENGTH < text.length) piece = `${piece}…`;
  return piece;
}

/**
 * Search (API-NOTES §1.13): by name, tag name and content; within a folder or the whole
 * drive; filtered by type, dates and sizes; ranked (names first) or sorted. Only the caller's
 * own files are ever searched. Also the search history and the OCR settings (§1.12).
 */
export class SearchService {
  constructor(
    private readonly repo: SearchRepo,
    private readonly history: SearchHistoryRepo,
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly tags: TagsService,
    private readonly settings: SettingsService,
    private readonly index: SearchIndexer,
    private readonly ocrSettings: OcrSettings,
    private readonly ocr: Ocr,
  ) {}

  async search(actor: Actor, p: SearchParams): Promise<{ items: SearchResult[]; total: number }> {
    const keyword = p.keyword.trim();
    const exact = p.exactSearch && (await this.settings.get('exactSearch'));
    const query = parseQuery(keyword, exact);
    // names (and tag names) match by any part unless the search is exact
    const name = exact ? undefined : nameQuery(keyword);
    const nameWords = name ? name.parts.length + name.terms.length : query.terms.length;
    // what was typed is shown marked as typed (`item_2`, not `item` and `2`)
    if (name)
      query.highlights = [
        ...new Set([...keyword.split(/\s+/u).filter(Boolean), ...query.highlights]),
      ];
    const filters: SearchFilters = {
      fileType: p.fileType && FILE_TYPES.has(p.fileType) ? p.fileType : undefined,
      isFolder: p.isFolder,
      isFavorite: p.isFavorite || undefined,
      tagId: p.tagId || undefined,
      modifiedFrom: p.modifiedFrom,
      modifiedTo: p.modifiedTo,
      sizeMin: p.sizeMin,
      sizeMax: p.sizeMax,
    };
    if (!p.searchOverall) {
      const folder = p.folder
        ? await this.files.folderById(actor.id, p.folder)
        : await this.files.resolveFolder(actor.id, p.currentDirectory);
      if (folder.prefix !== '/') filters.prefix = folder.prefix;
    }
    const offset = (p.pageIndex - 1) * p.pageSize;
    const sort = p.sortableProp
      ? {
          prop: p.sortableProp,
          order: p.order ?? (p.sortableProp === 'name' ? 'ascending' : 'descending'),
        }
      : undefined;

    if (keyword && p.pageIndex === 1 && p.remember !== false)
      await this.remember(actor.id, keyword);

    // no words to look for: the filters alone choose (newest first unless told)
    if (nameWords === 0 && query.terms.length === 0) {
      const anyFilter = Object.values(filters).some((v) => v !== undefined);
      if (!anyFilter) return { items: [], total: 0 };
      const found = await this.repo.filterOnly(
        actor.id,
        filters,
        sort ?? { prop: 'updateDate', order: 'descending' },
        offset,
        p.pageSize,
      );
      const items = await this.results(
        actor,
        found.fileIds.map((fileId) => ({ fileId, docKey: 0, tier: 0 })),
        query,
      );
      return { items, total: found.total };
    }

    const tagIds = p.includeTagName
      ? (
          await this.tags.matching(actor.id, (tagName) =>
            name
              ? nameQueryMatches(tagName, name)
              : normalizeText(tagName).includes(query.normalized),
          )
        ).map((t) => t.id)
      : [];
    // a keyword that is one term needs no check beyond the index; longer ones are checked
    // as a whole against the name or text when the match must be exact
    const single = query.terms.length === 1 && query.terms[0]!.term === query.normalized;
    const page = await this.repo.search({
      userId: actor.id,
      terms: query.terms,
      keyword: query.normalized,
      verify: exact && !single,
      name,
      includeName: p.includeFileName,
      tagIds,
      includeContent: p.includeFileContent,
      filters,
      sort,
      offset,
      limit: p.pageSize,
    });
    return { items: await this.results(actor, page.hits, query), total: page.total };
  }

  /** The file rows of a page of hits, in order, with their tags and snippets. */
  private async results(
    actor: Actor,
    hits: Array<{ fileId: string; docKey: number; tier: Tier }>,
    query: ParsedQuery,
  ): Promise<SearchResult[]> {
    if (hits.length === 0) return [];
    const ids = hits.map((h) => h.fileId);
    const byId = new Map((await this.fileRows.liveMany(actor.id, ids)).map((r) => [r.id, r]));
    const tags = await this.tags.ofFiles(actor, ids);
    const out: SearchResult[] = [];
    for (const hit of hits) {
      const row = byId.get(hit.fileId);
      if (!row) continue;
      const result: SearchResult = {
        ...toView(row),
        tags: tags[hit.fileId] ?? [],
        highlight: query.highlights,
        matchedIn: MATCHES[hit.tier],
      };
      if (hit.tier === 2 && hit.docKey) {
        const body = await this.repo.chunkWith(hit.docKey, query.highlights);
        if (body) result.snippet = snippetOf(body, query.highlights);
      }
      out.push(result);
    }
    return out;
  }

  // ---- history ----------------------------------------------------------------------------

  private async remember(userId: string, keyword: string): Promise<void> {
    await this.history.remember(userId, keyword.slice(0, 255), Date.now());
    await this.history.trimHistory(userId, SEARCH_HISTORY_KEEP);
  }

  /** Recent searches, newest first; those containing `keyword` when given. */
  async recent(actor: Actor, keyword?: string, limit = 10): Promise<SearchHistoryItem[]> {
    const rows = await this.history.list(actor.id, keyword?.trim() || undefined, limit);
    return rows.map((r) => ({
      id: r.id,
      keyword: r.keyword,
      searchTime: formatDateTime(r.createdAt),
    }));
  }

  async forget(actor: Actor, id: string): Promise<void> {
    await this.history.forget(actor.id, id);
  }

  async forgetAll(actor: Actor): Promise<void> {
    await this.history.forgetAll(actor.id);
  }

  // ---- OCR settings -----------------------------------------------------------------------

  /** The OCR settings and the engines, languages and PDF tools this server has. */
  async ocrConfig(actor: Actor): Promise<OcrView> {
    requireAuthority(actor, 'cloud:set:sync');
    const config = await this.ocrSettings.get();
    const available = this.ocr.available();
    return {
      ...config,
      engines: {
        tesseract: available.tesseract,
        'tesseract.js': available.tesseractJs,
      },
      languages: available.tesseractLanguages,
      pdfText: pdfToolsAvailable(),
    };
  }

  /** Saves the OCR settings; switched on, images and scans skipped while it was off are read. */
  async setOcrConfig(
    actor: Actor,
    input: { enable: boolean; maxTasks: number; ocrEngine?: OcrEngineName },
  ): Promise<OcrView> {
    requireAuthority(actor, 'cloud:set:sync');
    const before = await this.ocrSettings.get();
    await this.ocrSettings.set({
      enable: input.enable,
      maxTasks: input.maxTasks,
      ocrEngine: input.ocrEngine ?? before.ocrEngine,
    });
    if (input.enable && !before.enable) await this.index.retryOcrSkipped();
    return this.ocrConfig(actor);
  }
}
