import { tagsApi, type BodyIn, type TagItem } from '@nimbus/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '../../api/endpoints';
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
      const tags = await callEndpoint(tagsApi.list, {}, { silent: true, signal });
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
      (await callEndpoint(
        tagsApi.ofFiles,
        { query: { fileIds: [...fileIds] } },
        { silent: true, signal },
      )) ?? {},
    enabled: enabled && fileIds.length > 0,
    staleTime: 10_000,
  });
}

const quiet = { silent: true } as const;

/** Every change of tags: what shows tags reloads once it is done, whether it worked or not. */
function useTagChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => client.invalidateQueries({ queryKey: tagKeys.all }),
  });
}

/** Adds a tag, or changes one when `id` is given. */
export const useSaveTag = () =>
  useTagChange((input: { id?: string; name: string; color: string }) =>
    input.id
      ? callEndpoint(tagsApi.update, { body: input }, quiet)
      : callEndpoint(tagsApi.add, { body: { name: input.name, color: input.color } }, quiet),
  );

export const useDeleteTags = () =>
  useTagChange((ids: string[]) => callEndpoint(tagsApi.remove, { query: { tagIds: ids } }, quiet));

/** The tags' new order; the list shows it at once, before the server confirms it. */
export function useSortTags() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => callEndpoint(tagsApi.sort, { body: ids }, quiet),
    onMutate: (ids) => {
      const byId = new Map((client.getQueryData<Tag[]>(tagKeys.list) ?? []).map((t) => [t.id, t]));
      client.setQueryData<Tag[]>(
        tagKeys.list,
        ids.flatMap((id, sort) => {
          const tag = byId.get(id);
          return tag ? [{ ...tag, sort }] : [];
        }),
      );
    },
    onSettled: () => client.invalidateQueries({ queryKey: tagKeys.all }),
  });
}

/** The tags of some files: tags put on (new ones created by name) and taken off. */
export const useSetFileTags = () =>
  useTagChange((body: BodyIn<typeof tagsApi.setOnFiles>) =>
    callEndpoint(tagsApi.setOnFiles, { body }, quiet),
  );
