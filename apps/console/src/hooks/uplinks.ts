import type { HistoryRetention, SeriesQuery, UplinkRecordWire } from '@dts/domain';
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../api/client';
import { keys } from '../api/keys';

/** Uplink rows per page of the uplink table. */
export const UPLINK_PAGE = 50;

/**
 * The uplink table, newest first, in pages: each page ends at the oldest time of the one before.
 * Rows of that second may come twice and are shown once (by uid). Each page carries what the
 * service says of the device's retention (where its raw history begins).
 */
export function useUplinkPages(eui: string) {
  return useInfiniteQuery({
    queryKey: keys.uplinks(eui),
    queryFn: ({ pageParam }) =>
      api.uplinks.tableWithRetention(eui, { order: 'desc', limit: UPLINK_PAGE, ...(pageParam === undefined ? {} : { to: pageParam }) }),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last: { rows: UplinkRecordWire[]; retention: HistoryRetention | null }, pages) => {
      const oldestRow = last.rows.at(-1);
      if (last.rows.length < UPLINK_PAGE || !oldestRow) return undefined;
      const oldest = oldestRow.uplink.time_stamp_unix;
      // A page that adds nothing new (a full page within one second) ends the paging.
      const before = new Set(pages.slice(0, -1).flatMap((p) => p.rows.map((r) => r.uplink.uid)));
      return last.rows.every((r) => before.has(r.uplink.uid)) ? undefined : oldest;
    },
  });
}

/** The newest uplinks as the live view starts with them; live events are merged into the same cache. */
export function useLiveRows(eui: string) {
  return useQuery({
    queryKey: keys.liveRows(eui),
    queryFn: () => api.uplinks.table(eui, { order: 'desc', limit: 20 }),
    staleTime: Infinity,
  });
}

export function useSeries(eui: string, query: SeriesQuery, enabled = true) {
  return useQuery({
    queryKey: keys.series(eui, query),
    queryFn: () => api.uplinks.series(eui, query),
    enabled: enabled && query.members.length > 0,
    placeholderData: keepPreviousData,
  });
}

/** The device's positions over the range, oldest first, as [unix, lat, lon] (live positions are appended). */
export function useTrack(eui: string, from: number) {
  return useQuery(trackQuery(eui, from));
}

/** useTrack's query, for reading several devices' tracks at once (useQueries): one cache entry per device and start. */
export function trackQuery(eui: string, from: number) {
  return {
    queryKey: keys.track(eui, from),
    queryFn: async () => {
      const { rows } = await api.uplinks.dataFiltered(eui, ['LAT', 'LON', 'geoloc_LAT', 'geoloc_LON'], { from, order: 'desc', limit: 2_000 });
      const points: [number, number, number][] = [];
      for (const r of rows) {
        const lat = (r.LAT ?? r.geoloc_LAT) as number | null;
        const lon = (r.LON ?? r.geoloc_LON) as number | null;
        if (lat !== null && lon !== null) points.push([r.ts_net_unix ?? r.ts_unix, lat, lon]);
      }
      return points.reverse();
    },
  };
}
