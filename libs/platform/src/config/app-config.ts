import type { Secret } from './secret';

/** The validated, frozen configuration both apps run with (CONTRACT §10). */
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
  readonly redis: {
    /** null: sessions, rate limits and queues live in the database. */
    readonly url: string | null;
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
  readonly session: { readonly cookieName: string; readonly ttlSeconds: number };
  readonly accounts: { readonly maxDevices: number; readonly expirationDays: number };
  readonly rateLimit: { readonly perAccountPerMinute: number; readonly authPerMinute: number };
  readonly mail: { readonly smtpUrl: Secret | null; readonly from: string };
  readonly log: { readonly level: string; readonly pretty: boolean };
  readonly worker: { readonly inProcess: boolean; readonly healthPort: number };
  /** Express `trust proxy` setting: which hops' X-Forwarded-* headers to believe. */
  readonly trustProxy: string;
  /** Let network adapters call loopback, link-local and private addresses (a network on the LAN, tests). */
  readonly outboundAllowPrivate: boolean;
  readonly images: {
    /** database (default: works behind a load balancer with no shared disk), directory, or s3. */
    readonly storage: 'database' | 'directory' | 's3';
    readonly dir: string;
    readonly s3: { readonly endpoint: string | null; readonly bucket: string; readonly region: string; readonly accessKeyId: string; readonly secretAccessKey: Secret } | null;
    /** Lifetime of signed image links. */
    readonly linkTtlSeconds: number;
  };
  readonly shutdownTimeoutMs: number;
  /**
   * Slow clients cut off by the api's own server (the first line of defence is the load balancer's):
   * all request headers within `headersTimeoutMs`, the whole request, body included, within
   * `requestTimeoutMs`. Responses are not bounded: a history export streams as long as it takes.
   */
  readonly http: { readonly headersTimeoutMs: number; readonly requestTimeoutMs: number };
  /** Bearer token GET /metrics requires; null: /metrics is public (keep it on an internal network). */
  readonly metricsToken: Secret | null;
}

export const APP_CONFIG = Symbol('APP_CONFIG');
