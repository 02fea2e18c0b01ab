import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Matches, Max, Min } from 'class-validator';
import { RETENTION_DAYS_MAX } from '@dts/domain';
import type { AppConfig } from './app-config';
import { IntegrationsEnvironment } from './environment-integrations';
import { emptyToUndefined, toInt } from './environment-transforms';

/** The interval of time partitions (libs/persistence partition-bounds.ts). */
const PARTITION_INTERVALS = ['day', 'week', 'month'] as const;

/** The longest retention an administrator may give an account is the longest the platform may have. */
const MAX_RETENTION_DAYS = RETENTION_DAYS_MAX;

/**
 * Telemetry that lasts for years (docs/api.md §5, docs/scaling.md): time partitions, the
 * retention of raw uplinks, rollups and images, and where reads that may be a moment stale go and
 * how long they may run. Environment extends this class; the README's configuration table
 * documents each.
 */
export class TimeseriesEnvironment extends IntegrationsEnvironment {
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsIn(PARTITION_INTERVALS)
  PARTITION_INTERVAL?: (typeof PARTITION_INTERVALS)[number];

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(24)
  PARTITIONS_AHEAD?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  UPLINK_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  ROLLUP_HOURLY_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  ROLLUP_DAILY_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  IMAGE_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(MAX_RETENTION_DAYS)
  AUDIT_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'must be a postgres:// connection URL' })
  READ_DATABASE_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(600_000)
  READ_STATEMENT_TIMEOUT_MS?: number;
}

export const TIMESERIES_ENVIRONMENT_NAMES = [
  'PARTITION_INTERVAL',
  'PARTITIONS_AHEAD',
  'UPLINK_RETENTION_DAYS',
  'ROLLUP_HOURLY_RETENTION_DAYS',
  'ROLLUP_DAILY_RETENTION_DAYS',
  'IMAGE_RETENTION_DAYS',
  'AUDIT_RETENTION_DAYS',
  'READ_DATABASE_URL',
  'READ_STATEMENT_TIMEOUT_MS',
] as const satisfies readonly (keyof TimeseriesEnvironment)[];

/** Problems of settings that are each valid but do not fit together. */
export function timeseriesProblems(env: TimeseriesEnvironment, embedded: boolean): string[] {
  const problems: string[] = [];
  const raw = env.UPLINK_RETENTION_DAYS;
  const hourly = env.ROLLUP_HOURLY_RETENTION_DAYS;
  const daily = env.ROLLUP_DAILY_RETENTION_DAYS;
  // A rollup answers for a time whose raw uplinks are gone: it must outlive them.
  if (hourly !== undefined && (raw === undefined || hourly < raw)) {
    problems.push('ROLLUP_HOURLY_RETENTION_DAYS: must be at least UPLINK_RETENTION_DAYS (set both, rollups outlive raw uplinks)');
  }
  if (daily !== undefined && (hourly === undefined || daily < hourly)) {
    problems.push('ROLLUP_DAILY_RETENTION_DAYS: must be at least ROLLUP_HOURLY_RETENTION_DAYS (set both, daily rollups outlive hourly ones)');
  }
  if (env.READ_DATABASE_URL && embedded) problems.push('READ_DATABASE_URL: a replica needs DATABASE_URL (the embedded database has none)');
  return problems;
}

export function timeseriesConfig(env: TimeseriesEnvironment): AppConfig['timeseries'] {
  return {
    partitionInterval: env.PARTITION_INTERVAL ?? 'month',
    partitionsAhead: env.PARTITIONS_AHEAD ?? 2,
    uplinkRetentionDays: env.UPLINK_RETENTION_DAYS ?? null,
    hourlyRollupRetentionDays: env.ROLLUP_HOURLY_RETENTION_DAYS ?? null,
    dailyRollupRetentionDays: env.ROLLUP_DAILY_RETENTION_DAYS ?? null,
    imageRetentionDays: env.IMAGE_RETENTION_DAYS ?? null,
    // A year: what most audits ask for; longer for those that ask more.
    auditRetentionDays: env.AUDIT_RETENTION_DAYS ?? 365,
    readDatabaseUrl: env.READ_DATABASE_URL ?? null,
    readStatementTimeoutMs: env.READ_STATEMENT_TIMEOUT_MS ?? 5_000,
  };
}
