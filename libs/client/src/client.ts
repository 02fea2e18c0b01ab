import type {
  AccountWire,
  AdminInfoWire,
  AnnotationRequest,
  ApiTokenWire,
  AuthStateWire,
  AvailableCommandWire,
  CacheEntryWire,
  CacheInvalidatedAllWire,
  CacheInvalidatedWire,
  CacheTotalsWire,
  CodecWire,
  CommandWire,
  CreateCodecRequest,
  CreateCommandRequest,
  CreateFenceRequest,
  CreateNetworkRequest,
  CreateTokenRequest,
  CredentialCheckWire,
  DataRowWire,
  DataTypeWire,
  DatamodelWire,
  DecoderDetailWire,
  DecoderWire,
  DeviceMetaUpdateRequest,
  DeviceMetaWire,
  DeviceRegisterRequest,
  DeviceRelationWire,
  DeviceRemovedWire,
  DeviceShareWire,
  DeviceTypeWire,
  DeviceUnsharedWire,
  EchoWire,
  FeedbackCreatedWire,
  FeedbackRequest,
  FenceWire,
  FilteredDataMetaWire,
  FilteredDataRowWire,
  GatewayWire,
  HistoryQuery,
  IconWire,
  ImageDetailWire,
  ImageListEntryWire,
  ImageUploadForm,
  IngestResultWire,
  LoginRequest,
  NetworkByTypeEntryWire,
  NetworkConfigWire,
  NetworkDetailWire,
  NetworkTypeWire,
  NetworkWire,
  PasswordChangeRequest,
  RegisterRequest,
  RegisterResultWire,
  RestUplinkRequest,
  RestoreRequest,
  RouteWire,
  SessionActiveWire,
  SessionAttributesWire,
  SessionCookieWire,
  UplinkRecordWire,
  UplinkTestWire,
  VersionWire,
} from '@dts/domain';
import { type ClientRoute, ROUTES } from './routes';
import { readSse } from './sse';
import { type ApiResponse, type DeviceTelemetryClientOptions, type QueryValue, type RequestOptions, Transport } from './transport';

/** What the image upload accepts as the file's bytes. */
export type Bytes = Uint8Array | ArrayBuffer | Blob;

/** Terminus' health report (`/health/live`, `/health/ready`): status plus one entry per check. */
export interface HealthWire {
  status: string;
  info?: Record<string, { status: string; [key: string]: unknown }>;
  error?: Record<string, { status: string; [key: string]: unknown }>;
  details: Record<string, { status: string; [key: string]: unknown }>;
}

/** An event of GET /user/device/live/{eui}: a new uplink (with its uid as `id`) or a command's new status. */
export type LiveEvent = { event: 'uplink'; id: string; data: UplinkRecordWire } | { event: 'command'; data: CommandWire };

export interface ImageFile {
  bytes: Uint8Array;
  contentType: string | null;
  etag: string | null;
}

function toBlob(bytes: Bytes, type?: string): Blob {
  if (bytes instanceof Blob) return bytes;
  // Copied into a fresh ArrayBuffer: a view on a shared or larger buffer must not send its neighbours.
  const copy = bytes instanceof Uint8Array ? new Uint8Array(bytes) : new Uint8Array(bytes.slice(0));
  return new Blob([copy], type ? { type } : {});
}

function imageForm(bytes: Bytes, fields: Record<string, string | number | undefined>): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, String(v));
  form.append('file', toBlob(bytes), typeof fields.filename === 'string' ? fields.filename : 'image');
  return form;
}

const query = (q: object | undefined): Record<string, QueryValue> => ({ ...(q as Record<string, QueryValue>) });

/**
 * A typed client of the Device Telemetry Service. Every method returns the envelope's `data`
 * (typed with the wire types of @dts/domain) or throws an {@link ApiError} carrying the status and
 * the envelope's errors. `client.request(ROUTES.x, …)` gives the whole envelope when meta or
 * messages matter.
 *
 * ```ts
 * const client = new DeviceTelemetryClient({ baseUrl: 'http://localhost:3000', token });
 * await client.devices.register('70B3D57ED0000001', { label: 'Trap 1' });
 * ```
 */
export class DeviceTelemetryClient {
  private readonly t: Transport;

  constructor(readonly options: DeviceTelemetryClientOptions) {
    this.t = new Transport(options);
  }

  /** The session cookie this client sends (after `auth.login()`, or as given). */
  get cookie(): string | undefined {
    return this.t.cookie;
  }

  /** The same service with other credentials (e.g. the token just created). */
  with(options: Partial<DeviceTelemetryClientOptions>): DeviceTelemetryClient {
    return new DeviceTelemetryClient({ ...this.options, cookie: this.t.cookie, ...options });
  }

  /** Any route of the table, with the whole successful envelope. */
  request<T, M = unknown, P extends string = string>(route: ClientRoute<P>, options?: RequestOptions<P>): Promise<ApiResponse<T, M>> {
    return this.t.request<T, M, P>(route, options);
  }

  readonly auth = {
    /** 201 `{id}`. */
    register: (body: RegisterRequest) => this.t.data<RegisterResultWire>(ROUTES.authRegister, { body, credentials: 'none' }),
    /** Deletes the caller's account and everything it owns (session or master token). */
    deleteAccount: (password: string) => this.t.data<{ id: number; deleted: true }>(ROUTES.authDeleteAccount, { body: { password } }),
    /** Starts a session; the client keeps its cookie and sends it from now on. */
    login: async (body: LoginRequest) => {
      this.t.clearCookies();
      return this.t.data<AuthStateWire>(ROUTES.authLogin, { body, credentials: 'none' });
    },
    logout: async () => {
      const state = await this.t.data<AuthStateWire>(ROUTES.authLogout);
      this.t.clearCookies();
      return state;
    },
    check: (body: LoginRequest) => this.t.data<CredentialCheckWire>(ROUTES.authCheck, { body, credentials: 'none' }),
    echo: (q?: Record<string, string>) => this.t.data<EchoWire>(ROUTES.authEcho, { query: q }),
    /** `{email}` mails a reset token; `{token, password}` sets the password. Resolves with the messages. */
    restore: async (body: RestoreRequest) => (await this.t.request<null>(ROUTES.authRestore, { body, credentials: 'none' })).messages,
    /** Session or master token; the account's other sessions end. Resolves with the messages. */
    changePassword: async (body: PasswordChangeRequest) => (await this.t.request<null>(ROUTES.authPasswordChange, { body })).messages,
  };

  readonly user = {
    me: () => this.t.data<AccountWire>(ROUTES.userMe),
    state: () => this.t.data<AuthStateWire>(ROUTES.userState),
  };

  readonly tokens = {
    list: () => this.t.data<ApiTokenWire[]>(ROUTES.tokensList),
    /** 201 with the new token's uid; its value is listed by `list()` (see `createAndGet`). */
    create: (body: CreateTokenRequest) => this.t.data<number>(ROUTES.tokensCreate, { body }),
    /** Creates a token and returns it as listed, value (`hash`) included. */
    createAndGet: async (body: CreateTokenRequest): Promise<ApiTokenWire> => {
      const uid = await this.tokens.create(body);
      const token = (await this.tokens.list()).find((t) => t.uid === uid);
      if (!token) throw new Error(`token ${uid} was created but is not listed`);
      return token;
    },
    /** Resolves with the deleted uid. */
    delete: (uid: number | string) => this.t.data<number>(ROUTES.tokensDelete, { body: { uid } }),
  };

  readonly sessions = {
    active: () => this.t.data<SessionActiveWire>(ROUTES.sessionActive),
    cookie: () => this.t.data<SessionCookieWire>(ROUTES.sessionCookie),
    attributes: () => this.t.data<SessionAttributesWire>(ROUTES.sessionAttributes),
  };

  readonly devices = {
    /** The EUIs of the caller's own and shared devices. */
    list: () => this.t.data<string[]>(ROUTES.devicesList),
    autocomplete: (q: string) => this.t.data<string[]>(ROUTES.devicesAutocomplete, { query: { q } }),
    /** 201 with the device's metadata. */
    register: (eui: string, body: DeviceRegisterRequest = {}) => this.t.data<DeviceMetaWire>(ROUTES.devicesRegister, { params: { eui }, body }),
    remove: (eui: string) => this.t.data<DeviceRemovedWire>(ROUTES.devicesRemove, { params: { eui } }),
    /** How the account `uid` relates to the device. */
    relation: (eui: string, uid: number) => this.t.data<DeviceRelationWire>(ROUTES.devicesRelation, { params: { eui, uid } }),
    share: (eui: string, username: string) => this.t.data<DeviceShareWire>(ROUTES.devicesShare, { params: { eui }, body: { username } }),
    unshare: (eui: string, uid: number) => this.t.data<DeviceUnsharedWire>(ROUTES.devicesUnshare, { params: { eui, uid } }),
    /** Data types that occur in the caller's devices' data. */
    dataTypes: () => this.t.data<DataTypeWire[]>(ROUTES.devicesDataTypes),
  };

  readonly meta = {
    all: () => this.t.data<DeviceMetaWire[]>(ROUTES.metaAll),
    /** The spec answers a list of one. */
    get: (eui: string) => this.t.data<DeviceMetaWire[]>(ROUTES.metaGet, { params: { eui } }),
    update: (eui: string, body: DeviceMetaUpdateRequest) => this.t.data<DeviceMetaWire[]>(ROUTES.metaUpdate, { params: { eui }, body }),
  };

  readonly datamodel = {
    all: () => this.t.data<DatamodelWire>(ROUTES.datamodelAll),
    networks: () => this.t.data<NetworkWire[]>(ROUTES.datamodelNetworks),
    network: (uid: number) => this.t.data<NetworkDetailWire>(ROUTES.datamodelNetwork, { params: { uid } }),
    networkTypes: () => this.t.data<NetworkTypeWire[]>(ROUTES.datamodelNetworkTypes),
    networksByType: (uid: number) => this.t.data<NetworkByTypeEntryWire[]>(ROUTES.datamodelNetworksByType, { params: { uid } }),
    decoders: () => this.t.data<DecoderWire[]>(ROUTES.datamodelDecoders),
    decoder: (id: number) => this.t.data<DecoderDetailWire>(ROUTES.datamodelDecoder, { params: { decoder_id: id } }),
    dataTypes: () => this.t.data<DataTypeWire[]>(ROUTES.datamodelDataTypes),
    /** The data type's label. */
    dataType: (id: number) => this.t.data<string>(ROUTES.datamodelDataType, { params: { type_id: id } }),
    icons: () => this.t.data<IconWire[]>(ROUTES.datamodelIcons),
    deviceTypes: () => this.t.data<DeviceTypeWire[]>(ROUTES.datamodelDeviceTypes),
  };

  readonly fences = {
    list: () => this.t.data<FenceWire[]>(ROUTES.fencesList),
    get: (uid: number) => this.t.data<FenceWire>(ROUTES.fencesGet, { params: { uid } }),
    create: (body: CreateFenceRequest) => this.t.data<FenceWire>(ROUTES.fencesCreate, { body }),
    remove: (uid: number) => this.t.data<{ uid: number; deleted: true }>(ROUTES.fencesRemove, { params: { uid } }),
  };

  readonly gateways = {
    /** Gateways that heard the caller's devices, on every network or on one. */
    list: (networkRef?: number) =>
      networkRef === undefined ? this.t.data<GatewayWire[]>(ROUTES.gatewaysList) : this.t.data<GatewayWire[]>(ROUTES.gatewaysByNetwork, { params: { network_ref: networkRef } }),
  };

  /** Ingestion: with `ingestSecret` the platform secret, else the account's token (its own devices only). */
  readonly ingest = {
    /** The Things Stack v3 webhook message (uplink or downlink event). */
    ttn: (message: unknown) => this.t.data<IngestResultWire>(ROUTES.ingestTtn, { body: message, credentials: 'ingest' }),
    /** A ChirpStack v4 HTTP integration event. */
    chirpstack: (message: unknown, event: 'up' | 'txack' | 'ack' = 'up') => this.t.data<IngestResultWire>(ROUTES.ingestChirpstack, { body: message, query: { event }, credentials: 'ingest' }),
    /** Our own format: one uplink or up to 1,000. */
    rest: (items: RestUplinkRequest | readonly RestUplinkRequest[]) => this.t.data<IngestResultWire>(ROUTES.ingestRest, { body: items, credentials: 'ingest' }),
    /** A camera-trap photo for the device `devEUI`. */
    image: (bytes: Bytes, form: ImageUploadForm & { devEUI: string }) =>
      this.t.data<ImageDetailWire>(ROUTES.ingestImage, { form: imageForm(bytes, { ...form }), credentials: 'ingest' }),
  };

  readonly uplinks = {
    /** One record per uplink, oldest first unless `order: 'desc'`. */
    table: (eui: string, q?: HistoryQuery) => this.t.data<UplinkRecordWire[]>(ROUTES.uplinksTable, { params: { eui }, query: query(q) }),
    /** Measurement rows (overview form). */
    data: (eui: string, q?: HistoryQuery) => this.t.data<DataRowWire[]>(ROUTES.uplinksData, { params: { eui }, query: query(q) }),
    /** Rows of the chosen members (data type aliases), with `meta` {data_types, cache_file_version}. */
    dataFiltered: async (eui: string, filter: readonly string[], q?: HistoryQuery) => {
      const res = await this.t.request<FilteredDataRowWire[], FilteredDataMetaWire>(ROUTES.uplinksData, { params: { eui }, query: { ...query(q), filter } });
      return { rows: res.data, meta: res.meta };
    },
    /**
     * The history as CSV (RFC 4180, header line) or NDJSON (one row object per line), unwrapped:
     * the text as the service streams it. `filter` applies to `data` only.
     */
    export: async (what: 'table' | 'data', eui: string, format: 'csv' | 'ndjson', q?: HistoryQuery & { filter?: readonly string[] }) => {
      const res = await this.t.raw(what === 'table' ? ROUTES.uplinksTable : ROUTES.uplinksData, { params: { eui }, query: { ...query(q), format } });
      return res.text();
    },
    /**
     * New uplinks and command status changes of the device as they happen (Server-Sent Events).
     * With `lastEventId` (an uplink uid) the uplinks after it come first. Runs until the loop is left
     * or `signal` aborts; failures before the stream starts are ApiErrors.
     */
    live: (eui: string, options: { lastEventId?: string | number; signal?: AbortSignal } = {}): AsyncIterable<LiveEvent> => {
      const t = this.t;
      return {
        async *[Symbol.asyncIterator]() {
          const headers: Record<string, string> = options.lastEventId === undefined ? {} : { 'Last-Event-ID': String(options.lastEventId) };
          const res = await t.raw(ROUTES.uplinksLive, { params: { eui }, headers, signal: options.signal }, 'text/event-stream');
          if (!res.body) return;
          for await (const message of readSse(res.body)) {
            if (message.event === 'uplink') yield { event: 'uplink', id: message.id ?? '', data: JSON.parse(message.data) as UplinkRecordWire };
            else if (message.event === 'command') yield { event: 'command', data: JSON.parse(message.data) as CommandWire };
          }
        },
      };
    },
    /** The newest stored uplink decoded again with the current decoder; nothing is stored. */
    test: (eui: string) => this.t.data<UplinkTestWire>(ROUTES.uplinksTest, { params: { eui } }),
  };

  readonly codecs = {
    list: () => this.t.data<CodecWire[]>(ROUTES.codecsList),
    create: (body: CreateCodecRequest) => this.t.data<CodecWire>(ROUTES.codecsCreate, { body }),
    remove: (uid: number) => this.t.data<{ uid: number; deleted: true }>(ROUTES.codecsRemove, { params: { uid } }),
  };

  readonly commands = {
    /** Newest first. */
    list: (eui: string) => this.t.data<CommandWire[]>(ROUTES.commandsList, { params: { eui } }),
    available: (eui: string) => this.t.data<AvailableCommandWire[]>(ROUTES.commandsAvailable, { params: { eui } }),
    /** 201 with the command, status `Created`. */
    create: (eui: string, body: CreateCommandRequest) => this.t.data<CommandWire>(ROUTES.commandsCreate, { params: { eui }, body }),
    cancel: (eui: string, uid: number) => this.t.data<{ uid: number; status: 'Cancelled' }>(ROUTES.commandsCancel, { params: { eui, uid } }),
  };

  readonly networks = {
    list: () => this.t.data<NetworkConfigWire[]>(ROUTES.networksList),
    create: (body: CreateNetworkRequest) => this.t.data<NetworkConfigWire>(ROUTES.networksCreate, { body }),
    remove: (uid: number) => this.t.data<{ uid: number; deleted: true }>(ROUTES.networksRemove, { params: { uid } }),
  };

  readonly images = {
    /** Newest photo first. */
    list: (eui: string) => this.t.data<ImageListEntryWire[]>(ROUTES.imagesList, { params: { eui } }),
    /** Uploads a JPEG or PNG (multipart `file`); the same bytes again answer the existing image. */
    upload: (eui: string, bytes: Bytes, form: ImageUploadForm = {}) =>
      this.t.data<ImageDetailWire>(ROUTES.imagesUpload, { params: { eui }, form: imageForm(bytes, { ...form }) }),
    get: (eui: string, hash: string) => this.t.data<ImageDetailWire>(ROUTES.imagesGet, { params: { eui, image_hash: hash } }),
    remove: (eui: string, hash: string) => this.t.data<{ hash: string; deleted: true }>(ROUTES.imagesRemove, { params: { eui, image_hash: hash } }),
    /** Our list form, or MegaDetector batch output / SpeciesNet predictions as they come. */
    annotate: (eui: string, hash: string, annotations: readonly AnnotationRequest[] | Record<string, unknown>) =>
      this.t.data<ImageDetailWire>(ROUTES.imagesAnnotate, { params: { eui, image_hash: hash }, body: annotations }),
    /**
     * The file behind a signed link (an image detail's `meta.url`), fetched from this client's base
     * URL with no credentials: the signature is the credential.
     */
    file: async (signedUrl: string): Promise<ImageFile> => {
      const link = new URL(signedUrl, 'http://link.invalid');
      const hash = decodeURIComponent(link.pathname.split('/').pop() ?? '');
      const q: Record<string, string> = Object.fromEntries(link.searchParams);
      const res = await this.t.raw(ROUTES.imagesFile, { params: { image_hash: hash }, query: q, credentials: 'none' });
      return { bytes: new Uint8Array(await res.arrayBuffer()), contentType: res.headers.get('content-type'), etag: res.headers.get('etag') };
    },
  };

  /** Admin accounts only. */
  readonly cache = {
    status: () => this.t.data<CacheTotalsWire>(ROUTES.cacheStatus),
    entry: (eui: string) => this.t.data<CacheEntryWire>(ROUTES.cacheEntry, { params: { eui } }),
    invalidate: (eui: string) => this.t.data<CacheInvalidatedWire>(ROUTES.cacheInvalidate, { params: { eui } }),
    invalidateAll: () => this.t.data<CacheInvalidatedAllWire>(ROUTES.cacheInvalidateAll),
  };

  readonly system = {
    version: () => this.t.data<VersionWire>(ROUTES.systemVersion, { credentials: 'none' }),
    /** Every route the running build serves, with the credentials it needs. */
    routes: () => this.t.data<RouteWire[]>(ROUTES.systemRoutes, { credentials: 'none' }),
    feedback: (body: FeedbackRequest) => this.t.data<FeedbackCreatedWire>(ROUTES.systemFeedback, { body }),
    live: () => this.t.data<HealthWire>(ROUTES.healthLive, { credentials: 'none' }),
    ready: () => this.t.data<HealthWire>(ROUTES.healthReady, { credentials: 'none' }),
    /** Prometheus text format; needs a client whose `token` is the METRICS_TOKEN when one is configured. */
    metrics: async () => (await this.t.raw(ROUTES.metrics, {}, 'text/plain')).text(),
  };

  /** Admin accounts only. */
  readonly admin = {
    info: () => this.t.data<AdminInfoWire>(ROUTES.adminInfo),
  };
}

