import type {
  AdminAccountDeleteQuery,
  AdminAccountUpdateRequest,
  AdminAccountWire,
  AuditEventWire,
  AuditQuery,
  CacheDeviceEntryWire,
  CacheEntryListMetaWire,
} from '@dts/domain';
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** Rows per page of the administrator's lists. */
export const ADMIN_PAGE = 100;

export function useAdminInfo() {
  return useQuery({ queryKey: keys.adminInfo, queryFn: () => api.admin.info(), refetchInterval: 15_000 });
}

type AccountsPage = { accounts: AdminAccountWire[]; meta: { total: number; next_cursor: string | null } };

export function useAdminAccounts(q: string) {
  const query = { ...(q.trim() ? { q: q.trim() } : {}), limit: ADMIN_PAGE };
  return useInfiniteQuery({
    queryKey: keys.adminAccounts(query),
    queryFn: ({ pageParam }) => api.admin.accounts({ ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: AccountsPage) => last.meta.next_cursor ?? undefined,
  });
}

export function useUpdateAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AdminAccountUpdateRequest }) => api.admin.updateAccount(id, body),
    onSuccess: (account) => {
      client.setQueriesData<InfiniteData<AccountsPage>>({ queryKey: ['admin', 'accounts'] }, (data) =>
        data ? { ...data, pages: data.pages.map((p) => ({ ...p, accounts: p.accounts.map((a) => (a.id === account.id ? account : a)) })) } : data,
      );
    },
  });
}

/** Mails the account a password reset link. */
export function usePasswordReset() {
  return useMutation({ mutationFn: (id: number) => api.admin.passwordReset(id) });
}

/** Deletes an account (its devices deleted or handed over); the lists, and the figures, are read again. */
export function useDeleteAccount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, query }: { id: number; query: AdminAccountDeleteQuery }) => api.admin.deleteAccount(id, query),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['admin'] });
    },
  });
}

type AuditPage = { events: AuditEventWire[]; meta: { next_cursor: string | null } };

/** The audit log, newest first, a page at a time; read again every 15 s (new records come at the top). */
export function useAudit(filter: Omit<AuditQuery, 'cursor' | 'format' | 'limit'>) {
  const query = { ...filter, limit: ADMIN_PAGE };
  return useInfiniteQuery({
    queryKey: keys.adminAudit(query),
    queryFn: ({ pageParam }) => api.admin.audit({ ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: AuditPage) => last.meta.next_cursor ?? undefined,
    refetchInterval: 15_000,
  });
}

type CachePage = { entries: CacheDeviceEntryWire[]; meta: CacheEntryListMetaWire };

export function useCacheEntries(stale: boolean | null) {
  const query = { ...(stale === null ? {} : { stale }), limit: ADMIN_PAGE };
  return useInfiniteQuery({
    queryKey: keys.cacheEntries(query),
    queryFn: ({ pageParam }) => api.cache.entries({ ...query, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last: CachePage) => last.meta.next_cursor ?? undefined,
  });
}

/** Invalidates one device's entry (or every one): the worker rebuilds it; the lists are read again. */
export function useInvalidateCache() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (eui: string): Promise<{ devices: number } | { devEUI: string; version: number }> =>
      eui === 'all' ? api.cache.invalidateAll() : api.cache.invalidate(eui),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: ['admin', 'cache'] });
      void client.invalidateQueries({ queryKey: keys.adminInfo });
    },
  });
}
