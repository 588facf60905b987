import {
  SEARCH_HISTORY_KEEP,
  type SearchHistoryItem,
  type SearchHitFields,
  type SearchMatch,
} from '@nimbus/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Actor } from '../../lib/access.ts';
import { escapeLike } from '../files/names.ts';
import { newId } from '../../lib/ids.ts';
import { formatDateTime } from '../../lib/time.ts';
import { toView, type FilesService, type FileView } from '../files/files.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { toTagItem, type TagsService } from '../tags/tags.service.ts';
import type { SearchFilters, SearchRepo, SortProp, Tier } from './search.repo.ts';
import { normalizeText, parseQuery, uniqueTerms, type ParsedQuery } from './tokenize.ts';

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

/** Every term of the query found in a name's terms (fuzzy tag matching). */
function fuzzyMatch(query: ParsedQuery, name: string): boolean {
  const terms = uniqueTerms(name);
  return query.terms.every((q) =>
    terms.some((t) => (q.prefix ? t.startsWith(q.term) : t === q.term)),
  );
}

/**
 * Search (API-NOTES §1.13): by name, tag name and content; within a folder or the whole
 * drive; filtered by type, dates and sizes; ranked (names first) or sorted. Only the caller's
 * own files are ever searched. Also the search history.
 */
export class SearchService {
  constructor(
    private readonly db: Db,
    private readonly repo: SearchRepo,
    private readonly files: FilesService,
    private readonly tags: TagsService,
    private readonly settings: SettingsService,
  ) {}

  async search(actor: Actor, p: SearchParams): Promise<{ items: SearchResult[]; total: number }> {
    const keyword = p.keyword.trim();
    const exact = p.exactSearch && (await this.settings.get('exactSearch'));
    const query = parseQuery(keyword, exact);
    const filters: SearchFilters = {
      fileType: p.fileType,
      isFolder: p.isFolder,
      isFavorite: p.isFavorite || undefined,
      tagId: p.tagId,
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
    if (query.terms.length === 0) {
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
          await this.tags.matching(actor.id, (name) =>
            exact ? normalizeText(name).includes(query.normalized) : fuzzyMatch(query, name),
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
    // by primary key only: with the owner and trash conditions in the query, SQLite may
    // prefer an index that walks all of the owner's files
    const rows = await this.db
      .selectFrom('file')
      .selectAll()
      .where(
        'id',
        'in',
        hits.map((h) => h.fileId),
      )
      .execute();
    const byId = new Map(
      rows.filter((r) => r.userId === actor.id && r.trashId === null).map((r) => [r.id, r]),
    );
    const tags = await this.tags.repo.ofFiles(
      actor.id,
      hits.map((h) => h.fileId),
    );
    const out: SearchResult[] = [];
    for (const hit of hits) {
      const row = byId.get(hit.fileId);
      if (!row) continue;
      const result: SearchResult = {
        ...toView(row),
        tags: (tags.get(hit.fileId) ?? []).map(toTagItem),
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
    const now = Date.now();
    const text = keyword.slice(0, 255);
    await this.db
      .insertInto('searchHistory')
      .values({ id: newId(), userId, keyword: text, createdAt: now })
      .onConflict((oc) => oc.columns(['userId', 'keyword']).doUpdateSet({ createdAt: now }))
      .execute();
    const old = await this.db
      .selectFrom('searchHistory')
      .select('id')
      .where('userId', '=', userId)
      .orderBy('createdAt', 'desc')
      .orderBy('id')
      .offset(SEARCH_HISTORY_KEEP)
      .limit(100)
      .execute();
    if (old.length > 0)
      await this.db
        .deleteFrom('searchHistory')
        .where(
          'id',
          'in',
          old.map((r) => r.id),
        )
        .execute();
  }

  /** Recent searches, newest first; those containing `keyword` when given. */
  async recent(actor: Actor, keyword?: string, limit = 10): Promise<SearchHistoryItem[]> {
    let query = this.db.selectFrom('searchHistory').selectAll().where('userId', '=', actor.id);
    const text = keyword?.trim();
    if (text)
      query = query.where(
        sql<boolean>`lower(keyword) like ${`%${escapeLike(text.toLowerCase())}%`} escape '\\'`,
      );
    const rows = await query.orderBy('createdAt', 'desc').orderBy('id').limit(limit).execute();
    return rows.map((r) => ({
      id: r.id,
      keyword: r.keyword,
      searchTime: formatDateTime(r.createdAt),
    }));
  }

  async forget(actor: Actor, id: string): Promise<void> {
    await this.db
      .deleteFrom('searchHistory')
      .where('userId', '=', actor.id)
      .where('id', '=', id)
      .execute();
  }

  async forgetAll(actor: Actor): Promise<void> {
    await this.db.deleteFrom('searchHistory').where('userId', '=', actor.id).execute();
  }
}
