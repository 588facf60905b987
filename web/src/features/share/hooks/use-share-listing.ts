import { keepPreviousData, useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { shareFolderPagesQuery, shareKeys } from '../api';

/** The items of a folder of a share, more pages as the visitor scrolls to them. */
export function useShareListing(share: string, path: string) {
  const queryClient = useQueryClient();
  const query = useInfiniteQuery({
    ...shareFolderPagesQuery(queryClient, share, path),
    placeholderData: keepPreviousData,
  });
  const items = useMemo(() => query.data?.pages.flatMap((page) => page.items) ?? [], [query.data]);
  const total = query.data?.pages[0]?.total ?? 0;
  /** After a change: the share's facts and every folder of it listed again. */
  const refresh = () => queryClient.invalidateQueries({ queryKey: shareKeys.visit(share) });
  return { query, items, total, refresh };
}

export type ShareListing = ReturnType<typeof useShareListing>;
