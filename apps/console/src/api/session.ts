import { ApiError } from '@dts/client';
import type { AccountWire, LoginRequest, RegisterRequest } from '@dts/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, onSessionLost } from './client';
import { keys } from './keys';

/** The signed-in account, or null: a 401 is an answer here (signed out), not an error. */
export function useSession() {
  const client = useQueryClient();
  useEffect(
    () =>
      onSessionLost(() => {
        if (client.getQueryData(keys.me)) client.setQueryData(keys.me, null);
      }),
    [client],
  );
  return useQuery({
    queryKey: keys.me,
    queryFn: async (): Promise<AccountWire | null> => {
      try {
        return await api.user.me();
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });
}

export function useSignIn() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: LoginRequest) => {
      await api.auth.login(body);
      return api.user.me();
    },
    onSuccess: (me) => {
      // Another account's cached data must not show for a moment.
      client.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' });
      client.setQueryData(keys.me, me);
    },
  });
}

export function useRegister() {
  return useMutation({ mutationFn: (body: RegisterRequest) => api.auth.register(body) });
}

/** Signs out and starts the console afresh: nothing of the account stays in memory, the live feed closes. */
export function useSignOut() {
  return useMutation({
    mutationFn: () => api.auth.logout(),
    onSettled: () => window.location.assign('/console/sign-in'),
  });
}
