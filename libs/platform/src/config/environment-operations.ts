import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { emptyToUndefined, toBool, toInt } from './environment-transforms';
import { AccountsEnvironment } from './environment-accounts';

/**
 * The settings of how a process runs and is operated: logging, the worker, the proxy in front and
 * outbound calls, image storage, shutdown and HTTP timeouts, metrics, and the console's map,
 * online threshold and source maps. Part of Environment's class chain; the README's configuration table documents each.
 */
export class OperationsEnvironment extends AccountsEnvironment {
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  LOG_PRETTY?: boolean;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WORKER_IN_PROCESS?: boolean;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  WORKER_HEALTH_PORT?: number;

  @IsOptional()
  @IsString()
  TRUST_PROXY?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  OUTBOUND_ALLOW_PRIVATE?: boolean;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  NETWORK_TIMEOUT_MS?: number;

  @IsOptional()
  @IsIn(['database', 'directory', 's3'])
  IMAGE_STORAGE?: 'database' | 'directory' | 's3';

  @IsOptional()
  @IsString()
  IMAGE_DIR?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  S3_ENDPOINT?: string;

  @IsOptional()
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be an S3 bucket name' })
  S3_BUCKET?: string;

  @IsOptional()
  @IsString()
  S3_REGION?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  S3_ACCESS_KEY_ID?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  S3_SECRET_ACCESS_KEY?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(31_536_000)
  IMAGE_LINK_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(600_000)
  SHUTDOWN_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(300_000)
  SHUTDOWN_DRAIN_GRACE_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(600_000)
  HTTP_HEADERS_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  HTTP_REQUEST_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(16)
  METRICS_TOKEN?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(31_536_000)
  DEVICE_ONLINE_SECONDS?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^(none|https?:\/\/[^\s"'<>]*\{z\}[^\s"'<>]*\{x\}[^\s"'<>]*\{y\}[^\s"'<>]*)$/, {
    message: 'must be an http(s) tile URL template with {z}, {x} and {y}, or none',
  })
  MAP_TILE_URL?: string;

  @IsOptional()
  @IsString()
  @MaxLength(300)
  MAP_TILE_ATTRIBUTION?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24)
  MAP_TILE_MAX_ZOOM?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  CONSOLE_SOURCE_MAPS?: boolean;
}

export const OPERATIONS_ENVIRONMENT_NAMES = [
  'LOG_PRETTY',
  'WORKER_IN_PROCESS',
  'WORKER_HEALTH_PORT',
  'TRUST_PROXY',
  'OUTBOUND_ALLOW_PRIVATE',
  'NETWORK_TIMEOUT_MS',
  'IMAGE_STORAGE',
  'IMAGE_DIR',
  'S3_ENDPOINT',
  'S3_BUCKET',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'IMAGE_LINK_TTL_SECONDS',
  'SHUTDOWN_TIMEOUT_MS',
  'SHUTDOWN_DRAIN_GRACE_MS',
  'HTTP_HEADERS_TIMEOUT_MS',
  'HTTP_REQUEST_TIMEOUT_MS',
  'METRICS_TOKEN',
  'DEVICE_ONLINE_SECONDS',
  'MAP_TILE_URL',
  'MAP_TILE_ATTRIBUTION',
  'MAP_TILE_MAX_ZOOM',
  'CONSOLE_SOURCE_MAPS',
] as const satisfies readonly (keyof OperationsEnvironment)[];
