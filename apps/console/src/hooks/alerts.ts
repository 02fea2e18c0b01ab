import type { AlertQuery, AlertWire } from '@dts/domain';
import { type InfiniteData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';
import { applyAlert } from '../api/alert-cache';
import type { AlertPage } from '../lib/alert-merge';

/** Alerts per page of a list (the service's default). */
export const ALERT_PAGE = 100;
/** The most the active alerts are read in one call (the service's largest `limit`): the header counts these. */
export const ACTIVE_ALERTS_LIMIT = 1_000;

export type AlertListQuery = Omit<AlertQuery, 'before'>;

/** A list's loaded alerts, newest first, and whether older ones wait on further pages. */
export interface AlertList {
  alerts: AlertWire[];
  more: boolean;
}

function flatten(data: InfiniteData<AlertPage>): AlertList {
  return { alerts: data.pages.flatMap((p) => p.rows), more: data.pages.at(-1)?.next !== undefined };
}

/**
 * GET /user/alert with its filters, newest first, in pages (each before the last uid of the one
 * before). Kept live: alerts raised, cleared and acknowledged are merged into every loaded list by
 * the live feed (api/live.ts), so it is read once and never goes stale by itself.
 */
export function useAlerts(query: AlertListQuery = {}) {
  const limit = query.limit ?? ALERT_PAGE;
  return useInfiniteQuery({
    queryKey: keys.alertList(query),
    queryFn: async ({ pageParam }): Promise<AlertPage> => {
      const rows = await api.alerts.list({ ...query, limit, ...(pageParam === undefined ? {} : { before: pageParam }) });
      return { rows, next: rows.length < limit ? undefined : rows.at(-1)?.uid };
    },
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: AlertPage) => last.next,
    select: flatten,
    staleTime: Infinity,
  });
}

/**
 * The alerts active now (of one device, or of every device the account's rules watch), live. The
 * count is exact up to 1,000; `more` says there are more than that.
 */
export function useActiveAlerts(eui?: string) {
  return useAlerts({ state: 'active', limit: ACTIVE_ALERTS_LIMIT, ...(eui === undefined ? {} : { eui }) });
}

export function useAlert(uid: number | null) {
  return useQuery({ queryKey: keys.alert(uid ?? 0), queryFn: () => api.alerts.get(uid!), enabled: uid !== null });
}

export function useAcknowledgeAlert() {
  const client = useQueryClient();
  return useMutation({ mutationFn: (uid: number) => api.alerts.acknowledge(uid), onSuccess: (alert) => applyAlert(client, alert) });
}
