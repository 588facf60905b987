import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './client';

/** Server data lives here only. A failed business call is not retried; a dropped connection once. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: (failureCount, error) =>
        error instanceof ApiError && error.kind === 'transport' && failureCount < 1,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});
