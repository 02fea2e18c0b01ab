import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';

const toBool = ({ value }: { value: unknown }) => {
  if (value === undefined || value === '') return undefined;
  if (['1', 'true', 'yes', 'on'].includes(String(value).toLowerCase())) return true;
  if (['0', 'false', 'no', 'off'].includes(String(value).toLowerCase())) return false;
  return value; // left as text so that IsBoolean names the setting
};
const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : /^-?\d+$/.test(String(value)) ? Number(value) : value);
const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);

/**
 * The environment variables, as class-validator rules. Every setting is documented in the README's
 * configuration table; a test checks that the two and docker-compose.yml agree.
 */
export class Environment {
  @IsOptional() @IsIn(['development', 'production', 'test'])
  NODE_ENV?: 'development' | 'production' | 'test';

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  PORT?: number;

  @IsOptional() @IsString()
  HOST?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUBLIC_BASE_URL?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL?: string;

  @IsOptional() @IsString()
  DATA_DIR?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(2) @Max(200)
  DB_POOL_SIZE?: number;

  @IsOptional() @Transform(toBool) @IsBoolean()
  MIGRATIONS_RUN?: boolean;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional() @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'must be 1-64 of A-Z a-z 0-9 _ . -' })
  REDIS_PREFIX?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString() @MinLength(16)
  INGEST_SECRET?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hexadecimal characters (32 bytes)' })
  TOKEN_ENCRYPTION_KEY?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString() @MinLength(32)
  SESSION_SECRET?: string;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^[A-Za-z0-9._-]{3,64}$/, { message: 'must be 3-64 of A-Z a-z 0-9 . _ -' })
  ADMIN_USERNAME?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString() @MinLength(10) @MaxLength(256)
  ADMIN_PASSWORD?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  ADMIN_EMAIL?: string;

  @IsOptional() @Transform(toBool) @IsBoolean()
  DEMO?: boolean;

  @IsOptional() @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be a cookie name of A-Z a-z 0-9 _ -' })
  SESSION_COOKIE_NAME?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(60) @Max(31_536_000)
  SESSION_TTL_SECONDS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(1_000_000)
  ACCOUNT_MAX_DEVICES?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(36_500)
  ACCOUNT_EXPIRATION_DAYS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  AUTH_RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional() @Transform(emptyToUndefined) @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional() @IsString()
  MAIL_FROM?: string;

  @IsOptional() @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;

  @IsOptional() @Transform(toBool) @IsBoolean()
  LOG_PRETTY?: boolean;

  @IsOptional() @Transform(toBool) @IsBoolean()
  WORKER_IN_PROCESS?: boolean;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(65535)
  WORKER_HEALTH_PORT?: number;

  @IsOptional() @IsString()
  TRUST_PROXY?: string;

  @IsOptional() @Transform(toBool) @IsBoolean()
  OUTBOUND_ALLOW_PRIVATE?: boolean;

  @IsOptional() @IsIn(['database', 'directory', 's3'])
  IMAGE_STORAGE?: 'database' | 'directory' | 's3';

  @IsOptional() @IsString()
  IMAGE_DIR?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  S3_ENDPOINT?: string;

  @IsOptional() @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
  S3_BUCKET?: string;

  @IsOptional() @IsString()
  S3_REGION?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional() @Transform(emptyToUndefined) @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(60) @Max(31_536_000)
  IMAGE_LINK_TTL_SECONDS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(0) @Max(600_000)
  SHUTDOWN_TIMEOUT_MS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1_000) @Max(600_000)
  HTTP_HEADERS_TIMEOUT_MS?: number;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1_000) @Max(3_600_000)
  HTTP_REQUEST_TIMEOUT_MS?: number;

  @IsOptional() @Transform(emptyToUndefined) @IsString() @MinLength(16)
  METRICS_TOKEN?: string;
}

/** The names above, for the README and docker-compose consistency test. */
export const ENVIRONMENT_NAMES = [
  'NODE_ENV', 'PORT', 'HOST', 'PUBLIC_BASE_URL', 'DATABASE_URL', 'DATA_DIR', 'DB_POOL_SIZE', 'MIGRATIONS_RUN', 'REDIS_URL',
  'REDIS_PREFIX', 'INGEST_SECRET', 'TOKEN_ENCRYPTION_KEY', 'SESSION_SECRET', 'ADMIN_USERNAME', 'ADMIN_PASSWORD', 'ADMIN_EMAIL',
  'DEMO', 'SESSION_COOKIE_NAME', 'SESSION_TTL_SECONDS', 'ACCOUNT_MAX_DEVICES', 'ACCOUNT_EXPIRATION_DAYS',
  'RATE_LIMIT_PER_MINUTE', 'AUTH_RATE_LIMIT_PER_MINUTE', 'SMTP_URL', 'MAIL_FROM', 'LOG_LEVEL', 'LOG_PRETTY',
  'WORKER_IN_PROCESS', 'WORKER_HEALTH_PORT', 'TRUST_PROXY', 'OUTBOUND_ALLOW_PRIVATE', 'IMAGE_STORAGE', 'IMAGE_DIR', 'S3_ENDPOINT',
  'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'IMAGE_LINK_TTL_SECONDS', 'SHUTDOWN_TIMEOUT_MS',
  'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_REQUEST_TIMEOUT_MS', 'METRICS_TOKEN',
] as const satisfies readonly (keyof Environment)[];
