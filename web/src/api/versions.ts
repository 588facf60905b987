import { HISTORY_PAGE_SIZE, historyApi } from '@nimbus/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, callEndpointPage, endpointUrl } from './endpoints';

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
    queryFn: ({ signal }) => callEndpoint(historyApi.retention, {}, { silent: true, signal }),
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
      callEndpointPage(
        historyApi.list,
        { query: { fileId, pageIndex: pageParam, pageSize: HISTORY_PAGE_SIZE } },
        { silent: true },
      ),
    // a page that failed is asked for again next time: the page index does not move on
    getNextPageParam: (last, pages) =>
      pages.reduce((n, p) => n + p.items.length, 0) < last.total ? pages.length + 1 : undefined,
    staleTime: 0,
  });
}

export const versionText = (id: string, fileId: string) =>
  callEndpoint(historyApi.text, { query: { id, fileId } });

/**
 * Brings a version back; the current content becomes a version first, so the file's version
 * list reloads.
 */
export function useRecoverVersion() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fileId }: { id: string; fileId: string }) =>
      callEndpoint(historyApi.recover, { query: { id, fileId } }),
    onSettled: (_saved, _error, { fileId }) =>
      queryClient.invalidateQueries({ queryKey: versionKeys.list(fileId) }),
  });
}

/** A version's bytes as a download (the session cookie of the byte routes signs it). */
export const versionFileUrl = (id: string, fileId: string) =>
  endpointUrl(historyApi.file, { id, fileId });
