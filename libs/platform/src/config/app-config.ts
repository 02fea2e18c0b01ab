import type { OidcProviderSettings } from './oidc-providers';
import type { RedisClusterSettings } from './redis-cluster-nodes';
import type { Secret } from './secret';

/** The validated, frozen configuration both apps run with (docs/api.md §10). */
export interface AppConfig {
  readonly env: 'development' | 'production' | 'test';
  readonly port: number;
  readonly host: string;
  /** Base of links the service hands out (signed image links). */
  readonly publicBaseUrl: string;
  readonly database: {
    /** null: the embedded PostgreSQL (PGlite) under `dataDir`. */
    readonly url: string | null;
    readonly dataDir: string;
    readonly poolSize: number;
    readonly runMigrations: boolean;
  };
  /** The shared store: a single Redis (`url`), a Redis Cluster (`cluster`), or neither (the database). */
  readonly redis: {
    /** A single Redis; null with a cluster, or when sessions, rate limits and queues live in the database. */
    readonly url: string | null;
    /** A Redis Cluster's seed nodes; null unless REDIS_CLUSTER_NODES is set (never together with `url`). */
    readonly cluster: RedisClusterSettings | null;
    /** Prefix of every key and queue, so that several deployments (or test runs) share a Redis. */
    readonly prefix: string;
  };
  readonly secrets: {
    readonly ingest: Secret;
    /** 32 bytes, the AES-256-GCM key that encrypts API token values at rest. */
    readonly tokenEncryptionKey: Secret;
    /** HMAC key that signs session cookies. */
    readonly session: Secret;
  };
  readonly admin: { readonly username: string; readonly password: Secret; readonly email: string } | null;
  readonly demo: boolean;
  /** Whether calls are recorded in the audit log (docs/architecture.md, "The audit log"). */
  readonly audit: { readonly enabled: boolean };
  readonly session: { readonly cookieName: string; readonly ttlSeconds: number };
  readonly accounts: { readonly maxDevices: number; readonly expirationDays: number };
  /** OpenID Connect providers people may sign in with (docs/api.md §3, "Single sign-on"); none by default. */
  readonly oidcProviders: readonly OidcProviderSettings[];
  readonly rateLimit: { readonly perAccountPerMinute: number; readonly authPerMinute: number };
  /**
   * The mail transport (SMTP, else the log), and the hourly limits (docs/api.md §19, §3): alert mails
   * per recipient address and per account, the rest folded into one digest per recipient and hour;
   * verification mails per address.
   */
  readonly mail: {
    readonly smtpUrl: Secret | null;
    readonly from: string;
    readonly alertsPerRecipientPerHour: number;
    readonly alertsPerAccountPerHour: number;
    readonly verificationsPerAddressPerHour: number;
  };
  readonly log: { readonly level: string; readonly pretty: boolean };
  readonly worker: { readonly inProcess: boolean; readonly healthPort: number };
  /**
   * Express `trust proxy` setting: which hops' X-Forwarded-* headers to believe. `false` (the
   * default): none, the peer's address is the client's.
   */
  readonly trustProxy: string;
  /**
   * Vendor codecs run on a pool of worker threads, off the event loop, within CPU budgets: per
   * delivery (one ingest request, one re-decode batch) and per account per minute (per process).
   */
  readonly codecs: { readonly workers: number; readonly cpuMsPerDelivery: number; readonly cpuMsPerMinute: number };
  /**
   * Origins (scheme://host[:port]) besides the service's own whose cookie-authenticated unsafe
   * requests are accepted: a console served from another host.
   */
  readonly allowedOrigins: readonly string[];
  /** Failed logins (and checks) for one account per 15 minutes, from any address, before 429. */
  readonly loginFailuresPerAccount: number;
  /**
   * Long responses: live streams and exports open at once per account (429 past them), and how
   * long a response may sit without its client reading before it is ended.
   */
  readonly streams: { readonly livePerAccount: number; readonly exportsPerAccount: number; readonly stallTimeoutMs: number };
  /** Let network adapters call loopback, link-local and private addresses (a network on the LAN, tests). */
  readonly outboundAllowPrivate: boolean;
  /** How long a network's API has to answer one call (a downlink's hand-off, a queue removal) before it is retried. */
  readonly networkTimeoutMs: number;
  readonly images: {
    /** database (default: works behind a load balancer with no shared disk), directory, or s3. */
    readonly storage: 'database' | 'directory' | 's3';
    readonly dir: string;
    readonly s3: {
      readonly endpoint: string | null;
      readonly bucket: string;
      readonly region: string;
      readonly accessKeyId: string;
      readonly secretAccessKey: Secret;
    } | null;
    /** Lifetime of signed image links. */
    readonly linkTtlSeconds: number;
  };
  readonly shutdownTimeoutMs: number;
  /**
   * After SIGTERM, how long the api keeps accepting connections (answering them with
   * `Connection: close`, readiness already 503) before it stops listening: the time a load balancer
   * or Kubernetes needs to take the instance out of rotation.
   */
  readonly drainGraceMs: number;
  /**
   * Slow clients cut off by the api's own server (the first line of defence is the load balancer's):
   * all request headers within `headersTimeoutMs`, the whole request, body included, within
   * `requestTimeoutMs`. Responses are not bounded: a history export streams as long as it takes.
   */
  readonly http: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number };
  /**
   * Outbound integrations and alerts: how long a failing delivery is retried, after how long of
   * nothing but failures an integration is disabled, one attempt's timeout, how many deliveries
   * may wait per integration, how long routed events are kept, lanes in flight per worker and of
   * those at most how many one account's (never more than `concurrency`), how often the offline
   * check runs, and the broker ports allowed although they are well-known ports of other services
   * (REFUSED_BROKER_PORTS).
   */
  readonly integrations: {
    readonly retryWindowMs: number;
    readonly disableAfterMs: number;
    readonly timeoutMs: number;
    readonly outboxLimit: number;
    readonly eventRetentionMs: number;
    readonly concurrency: number;
    readonly accountConcurrency: number;
    readonly offlineCheckMs: number;
    readonly mqttAllowedPorts: readonly number[];
  };
  /** Bearer token GET /metrics requires; null: /metrics is public (keep it on an internal network). */
  readonly metricsToken: Secret | null;
  /** A device is online while its last uplink is at most this many seconds old (device lists, overview, console). */
  readonly deviceOnlineSeconds: number;
  /**
   * Telemetry that lasts for years: time partitions of the tables that only grow, the retention
   * of raw uplinks (the platform's default; accounts and devices may have their own), of the
   * rollups (which outlive them) and of images; where reads that may be a moment stale go
   * (a replica, else the primary) and how long such a statement may run.
   */
  readonly timeseries: {
    readonly partitionInterval: 'day' | 'week' | 'month';
    readonly partitionsAhead: number;
    readonly uplinkRetentionDays: number | null;
    readonly hourlyRollupRetentionDays: number | null;
    readonly dailyRollupRetentionDays: number | null;
    readonly imageRetentionDays: number | null;
    /** Days the audit log keeps a record at least (whole partitions leave after it). */
    readonly auditRetentionDays: number;
    readonly readDatabaseUrl: string | null;
    readonly readStatementTimeoutMs: number;
  };
  /**
   * The web console's map: Leaflet tile URL template (null: no tiles, the bundled base map), its
   * attribution and the deepest zoom its server has.
   */
  readonly map: { readonly tileUrl: string | null; readonly attribution: string; readonly maxZoom: number };
  /** The web console: whether its source maps are served (`CONSOLE_SOURCE_MAPS`; off in production unless set). */
  readonly console: { readonly sourceMaps: boolean };
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Whether a Redis (single or cluster) holds sessions, rate limits, the cache and the queues. */
export function usesRedis(config: Pick<AppConfig, 'redis'>): boolean {
  return config.redis.url !== null || config.redis.cluster !== null;
}
