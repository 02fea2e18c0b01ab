import type { AlertWire } from '@dts/domain';
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { type AlertPage, mergeAlert } from '../lib/alert-merge';
import { keys } from './keys';
import { writeThrough } from './write-through';

/** The filters of a list's query, read back from its key (keys.alertList). */
type ListFilter = Parameters<typeof mergeAlert>[2];

/**
 * An alert as it now is (from the live feed or an acknowledgement), into every loaded list — each
 * by its own filter — and into its own query.
 */
export function applyAlert(client: QueryClient, alert: AlertWire): void {
  writeThrough(client, { queryKey: keys.alertLists }, (query) =>
    client.setQueryData<InfiniteData<AlertPage>>(query.queryKey, (data) => {
      if (!data) return data;
      const q = (query.queryKey[2] ?? {}) as ListFilter;
      const pages = data.pages.map((p) => p.rows);
      const merged = mergeAlert(pages, alert, q, data.pages.at(-1)?.next !== undefined);
      return merged === pages ? data : { ...data, pages: data.pages.map((p, i) => ({ ...p, rows: merged[i] ?? [] })) };
    }),
  );
  client.setQueryData<AlertWire>(keys.alert(alert.uid), (old) => (old ? alert : old));
}
