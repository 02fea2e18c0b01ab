import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, Max, Min } from 'class-validator';
import type { AppConfig } from './app-config';
import { LimitsEnvironment } from './environment-limits';
import { toInt, toIntList } from './environment-transforms';

/**
 * The settings of outbound integrations and alerts (docs/api.md §18, §19). Environment extends this
 * class (and it the limits' settings); the README's configuration table documents each.
 */
export class IntegrationsEnvironment extends LimitsEnvironment {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(2_592_000)
  INTEGRATION_RETRY_WINDOW_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(2_592_000)
  INTEGRATION_DISABLE_AFTER_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  INTEGRATION_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(100_000_000)
  INTEGRATION_OUTBOX_LIMIT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(365)
  INTEGRATION_EVENT_RETENTION_DAYS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  INTEGRATION_CONCURRENCY?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  INTEGRATION_ACCOUNT_CONCURRENCY?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3_600)
  OFFLINE_CHECK_SECONDS?: number;

  @IsOptional()
  @Transform(toIntList)
  @IsArray()
  @ArrayMaxSize(100)
  @IsInt({ each: true, message: 'MQTT_ALLOWED_PORTS must be port numbers separated by commas' })
  @Min(1, { each: true })
  @Max(65_535, { each: true })
  MQTT_ALLOWED_PORTS?: number[];
}

export const INTEGRATIONS_ENVIRONMENT_NAMES = [
  'INTEGRATION_RETRY_WINDOW_SECONDS',
  'INTEGRATION_DISABLE_AFTER_SECONDS',
  'INTEGRATION_TIMEOUT_MS',
  'INTEGRATION_OUTBOX_LIMIT',
  'INTEGRATION_EVENT_RETENTION_DAYS',
  'INTEGRATION_CONCURRENCY',
  'INTEGRATION_ACCOUNT_CONCURRENCY',
  'OFFLINE_CHECK_SECONDS',
  'MQTT_ALLOWED_PORTS',
] as const satisfies readonly (keyof IntegrationsEnvironment)[];

export function integrationsConfig(env: IntegrationsEnvironment): AppConfig['integrations'] {
  const concurrency = env.INTEGRATION_CONCURRENCY ?? 16;
  return {
    retryWindowMs: (env.INTEGRATION_RETRY_WINDOW_SECONDS ?? 86_400) * 1000,
    disableAfterMs: (env.INTEGRATION_DISABLE_AFTER_SECONDS ?? 86_400) * 1000,
    timeoutMs: env.INTEGRATION_TIMEOUT_MS ?? 10_000,
    outboxLimit: env.INTEGRATION_OUTBOX_LIMIT ?? 100_000,
    eventRetentionMs: (env.INTEGRATION_EVENT_RETENTION_DAYS ?? 7) * 86_400_000,
    concurrency,
    // A quarter by default: one account whose receiver hangs holds 4 of 16 lanes, the other 12 go on.
    accountConcurrency: Math.min(concurrency, env.INTEGRATION_ACCOUNT_CONCURRENCY ?? Math.ceil(concurrency / 4)),
    offlineCheckMs: (env.OFFLINE_CHECK_SECONDS ?? 30) * 1000,
    mqttAllowedPorts: [...new Set(env.MQTT_ALLOWED_PORTS ?? [])],
  };
}
