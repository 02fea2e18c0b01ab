/**
 * What the web console needs beyond the spec's routes (docs/api.md §4, §5): a device list a UI can
 * page, sort and filter, aggregated series for charts, an account overview, and the console's own
 * settings. Public API like every other route.
 */

/** Columns GET /user/device/meta/all sorts by; `-name` sorts descending. Ties break by EUI. */
export const DEVICE_SORT_KEYS = ['label', 'eui', 'type', 'folder', 'last_seen', 'battery', 'signal', 'firmware'] as const;
export type DeviceSortKey = (typeof DEVICE_SORT_KEYS)[number];
export type DeviceSort = DeviceSortKey | `-${DeviceSortKey}`;

/** Query of GET /user/device/meta/all; without any member it answers every device as before. */
export interface DeviceListQuery {
  /** 1–1,000 devices per page. */
  limit?: number;
  /** `meta.next_cursor` of the previous page. */
  cursor?: string;
  /** EUI, label or folder contains this (case-insensitive). */
  q?: string;
  folder?: string;
  type_ref?: number;
  sort?: DeviceSort;
  /** Seen within the online threshold (true) or not (false). */
  online?: boolean;
}

/** `meta` of a paged or filtered device list. */
export interface DeviceListMetaWire {
  /** Devices matching the filters, over all pages. */
  total: number;
  /** Pass as `cursor` for the next page; null on the last. */
  next_cursor: string | null;
  /** Seconds since the last uplink under which a device counts as online. */
  online_threshold_s: number;
}

export const SERIES_INTERVALS = ['1m', '5m', '15m', '1h', '6h', '1d', '7d'] as const;
export type SeriesInterval = (typeof SERIES_INTERVALS)[number];
export const SERIES_INTERVAL_SECONDS: Readonly<Record<SeriesInterval, number>> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3_600,
  '6h': 21_600,
  '1d': 86_400,
  '7d': 604_800,
};
export const SERIES_AGGREGATES = ['min', 'avg', 'max', 'count'] as const;
export type SeriesAggregate = (typeof SERIES_AGGREGATES)[number];
/** A series answers at most this many buckets; a finer interval over the range is 400. */
export const SERIES_MAX_BUCKETS = 2_000;
/** `interval=auto` picks the finest interval that gives at most this many buckets. */
export const SERIES_AUTO_BUCKETS = 1_000;

/** The finest interval of the ladder with at most `target` buckets over the span (the coarsest if none). */
export function autoSeriesInterval(spanSeconds: number, target = SERIES_AUTO_BUCKETS): SeriesInterval {
  return SERIES_INTERVALS.find((i) => Math.ceil((spanSeconds + 1) / SERIES_INTERVAL_SECONDS[i]) <= target) ?? '7d';
}

export interface SeriesQuery {
  /** Data type aliases, as in `filter`. */
  members: readonly string[];
  from?: number;
  to?: number;
  interval?: SeriesInterval | 'auto';
  agg?: readonly SeriesAggregate[];
}

/**
 * GET /user/device/series/{eui}: buckets that hold at least one uplink, oldest first, as columns
 * (one array per member and aggregate, aligned with `t`); a value is null where the bucket's
 * uplinks did not carry that member.
 */
export interface SeriesWire {
  from: number;
  to: number;
  interval: SeriesInterval;
  interval_s: number;
  /** Start of each bucket, unix seconds (buckets are aligned to the unix epoch, UTC). */
  t: number[];
  members: Record<string, Partial<Record<SeriesAggregate, (number | null)[]>>>;
  /**
   * Where the answer came from when a rollup lags: after an upgrade, while the uplinks stored
   * before the rollups existed are being rolled up, the time (unix seconds) before which the
   * buckets were computed from the uplinks themselves; null when the rollups are complete.
   */
  rollup_backfill_until_unix: number | null;
}

/** GET /user/overview: the account's figures in one query. */
export interface AccountOverviewWire {
  /** `silent`: heard from before, but not in the last 24 hours (a part of `offline`). */
  devices: { total: number; online: number; offline: number; never_seen: number; silent: number };
  uplinks_24h: number;
  images: number;
  /** Commands not yet final: Created, Scheduled or Sent. */
  commands_pending: number;
  /** Alerts of the account's rules not cleared yet. */
  alerts_active: number;
  /** The account's integrations: `failing` enabled with every attempt failing since a time, `disabled` by the account or the service. */
  integrations: { total: number; failing: number; disabled: number };
  online_threshold_s: number;
}

/** GET /user/activity: one happening of the account, newest first. */
export interface ActivityEntryWire {
  /** `seen`: the device was last heard from then; `command`: a command created or moved; `alert`: an alert raised or cleared. */
  kind: 'seen' | 'command' | 'alert';
  at_unix: number;
  devEUI: string;
  label: string | null;
  /** The command's or alert's uid (null for `seen`). */
  uid: number | null;
  /** A command's status, an alert's `active` or `cleared` (null for `seen`). */
  state: string | null;
  /** A command's name (else its port), an alert's message (null for `seen`). */
  text: string | null;
}

/** GET /ui/config: settings of the web console, from the service's configuration. */
export interface ConsoleConfigWire {
  map: {
    /**
     * Leaflet tile URL template (`{z}/{x}/{y}`); null: no tiles, devices and tracks on the console's
     * bundled low-resolution base map (which it also draws when tiles fail to load).
     */
    tile_url: string | null;
    attribution: string;
    /** The tile server's deepest zoom. */
    max_zoom: number;
  };
  online_threshold_s: number;
  version: string;
}

/** Whether a device counts as online: an uplink within the threshold. */
export function isOnline(lastSeenUnix: number | null, thresholdS: number, nowUnix: number): boolean {
  return lastSeenUnix !== null && nowUnix - lastSeenUnix <= thresholdS;
}
