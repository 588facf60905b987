import {
  searchApi,
  searchHistoryApi,
  type QueryIn,
  type SearchHistoryItem,
  type SearchHit,
} from '@nimbus/contract';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { callEndpoint, callEndpointPage } from '../../api/endpoints';
import { onLiveMessage } from '../../api/events';
import { queryClient } from '../../api/query-client';
import type { QueryParams } from '../../api/query-string';

export type { SearchHit };

/** Results per page on the results page. */
export const RESULTS_PAGE_SIZE = 50;
/** Results under the search box while typing. */
export const QUICK_RESULTS = 6;

export const searchKeys = {
  all: ['search'] as const,
  history: (keyword: string) => ['search', 'history', keyword] as const,
  quick: (params: QueryParams) => ['search', 'quick', params] as const,
  results: (params: QueryParams) => ['search', 'results', params] as const,
};

/** The search's query: the parameters `searchParams` made of the options, and the page. */
const searchQueryOf = (params: QueryParams, page: { pageIndex: number; pageSize: number }) =>
  ({ ...params, ...page }) as QueryIn<typeof searchApi.search>;

export function fetchResults(
  params: QueryParams,
  pageIndex: number,
  pageSize: number,
  signal?: AbortSignal,
) {
  return callEndpointPage(
    searchApi.search,
    { query: searchQueryOf(params, { pageIndex, pageSize }) },
    { signal },
  );
}

/** Recent searches, those containing `keyword` when given. */
export function useSearchHistory(keyword: string, enabled: boolean) {
  return useQuery({
    queryKey: searchKeys.history(keyword),
    queryFn: async ({ signal }) => {
      const rows: SearchHistoryItem[] | undefined = await callEndpoint(
        searchHistoryApi.recent,
        { query: { keyword: keyword || undefined } },
        { silent: true, signal },
      );
      return Array.isArray(rows) ? rows : [];
    },
    enabled,
    staleTime: 10_000,
    placeholderData: keepPreviousData,
  });
}

export async function deleteHistory(id: string): Promise<void> {
  await callEndpoint(searchHistoryApi.forget, { query: { id } }, { silent: true });
}

export async function clearHistory(): Promise<void> {
  await callEndpoint(searchHistoryApi.forgetAll, {}, { silent: true });
}

/** A few results while typing (not remembered in the history: page 2 of nothing). */
export function useQuickSearch(params: QueryParams, enabled: boolean) {
  return useQuery({
    queryKey: searchKeys.quick(params),
    queryFn: ({ signal }) =>
      callEndpointPage(
        searchApi.search,
        // the history keeps what was searched for, not every prefix typed on the way
        {
          query: {
            ...searchQueryOf(params, { pageIndex: 1, pageSize: QUICK_RESULTS }),
            quick: true,
          },
        },
        { signal, silent: true },
      ),
    enabled,
    staleTime: 5_000,
    placeholderData: keepPreviousData,
  });
}

let live = false;

/**
 * Results follow the drive: a file added, renamed, moved or removed anywhere (this tab, another,
 * WebDAV) makes the results and quick results on screen ask again.
 */
function followFileEvents(): void {
  if (live) return;
  live = true;
  // a bulk operation sends thousands of messages: ask once they have paused
  let timer: number | null = null;
  onLiveMessage('fileChange', () => {
    if (timer !== null) window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      timer = null;
      void queryClient.invalidateQueries({ queryKey: ['search', 'results'] });
      void queryClient.invalidateQueries({ queryKey: ['search', 'quick'] });
    }, 300);
  });
}

/** The results page: pages of results as the list scrolls. */
export function useSearchResults(params: QueryParams) {
  followFileEvents();
  return useInfiniteQuery({
    queryKey: searchKeys.results(params),
    queryFn: ({ pageParam, signal }) => fetchResults(params, pageParam, RESULTS_PAGE_SIZE, signal),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return loaded < last.total && last.items.length > 0 ? pages.length + 1 : undefined;
    },
    staleTime: 10_000,
  });
}
