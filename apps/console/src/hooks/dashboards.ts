import type { CreateDashboardRequest, DashboardPeriod, DashboardWire, UpdateDashboardRequest } from '@dts/domain';
import { DASHBOARD_PERIOD_SECONDS } from '@dts/domain';
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';
import { useNow } from './now';

/** The dashboards the person sees where the console acts: their own and those shared with their role. */
export function useDashboards() {
  return useQuery({ queryKey: keys.dashboards, queryFn: () => api.dashboards.list() });
}

export function useDashboard(uid: number) {
  return useQuery({ queryKey: keys.dashboard(uid), queryFn: () => api.dashboards.get(uid), enabled: Number.isInteger(uid) && uid > 0 });
}

function useDashboardsChanged() {
  const client = useQueryClient();
  return (saved?: DashboardWire) => {
    if (saved) client.setQueryData(keys.dashboard(saved.uid), saved);
    void client.invalidateQueries({ queryKey: keys.dashboards, exact: true });
  };
}

export function useCreateDashboard() {
  const changed = useDashboardsChanged();
  return useMutation({ mutationFn: (body: CreateDashboardRequest) => api.dashboards.create(body), onSuccess: changed });
}

export function useUpdateDashboard() {
  const changed = useDashboardsChanged();
  return useMutation({
    mutationFn: ({ uid, body }: { uid: number; body: UpdateDashboardRequest }) => api.dashboards.update(uid, body),
    onSuccess: changed,
  });
}

export function useDeleteDashboard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (uid: number) => api.dashboards.remove(uid),
    onSuccess: ({ uid }) => {
      client.removeQueries({ queryKey: keys.dashboard(uid) });
      void client.invalidateQueries({ queryKey: keys.dashboards, exact: true });
    },
  });
}

/**
 * The start of a widget's period, moving on with the clock each minute (one `from` per period, so
 * every widget of a period shares its queries, and the live feed's refreshes reach them all).
 */
export function usePeriodStart(period: DashboardPeriod): number {
  const now = useNow(60_000);
  return Math.floor(now / 60) * 60 - DASHBOARD_PERIOD_SECONDS[period];
}

/** The latest uplinks of several devices at once (the live view's cache: the live feed keeps it current). */
export function useLiveRowsOf(euis: readonly string[]) {
  return useQueries({
    queries: euis.map((eui) => ({
      queryKey: keys.liveRows(eui),
      queryFn: () => api.uplinks.table(eui, { order: 'desc', limit: 20 }),
      staleTime: Infinity,
    })),
  });
}
