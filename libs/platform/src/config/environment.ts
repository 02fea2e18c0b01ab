import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min } from 'class-validator';
import { INTEGRATIONS_ENVIRONMENT_NAMES } from './environment-integrations';
import { LIMITS_ENVIRONMENT_NAMES } from './environment-limits';
import { ACCOUNTS_ENVIRONMENT_NAMES } from './environment-accounts';
import { OPERATIONS_ENVIRONMENT_NAMES } from './environment-operations';
import { TIMESERIES_ENVIRONMENT_NAMES, TimeseriesEnvironment } from './environment-timeseries';
import { emptyToUndefined, toBool, toInt } from './environment-transforms';

/**
 * The environment variables, as class-validator rules. Every setting is documented in the README's
 * configuration table; a test checks that the two and docker-compose.yml agree.
 *
 * This class holds where the service listens and stores; the other settings come down a chain of
 * classes, one per concern: accounts ← operations ← limits ← integrations ← timeseries ← Environment. The
 * chain runs root-first in the order the settings are listed here, because class-validator reports
 * a class's own problems first and then its ancestors' from the root down: one line per bad
 * setting, in this list's order.
 */
export class Environment extends TimeseriesEnvironment {
  @IsOptional()
  @IsIn(['development', 'production', 'test'])
  NODE_ENV?: 'development' | 'production' | 'test';

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsUrl({ require_tld: false, protocols: ['http', 'https'], require_protocol: true })
  PUBLIC_BASE_URL?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(2)
  @Max(200)
  DB_POOL_SIZE?: number;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  MIGRATIONS_RUN?: boolean;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^rediss?:\/\/.+/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  /** Seed nodes of a Redis Cluster; read by parseRedisClusterNodes, whose problems never echo the value (it may hold a password). */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  REDIS_CLUSTER_NODES?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9_.-]{1,64}$/, { message: 'must be 1-64 of A-Z a-z 0-9 _ . -' })
  REDIS_PREFIX?: string;
}

/** The names above, for the README and docker-compose consistency test. */
export const ENVIRONMENT_NAMES = [
  'NODE_ENV',
  'PORT',
  'HOST',
  'PUBLIC_BASE_URL',
  'DATABASE_URL',
  'DATA_DIR',
  'DB_POOL_SIZE',
  'MIGRATIONS_RUN',
  'REDIS_URL',
  'REDIS_CLUSTER_NODES',
  'REDIS_PREFIX',
  ...ACCOUNTS_ENVIRONMENT_NAMES,
  ...OPERATIONS_ENVIRONMENT_NAMES,
  ...LIMITS_ENVIRONMENT_NAMES,
  ...INTEGRATIONS_ENVIRONMENT_NAMES,
  ...TIMESERIES_ENVIRONMENT_NAMES,
] as const satisfies readonly (keyof Environment)[];
