import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { useSessionStore } from '../../stores/session';

export interface Tag {
  id: string;
  tagId?: string;
  name: string;
  color?: string | null;
  sort?: number;
}

export const tagKeys = { list: ['tag', 'list'] as const };

/** The user's tags. Quiet: an empty or failed list simply shows no tags. */
export function useTags() {
  const userId = useSessionStore((s) => s.userId);
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
