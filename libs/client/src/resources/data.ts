import type {
  CodecTryWire,
  CodecWire,
  CreateCodecRequest,
  ImportCodecRequest,
  TryCodecRequest,
  UpdateCodecRequest,
  CreateNetworkRequest,
  DataRowWire,
  FilteredDataMetaWire,
  FilteredDataRowWire,
  HistoryRetention,
  HistoryQuery,
  ImageDetailWire,
  ImageUploadForm,
  IngestResultWire,
  NetworkConfigWire,
  RestUplinkRequest,
  SimulateUplinkRequest,
  SeriesQuery,
  SeriesWire,
  TableQuery,
  UplinkRecordWire,
  UplinkTestWire,
} from '@dts/domain';
import { readHistoryRetention } from '@dts/domain';
import { INGEST_ROUTES, ROUTES } from '../routes';
import type { Transport } from '../transport';
import { liveEvents, type LiveEvent } from './live';
import { type Bytes, imageForm, query } from './request-helpers';

/** What a delivery's route may take besides its body: its query (ChirpStack's `event`), the network's uid (a route by uid). */
export interface DeliveryOptions {
  query?: Record<string, string>;
  uid?: number;
}

export const ingestApi = (t: Transport) => {
  /** A delivery to the ingest route of the network of this kind (its registry entry's route). */
  const deliver = (kind: string, body: unknown, options: DeliveryOptions = {}) => {
    const route = INGEST_ROUTES[kind];
    if (!route) throw new Error(`no network of kind "${kind}" takes deliveries`);
    const params = options.uid === undefined ? {} : { uid: options.uid };
    return t.data<IngestResultWire>(route, { params, query: options.query, body, credentials: 'ingest' });
  };
  return {
    deliver,
    /** The Things Stack v3 webhook message (uplink or downlink event). */
    ttn: (message: unknown) => deliver('ttn', message),
    /** A ChirpStack v4 HTTP integration event. */
    chirpstack: (message: unknown, event: 'up' | 'txack' | 'ack' = 'up') => deliver('chirpstack', message, { query: { event } }),
    /** Our own format: one uplink or up to 1,000. */
    rest: (items: RestUplinkRequest | readonly RestUplinkRequest[]) => deliver('rest', items),
    /** An HTTP JSON network (the global uid 5, or the account's own): the sender's JSON, read through the network's mapping. */
    http: (networkUid: number, body: unknown) => deliver('http-json', body, { uid: networkUid }),
    /** A camera-trap photo for the device `devEUI`. */
    image: (bytes: Bytes, form: ImageUploadForm & { devEUI: string }) =>
      t.data<ImageDetailWire>(ROUTES.ingestImage, { form: imageForm(bytes, { ...form }), credentials: 'ingest' }),
  };
};

export const uplinksApi = (t: Transport) => ({
  /** One record per uplink, oldest first unless `order: 'desc'`; `issues` keeps the uplinks whose decoding reported errors, warnings, either or neither. */
  table: (eui: string, q?: TableQuery) => t.data<UplinkRecordWire[]>(ROUTES.uplinksTable, { params: { eui }, query: query(q) }),
  /**
   * The table's rows with what the answer's headers say of the device's retention: the days in
   * force and where its raw history now begins (`retention` is null from a service that does not say).
   */
  tableWithRetention: async (eui: string, q?: TableQuery): Promise<{ rows: UplinkRecordWire[]; retention: HistoryRetention | null }> => {
    const res = await t.request<UplinkRecordWire[]>(ROUTES.uplinksTable, { params: { eui }, query: query(q) });
    return { rows: res.data, retention: readHistoryRetention((name) => res.headers.get(name)) };
  },
  /** Measurement rows (overview form). */
  data: (eui: string, q?: HistoryQuery) => t.data<DataRowWire[]>(ROUTES.uplinksData, { params: { eui }, query: query(q) }),
  /** Measurement rows with the device's retention, as tableWithRetention. */
  dataWithRetention: async (eui: string, q?: HistoryQuery): Promise<{ rows: DataRowWire[]; retention: HistoryRetention | null }> => {
    const res = await t.request<DataRowWire[]>(ROUTES.uplinksData, { params: { eui }, query: query(q) });
    return { rows: res.data, retention: readHistoryRetention((name) => res.headers.get(name)) };
  },
  /** Rows of the chosen members (data type aliases), with `meta` {data_types, cache_file_version}. */
  dataFiltered: async (eui: string, filter: readonly string[], q?: HistoryQuery) => {
    const res = await t.request<FilteredDataRowWire[], FilteredDataMetaWire>(ROUTES.uplinksData, { params: { eui }, query: { ...query(q), filter } });
    return { rows: res.data, meta: res.meta };
  },
  /**
   * The history as CSV (RFC 4180, header line) or NDJSON (one row object per line), unwrapped:
   * the text as the service streams it. `filter` applies to `data` only.
   */
  export: async (what: 'table' | 'data', eui: string, format: 'csv' | 'ndjson', q?: TableQuery & { filter?: readonly string[] }) => {
    const res = await t.raw(what === 'table' ? ROUTES.uplinksTable : ROUTES.uplinksData, { params: { eui }, query: { ...query(q), format } });
    return res.text();
  },
  /**
   * New uplinks and command status changes of the device as they happen (Server-Sent Events).
   * With `lastEventId` (an uplink uid) the uplinks after it come first. Runs until the loop is left
   * or `signal` aborts; failures before the stream starts are ApiErrors.
   */
  live: (eui: string, options: { lastEventId?: string | number; signal?: AbortSignal } = {}): AsyncIterable<LiveEvent> =>
    liveEvents(t, ROUTES.uplinksLive, { eui }, options),
  /** Members aggregated into time buckets (min, avg, max, count), as columns aligned with `t`. */
  series: (eui: string, q: SeriesQuery) => t.data<SeriesWire>(ROUTES.uplinksSeries, { params: { eui }, query: query(q) }),
  /** The newest stored uplink decoded again with the current decoder; nothing is stored. */
  test: (eui: string) => t.data<UplinkTestWire>(ROUTES.uplinksTest, { params: { eui } }),
  /**
   * A simulated uplink of the device, with the caller's own credentials: stored and decoded as a
   * POST /ingest/rest delivery, recorded under the simulated network (uid 1).
   */
  simulate: (eui: string, body: SimulateUplinkRequest) => t.data<IngestResultWire>(ROUTES.uplinksSimulate, { params: { eui }, body }),
});

export const codecsApi = (t: Transport) => ({
  list: () => t.data<CodecWire[]>(ROUTES.codecsList),
  create: (body: CreateCodecRequest) => t.data<CodecWire>(ROUTES.codecsCreate, { body }),
  get: (uid: number) => t.data<CodecWire>(ROUTES.codecsGet, { params: { uid } }),
  /** A new script runs the codec's examples again and re-decodes its devices' history. */
  update: (uid: number, body: UpdateCodecRequest) => t.data<CodecWire>(ROUTES.codecsUpdate, { params: { uid }, body }),
  /** A codec in The Things Network device repository's layout: its codec YAML and the scripts it names. */
  import: (body: ImportCodecRequest) => t.data<CodecWire>(ROUTES.codecsImport, { body }),
  /** A draft script on given bytes and/or a codec's examples; nothing is stored. */
  try: (body: TryCodecRequest) => t.data<CodecTryWire>(ROUTES.codecsTry, { body }),
  remove: (uid: number) => t.data<{ uid: number; deleted: true }>(ROUTES.codecsRemove, { params: { uid } }),
});

export const networksApi = (t: Transport) => ({
  list: () => t.data<NetworkConfigWire[]>(ROUTES.networksList),
  create: (body: CreateNetworkRequest) => t.data<NetworkConfigWire>(ROUTES.networksCreate, { body }),
  remove: (uid: number) => t.data<{ uid: number; deleted: true }>(ROUTES.networksRemove, { params: { uid } }),
});
