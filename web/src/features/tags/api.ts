import type { SetTagsBody, TagItem } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { onLiveMessage } from '../../api/events';
import { queryClient } from '../../api/query-client';
import { useSessionStore } from '../../stores/session';

export type Tag = TagItem;

export const tagKeys = {
  all: ['tag'] as const,
  list: ['tag', 'list'] as const,
  files: (ids: readonly string[]) => ['tag', 'files', [...ids].sort().join(',')] as const,
};

let live = false;

/** Tags changed anywhere (this tab, another, another device): what shows them reloads. */
function followTagEvents(): void {
  if (live) return;
  live = true;
  onLiveMessage('fileChange', (message) => {
    if (message.url !== 'updateTags') return;
    void queryClient.invalidateQueries({ queryKey: tagKeys.all });
    // every listing's items carry their tags: a tag put on, taken off, renamed or recoloured
    void queryClient.invalidateQueries({ queryKey: ['files', 'list'] });
    void queryClient.invalidateQueries({ queryKey: ['search'] });
  });
}

/** The user's tags in their order. Quiet: an empty or failed list simply shows no tags. */
export function useTags() {
  const userId = useSessionStore((s) => s.userId);
  followTagEvents();
  return useQuery({
    queryKey: tagKeys.list,
    queryFn: async ({ signal }) => {
      const tags = await api.get<Tag[]>('/tag/list', { userId }, { silent: true, signal });
      return Array.isArray(tags) ? tags : [];
    },
    enabled: Boolean(userId),
    retry: false,
    staleTime: 60_000,
  });
}

/** The tags of some files, by file id. */
export function useFileTags(fileIds: readonly string[], enabled = true) {
  return useQuery({
    queryKey: tagKeys.files(fileIds),
    queryFn: async ({ signal }) =>
      (await api.get<Record<string, Tag[]>>(
        '/tag/fileTags',
        { fileIds: [...fileIds] },
        { silent: true, signal },
      )) ?? {},
    enabled: enabled && fileIds.length > 0,
    staleTime: 10_000,
  });
}

const quiet = { silent: true } as const;

export const addTag = (input: { name: string; color: string }) =>
  api.post<Tag>('/tag/add', input, quiet);

export const updateTag = (input: { id: string; name: string; color: string }) =>
  api.put<Tag>('/tag/update', input, quiet);

export const deleteTags = (ids: string[]) => api.delete('/tag/delete', { tagIds: ids }, quiet);

export const sortTags = (ids: string[]) => api.post<Tag[]>('/tag/sort', ids, quiet);

export const setFileTags = (input: SetTagsBody) => api.post<Tag[]>('/setTag', input, quiet);

export function refreshTags(): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: tagKeys.all });
}
