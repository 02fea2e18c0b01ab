import { ApiError } from '@dts/client';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { reportError } from './client';

/** Data stays fresh 30 s; live events update what they concern sooner. A 4xx is not retried. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: reportError }),
  mutationCache: new MutationCache({ onError: reportError }),
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
    mutations: { retry: false },
  },
});
