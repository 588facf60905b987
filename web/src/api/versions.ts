import {
  HISTORY_PAGE_SIZE,
  type HistoryRetention,
  type HistoryText,
  type HistoryVersion,
  type SavedContent,
} from '@nimbus/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { API_BASE, api, requestData, requestPage } from './client';
import { toQueryString } from './query-string';

// A file's earlier versions: what the editors and the History dialog read and restore.

export const versionKeys = {
  list: (fileId: string) => ['versions', fileId] as const,
  retention: ['versions', 'retention'] as const,
};

/** What a file's history keeps (the administrator's retention settings). */
export function useHistoryRetention(enabled: boolean) {
  return useQuery({
    queryKey: versionKeys.retention,
    enabled,
    queryFn: ({ signal }) =>
      api.get<HistoryRetention>('/history/retention', undefined, { silent: true, signal }),
    staleTime: 60_000,
  });
}

/** A file's versions, newest first, a page of 20 at a time. */
export function useVersions(fileId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: versionKeys.list(fileId),
    enabled,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      requestPage<HistoryVersion>(
        '/history/list',
        { fileId, pageIndex: pageParam, pageSize: HISTORY_PAGE_SIZE },
        { silent: true },
      ),
    // a page that failed is asked for again next time: the page index does not move on
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total ? pages.length + 1 : undefined,
    staleTime: 0,
  });
}

export const versionText = (id: string, fileId: string) =>
  api.get<HistoryText>('/history/preview/text', { id, fileId });

/** Bring a version back; the current content becomes a version first. */
export const recoverVersion = (id: string, fileId: string) =>
  requestData<SavedContent>('/history/recovery', { method: 'PUT', params: { id, fileId } });

/** A version's bytes as a download (the session cookie of the byte routes signs it). */
export const versionFileUrl = (id: string, fileId: string) =>
  `${API_BASE}/history/preview/file${toQueryString({ id, fileId })}`;
