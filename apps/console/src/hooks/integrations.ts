import type { CreateIntegrationRequest, DeliveriesQuery, DeliveryWire, UpdateIntegrationRequest } from '@dts/domain';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** Deliveries per page of the delivery log. */
export const DELIVERY_PAGE = 50;
/**
 * How often an open delivery log is read again. It is where a person watches a receiver being
 * fixed: attempts, failures and redeliveries show within this, not at the next 15 s of the list.
 * One indexed page per open log (and none in a hidden tab: react-query pauses intervals there).
 */
export const DELIVERY_LOG_REFRESH_MS = 3_000;

/** The account's integrations (docs/api.md §18), with their health as the service keeps it. */
export function useIntegrations() {
  // Health and the pending count move with deliveries the worker makes: read again now and then while shown.
  return useQuery({ queryKey: keys.integrations, queryFn: () => api.integrations.list(), refetchInterval: 15_000 });
}

function useIntegrationsChanged() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: keys.integrations });
}

export function useCreateIntegration() {
  const changed = useIntegrationsChanged();
  return useMutation({ mutationFn: (body: CreateIntegrationRequest) => api.integrations.create(body), onSuccess: changed });
}

export function useUpdateIntegration() {
  const changed = useIntegrationsChanged();
  return useMutation({
    mutationFn: ({ uid, body }: { uid: number; body: UpdateIntegrationRequest }) => api.integrations.update(uid, body),
    onSuccess: changed,
  });
}

export function useDeleteIntegration() {
  const changed = useIntegrationsChanged();
  return useMutation({ mutationFn: (uid: number) => api.integrations.remove(uid), onSuccess: changed });
}

/** One signed test event, now; the answer is the outcome (nothing is stored, so nothing else changes). */
export function useTestIntegration() {
  return useMutation({ mutationFn: (uid: number) => api.integrations.test(uid) });
}

type DeliveryPage = { rows: DeliveryWire[]; next: number | undefined };

/** An integration's delivery log, newest first, in pages (each before the last id of the one before). */
export function useDeliveries(uid: number, query: Omit<DeliveriesQuery, 'before' | 'limit'>) {
  const client = useQueryClient();
  const deliveries = useInfiniteQuery({
    queryKey: keys.deliveries(uid, query),
    queryFn: async ({ pageParam }): Promise<DeliveryPage> => {
      const rows = await api.integrations.deliveries(uid, { ...query, limit: DELIVERY_PAGE, ...(pageParam === undefined ? {} : { before: pageParam }) });
      return { rows, next: rows.length < DELIVERY_PAGE ? undefined : rows.at(-1)?.id };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: DeliveryPage) => last.next,
    refetchInterval: DELIVERY_LOG_REFRESH_MS,
  });
  // A change in the log is a change in the integration's health and pending count: the list is
  // read again with it. (react-query keeps `data` the same object while nothing changed.)
  const { data } = deliveries;
  useEffect(() => {
    if (data) void client.invalidateQueries({ queryKey: keys.integrations, exact: true });
  }, [data, client]);
  return deliveries;
}

export function useRedeliver(uid: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.integrations.redeliver(uid, id),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.integration(uid) });
      void client.invalidateQueries({ queryKey: keys.integrations });
    },
  });
}
