import type { AlertWire, CommandWire, DeviceMetaWire, ImageGalleryEntryWire, ImageLiveEventWire, UplinkRecordWire } from '@dts/domain';
import { type InfiniteData, type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type GalleryFilter, mergeImageEvent } from '../lib/gallery';
import { mergeUplinks, positionOf } from '../lib/live-merge';
import { applyAlert } from './alert-cache';
import { mergeCommandInLists } from './command-cache';
import { keys } from './keys';
import { organisationQuery, useActingOrganisation } from './acting';
import { writeThrough } from './write-through';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'closed';

/** Refetches that live events cause are spread out: at most one per key in this time. */
const REFRESH_MS = 1_500;

type DevicePage = { devices: DeviceMetaWire[] };
type GalleryPage = { images: ImageGalleryEntryWire[]; meta: { next_cursor: string | null } };

/** The filter a gallery query was made with, read back from its key (keys.gallery). */
function filterOfKey(key: readonly unknown[]): GalleryFilter {
  const q = (key[2] ?? {}) as { eui?: string; label?: string; species?: string; min_score?: number; from?: number; to?: number };
  const day = (unix: number | undefined) => (unix === undefined ? '' : new Date(unix * 1000).toISOString().slice(0, 10));
  return { eui: q.eui ?? '', label: q.label ?? '', species: q.species ?? '', minScore: q.min_score ?? null, from: day(q.from), to: day(q.to) };
}

function throttled(client: QueryClient) {
  const pending = new Map<string, ReturnType<typeof setTimeout>>();
  return (queryKey: readonly unknown[]) => {
    const id = JSON.stringify(queryKey);
    if (pending.has(id)) return;
    pending.set(
      id,
      setTimeout(() => {
        pending.delete(id);
        void client.invalidateQueries({ queryKey });
      }, REFRESH_MS),
    );
  };
}

/** What an uplink tells about its device, written into every cached copy of the device's metadata. */
function touchDevice(meta: DeviceMetaWire, row: UplinkRecordWire): DeviceMetaWire {
  const seen = row.uplink.time_stamp_unix;
  if (meta.ts_activity_last_unix !== null && meta.ts_activity_last_unix > seen) return meta;
  const position = row.LAT !== null && row.LON !== null ? { lat: row.LAT, lon: row.LON } : {};
  return { ...meta, ts_activity_last_unix: seen, ...position, ...(row.battery_percent !== null ? { battery_percent: row.battery_percent } : {}) };
}

/**
 * Command, alert and image events are not replayed after a reconnect (uplinks are, from
 * Last-Event-ID): what a gap may have hidden is read again.
 */
export function afterGap(client: QueryClient): void {
  void client.invalidateQueries({ queryKey: keys.alerts });
  void client.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'device' && q.queryKey[2] === 'commands' && q.queryKey[3] === 'list' });
  void client.invalidateQueries({ queryKey: keys.galleries });
}

/** An image stored, processed, annotated or deleted, into every loaded gallery and the image's own page. */
export function applyImageEvent(client: QueryClient, image: ImageLiveEventWire): void {
  // Each loaded gallery takes the photo as its own filter says (a thumbnail appears as soon as the worker made it).
  writeThrough(client, { queryKey: keys.galleries }, (query) =>
    client.setQueryData<InfiniteData<GalleryPage>>(query.queryKey, (data) => {
      if (!data) return data;
      const pages = data.pages.map((p) => p.images);
      const more = data.pages.at(-1)?.meta.next_cursor != null;
      const merged = mergeImageEvent(pages, image, filterOfKey(query.queryKey), more);
      return merged === pages ? data : { ...data, pages: data.pages.map((p, i) => ({ ...p, images: merged[i] ?? [] })) };
    }),
  );
  void client.invalidateQueries({ queryKey: keys.image(image.devEUI, image.hash) });
}

/**
 * One connection for the whole console: GET /user/live (EventSource reconnects by itself and sends
 * Last-Event-ID). Events go straight into the query caches, so every page shows them without a
 * reload and without a connection of its own.
 */
export function useLiveFeed(enabled: boolean): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  // Another organisation is another feed (EventSource sends no headers: it is named in the query).
  const organisation = useActingOrganisation();
  useEffect(() => {
    if (!enabled) return;
    const refresh = throttled(client);
    const source = new EventSource(`/user/live${organisationQuery('?')}`);
    let dropped = false;
    source.onopen = () => {
      setState('live');
      if (dropped) afterGap(client);
      dropped = false;
    };
    source.onerror = () => {
      dropped = true;
      if (source.readyState === EventSource.CLOSED) {
        setState('closed');
        // Closed for good (the session ended, or the service refused): ask who we are.
        void client.invalidateQueries({ queryKey: keys.me });
      } else setState('reconnecting');
    };
    source.addEventListener('uplink', (event) => {
      const row = JSON.parse((event as MessageEvent<string>).data) as UplinkRecordWire;
      const eui = row.uplink.devEUI;
      client.setQueryData<UplinkRecordWire[]>(keys.liveRows(eui), (list) => mergeUplinks(list, [row]));
      const at = positionOf(row);
      if (at)
        client.setQueriesData<[number, number, number][]>({ queryKey: keys.track(eui) }, (track) =>
          track ? [...track, [row.uplink.time_stamp_unix, at[0], at[1]]] : track,
        );
      client.setQueryData<DeviceMetaWire[]>(keys.device(eui), (meta) => meta?.map((m) => touchDevice(m, row)));
      client.setQueryData<DeviceMetaWire[]>(keys.allDevices, (all) => all?.map((m) => (m.devEUI === eui ? touchDevice(m, row) : m)));
      client.setQueriesData<InfiniteData<DevicePage>>({ queryKey: keys.deviceLists }, (data) =>
        data ? { ...data, pages: data.pages.map((p) => ({ ...p, devices: p.devices.map((m) => (m.devEUI === eui ? touchDevice(m, row) : m)) })) } : data,
      );
      refresh(keys.series(eui));
      refresh(keys.uplinks(eui));
      refresh(keys.overview);
    });
    source.addEventListener('command', (event) => {
      const command = JSON.parse((event as MessageEvent<string>).data) as CommandWire;
      mergeCommandInLists(client, command);
      refresh(keys.overview);
    });
    source.addEventListener('alert', (event) => {
      // Raised or cleared: into every loaded alert list (the header's count, the alerts page, the device's banner).
      applyAlert(client, JSON.parse((event as MessageEvent<string>).data) as AlertWire);
      refresh(keys.overview);
    });
    source.addEventListener('image', (event) => {
      applyImageEvent(client, JSON.parse((event as MessageEvent<string>).data) as ImageLiveEventWire);
      refresh(keys.overview);
    });
    return () => {
      source.close();
      setState('closed');
    };
  }, [client, enabled, organisation]);
  return state;
}
