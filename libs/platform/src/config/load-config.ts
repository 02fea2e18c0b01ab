import { plainToInstance } from 'class-transformer';
import { validateSync, type ValidationError } from 'class-validator';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { AppConfig } from './app-config';
import { Environment, ENVIRONMENT_NAMES } from './environment';
import { integrationsConfig } from './environment-integrations';
import { timeseriesConfig, timeseriesProblems } from './environment-timeseries';
import { parseRedisClusterNodes, type RedisClusterSettings } from './redis-cluster-nodes';
import { type OidcProviderSettings, parseOidcProviders } from './oidc-providers';
import { Secret } from './secret';

/** Thrown with one line per bad setting; the process prints the lines and exits. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/** OpenStreetMap's standard tiles; their usage policy asks for this attribution. */
const DEFAULT_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
const DEFAULT_TILE_ATTRIBUTION = '© OpenStreetMap contributors';

const GENERATED_SECRETS = ['INGEST_SECRET', 'TOKEN_ENCRYPTION_KEY', 'SESSION_SECRET'] as const;
type GeneratedSecret = (typeof GENERATED_SECRETS)[number];

/**
 * Settings that may instead be read from a file named by `<NAME>_FILE` (Docker and Kubernetes
 * secrets mount files, so the value never sits in the environment or `docker inspect`).
 */
export const FILE_SETTINGS = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'INGEST_SECRET',
  'TOKEN_ENCRYPTION_KEY',
  'SESSION_SECRET',
  'ADMIN_PASSWORD',
  'SMTP_URL',
  'S3_SECRET_ACCESS_KEY',
  'METRICS_TOKEN',
] as const;

/** Secrets a production deployment must not run with a value copied from an example. */
const PRODUCTION_SECRETS = ['INGEST_SECRET', 'TOKEN_ENCRYPTION_KEY', 'SESSION_SECRET', 'METRICS_TOKEN', 'ADMIN_PASSWORD'] as const;
const PLACEHOLDER = /change[-_ .]?me|placeholder|example|replace[-_ .]?(me|this)|your[-_ .]?secret|^(secret|password)$/i;
/** A random value of 16+ characters has far more; `000…0` or `abab…` has one or two. */
const MIN_DISTINCT_CHARACTERS = 8;

/** Why `value` looks like a placeholder rather than a generated secret, or null. */
export function placeholderReason(value: string): string | null {
  if (PLACEHOLDER.test(value)) return 'looks like a placeholder (change-me, example…)';
  if (new Set(value).size < MIN_DISTINCT_CHARACTERS) return `has fewer than ${MIN_DISTINCT_CHARACTERS} distinct characters`;
  return null;
}

/** `source` with every `<NAME>_FILE` read into `<NAME>`; problems name the setting. */
function readSettingFiles(source: NodeJS.ProcessEnv, problems: string[]): Record<string, string | undefined> {
  const raw: Record<string, string | undefined> = {};
  for (const name of ENVIRONMENT_NAMES) raw[name] = source[name];
  for (const name of FILE_SETTINGS) {
    const file = source[`${name}_FILE`];
    if (!file) continue;
    if (source[name]) {
      problems.push(`${name}_FILE: set ${name} or ${name}_FILE, not both`);
      continue;
    }
    try {
      // A file written by `echo` ends in a newline that is not part of the secret.
      raw[name] = readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return raw;
}

function describe(error: ValidationError): string {
  const value =
    GENERATED_SECRETS.includes(error.property as GeneratedSecret) || /PASSWORD|SECRET|KEY|TOKEN/.test(error.property)
      ? '(hidden)'
      : JSON.stringify(error.value);
  return `${error.property}: ${Object.values(error.constraints ?? {}).join('; ')} (got ${value})`;
}

/**
 * Secrets for the embedded mode, made once and kept beside the data they protect (token values are
 * encrypted with one of them, so it must survive restarts).
 */
function embeddedSecrets(dataDir: string): Record<GeneratedSecret, string> {
  const file = join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<GeneratedSecret, string>;
  const secrets = {
    INGEST_SECRET: randomBytes(24).toString('hex'),
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SESSION_SECRET: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  return secrets;
}

/** Validates the environment once and returns the frozen configuration, or throws ConfigError. */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const fileProblems: string[] = [];
  const raw = readSettingFiles(source, fileProblems);
  const env = plainToInstance(Environment, raw);
  const problems = [...fileProblems, ...validateSync(env, { forbidUnknownValues: false }).map(describe)];

  const production = env.NODE_ENV === 'production';
  const embedded = !env.DATABASE_URL;
  const dataDir = resolve(env.DATA_DIR ?? './.data');
  if (production && embedded) problems.push('DATABASE_URL: required when NODE_ENV=production (the embedded database is for development)');
  if (production) {
    for (const name of PRODUCTION_SECRETS) {
      const value = raw[name];
      const reason = value ? placeholderReason(value) : null;
      if (reason) problems.push(`${name}: ${reason}; generate one, e.g. \`openssl rand -hex 32\``);
    }
  }
  if (Boolean(env.ADMIN_USERNAME) !== Boolean(env.ADMIN_PASSWORD)) problems.push('ADMIN_USERNAME and ADMIN_PASSWORD: set both or neither');
  if (env.IMAGE_STORAGE === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const)
      if (!env[name]) problems.push(`${name}: required when IMAGE_STORAGE=s3`);
  }

  const missing = GENERATED_SECRETS.filter((name) => !env[name]);
  if (missing.length > 0 && !embedded) {
    // Several instances share one database: a secret made up by one of them would not be known by the others.
    for (const name of missing) problems.push(`${name}: required when DATABASE_URL is set${production ? ' and NODE_ENV=production' : ''}`);
  }
  if ((env.SHUTDOWN_DRAIN_GRACE_MS ?? 500) >= (env.SHUTDOWN_TIMEOUT_MS ?? 10_000)) {
    problems.push('SHUTDOWN_DRAIN_GRACE_MS: must be less than SHUTDOWN_TIMEOUT_MS (the grace is part of the shutdown)');
  }
  const http = { headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS ?? 10_000, requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS ?? 120_000 };
  if (http.headersTimeoutMs > http.requestTimeoutMs) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)');
  }
  // Only a template the pattern took: one line per bad setting.
  const tileProblem =
    env.MAP_TILE_URL && env.MAP_TILE_URL !== 'none' && !problems.some((p) => p.startsWith('MAP_TILE_URL')) ? tileUrlProblem(env.MAP_TILE_URL) : null;
  if (tileProblem) problems.push(`MAP_TILE_URL: ${tileProblem}`);
  try {
    parseOrigins(env.ALLOWED_ORIGINS ?? '');
  } catch (error) {
    problems.push(`ALLOWED_ORIGINS: ${(error as Error).message}`);
  }
  let redisCluster: RedisClusterSettings | null = null;
  if (env.REDIS_CLUSTER_NODES !== undefined) {
    if (env.REDIS_URL) {
      problems.push('REDIS_CLUSTER_NODES: set REDIS_URL (a single Redis) or REDIS_CLUSTER_NODES (a Redis Cluster), not both');
    } else {
      try {
        redisCluster = parseRedisClusterNodes(env.REDIS_CLUSTER_NODES);
      } catch (error) {
        problems.push(`REDIS_CLUSTER_NODES: ${(error as Error).message}`);
      }
    }
  }
  let oidcProviders: OidcProviderSettings[] = [];
  if (env.OIDC_PROVIDERS !== undefined) {
    try {
      oidcProviders = parseOidcProviders(env.OIDC_PROVIDERS);
    } catch (error) {
      problems.push(`OIDC_PROVIDERS: ${(error as Error).message}`);
    }
  }
  problems.push(...timeseriesProblems(env, embedded));
  if (problems.length > 0) throw new ConfigError(problems);

  const generated = missing.length > 0 ? embeddedSecrets(dataDir) : undefined;
  const secret = (name: GeneratedSecret) => new Secret(env[name] ?? generated![name]);
  const port = env.PORT ?? 3000;

  const config: AppConfig = {
    env: env.NODE_ENV ?? 'development',
    port,
    host: env.HOST ?? '0.0.0.0',
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    database: { url: env.DATABASE_URL ?? null, dataDir, poolSize: env.DB_POOL_SIZE ?? 10, runMigrations: env.MIGRATIONS_RUN ?? true },
    redis: { url: env.REDIS_URL ?? null, cluster: redisCluster, prefix: env.REDIS_PREFIX ?? 'dts' },
    secrets: { ingest: secret('INGEST_SECRET'), tokenEncryptionKey: secret('TOKEN_ENCRYPTION_KEY'), session: secret('SESSION_SECRET') },
    admin:
      env.ADMIN_USERNAME && env.ADMIN_PASSWORD
        ? { username: env.ADMIN_USERNAME, password: new Secret(env.ADMIN_PASSWORD), email: env.ADMIN_EMAIL ?? `${env.ADMIN_USERNAME}@localhost` }
        : null,
    demo: env.DEMO ?? false,
    audit: { enabled: env.AUDIT_LOG ?? true },
    session: { cookieName: env.SESSION_COOKIE_NAME ?? 'dts_session', ttlSeconds: env.SESSION_TTL_SECONDS ?? 14 * 86_400 },
    accounts: { maxDevices: env.ACCOUNT_MAX_DEVICES ?? 50, expirationDays: env.ACCOUNT_EXPIRATION_DAYS ?? 365 },
    oidcProviders,
    rateLimit: { perAccountPerMinute: env.RATE_LIMIT_PER_MINUTE ?? 1200, authPerMinute: env.AUTH_RATE_LIMIT_PER_MINUTE ?? 10 },
    mail: {
      smtpUrl: env.SMTP_URL ? new Secret(env.SMTP_URL) : null,
      from: env.MAIL_FROM ?? 'Device Telemetry Service <no-reply@localhost>',
      alertsPerRecipientPerHour: env.ALERT_MAILS_PER_RECIPIENT_PER_HOUR ?? 20,
      alertsPerAccountPerHour: env.ALERT_MAILS_PER_ACCOUNT_PER_HOUR ?? 60,
      verificationsPerAddressPerHour: env.VERIFICATION_MAILS_PER_HOUR ?? 5,
    },
    log: { level: env.LOG_LEVEL ?? 'info', pretty: env.LOG_PRETTY ?? (!production && Boolean(process.stdout.isTTY)) },
    worker: { inProcess: env.WORKER_IN_PROCESS ?? embedded, healthPort: env.WORKER_HEALTH_PORT ?? 3001 },
    trustProxy: env.TRUST_PROXY ?? 'false',
    codecs: {
      // One core is left to the event loop: codec threads never take all of them.
      workers: env.CODEC_WORKERS ?? Math.max(1, Math.min(2, availableParallelism() - 1)),
      cpuMsPerDelivery: env.CODEC_CPU_MS_PER_DELIVERY ?? 1_000,
      cpuMsPerMinute: env.CODEC_CPU_MS_PER_MINUTE ?? 15_000,
    },
    allowedOrigins: parseOrigins(env.ALLOWED_ORIGINS ?? ''),
    loginFailuresPerAccount: env.LOGIN_FAILURES_PER_ACCOUNT ?? 20,
    streams: {
      livePerAccount: env.STREAMS_PER_ACCOUNT ?? 10,
      exportsPerAccount: env.EXPORTS_PER_ACCOUNT ?? 4,
      stallTimeoutMs: env.STREAM_STALL_TIMEOUT_MS ?? 30_000,
    },
    outboundAllowPrivate: env.OUTBOUND_ALLOW_PRIVATE ?? false,
    networkTimeoutMs: env.NETWORK_TIMEOUT_MS ?? 10_000,
    images: {
      storage: env.IMAGE_STORAGE ?? 'database',
      dir: resolve(env.IMAGE_DIR ?? join(dataDir, 'images')),
      s3:
        env.IMAGE_STORAGE === 's3'
          ? {
              endpoint: env.S3_ENDPOINT ?? null,
              bucket: env.S3_BUCKET!,
              region: env.S3_REGION ?? 'us-east-1',
              accessKeyId: env.S3_ACCESS_KEY_ID!,
              secretAccessKey: new Secret(env.S3_SECRET_ACCESS_KEY!),
            }
          : null,
      linkTtlSeconds: env.IMAGE_LINK_TTL_SECONDS ?? 86_400,
    },
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS ?? 10_000,
    drainGraceMs: env.SHUTDOWN_DRAIN_GRACE_MS ?? 500,
    http,
    metricsToken: env.METRICS_TOKEN ? new Secret(env.METRICS_TOKEN) : null,
    deviceOnlineSeconds: env.DEVICE_ONLINE_SECONDS ?? 3_600,
    map: {
      tileUrl: env.MAP_TILE_URL === 'none' ? null : (env.MAP_TILE_URL ?? DEFAULT_TILE_URL),
      attribution: env.MAP_TILE_ATTRIBUTION ?? (env.MAP_TILE_URL === undefined ? DEFAULT_TILE_ATTRIBUTION : ''),
      // OpenStreetMap's standard tiles go to 19; another server says its own.
      maxZoom: env.MAP_TILE_MAX_ZOOM ?? 19,
    },
    console: { sourceMaps: env.CONSOLE_SOURCE_MAPS ?? !production },
    integrations: integrationsConfig(env),
    timeseries: timeseriesConfig(env),
  };
  return deepFreeze(config);
}

/**
 * Why a tile URL template that passed the pattern is still not one a browser can use, or null:
 * with its placeholders filled it must be an http(s) URL whose host has none left (the console's
 * CSP allows images from that host, `{s}` becoming `*`, and from nowhere else).
 */
export function tileUrlProblem(template: string): string | null {
  const host = /^https?:\/\/([^/?#]*)/.exec(template)?.[1] ?? '';
  if (/[{}]/.test(host.replace(/^\{s\}\./, ''))) return 'its host may hold a placeholder only as a leading {s}. (the one form the console’s CSP can allow)';
  const filled = template
    .replace(/^(https?:\/\/)\{s\}\./, '$1a.')
    .replace(/\{(z|x|y)\}/g, '0')
    .replace(/\{r\}/g, '');
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return `"${template}" is not a URL once its {s}, {z}, {x} and {y} are filled in`;
  }
  if (!url.hostname) return 'has no host';
  if (/[{}]/.test(decodeURIComponent(url.pathname + url.search))) return 'names a placeholder Leaflet does not fill: only {s}, {z}, {x}, {y} and {r} are';
  return null;
}

/** A comma-separated list of origins (`https://console.example.org`), each normalised as browsers send it. */
export function parseOrigins(list: string): string[] {
  return list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw new Error(`"${item}" is not an origin (scheme://host[:port])`);
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.username) {
        throw new Error(`"${item}" is not an origin (scheme://host[:port], http or https, nothing after the port)`);
      }
      return url.origin;
    });
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Secret)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
