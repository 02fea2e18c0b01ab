import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { OperationsEnvironment } from './environment-operations';
import { toInt } from './environment-transforms';

/**
 * The settings that bound what one caller can cost everyone else (codec CPU, streams, exports,
 * login failures) and where requests may come from (origins). Environment extends this class;
 * the README's configuration table documents each.
 */
export class LimitsEnvironment extends OperationsEnvironment {
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  CODEC_WORKERS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(600_000)
  CODEC_CPU_MS_PER_DELIVERY?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(50)
  @Max(3_600_000)
  CODEC_CPU_MS_PER_MINUTE?: number;

  @IsOptional()
  @IsString()
  ALLOWED_ORIGINS?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  LOGIN_FAILURES_PER_ACCOUNT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  STREAMS_PER_ACCOUNT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(10_000)
  EXPORTS_PER_ACCOUNT?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1_000)
  @Max(3_600_000)
  STREAM_STALL_TIMEOUT_MS?: number;
}

export const LIMITS_ENVIRONMENT_NAMES = [
  'CODEC_WORKERS',
  'CODEC_CPU_MS_PER_DELIVERY',
  'CODEC_CPU_MS_PER_MINUTE',
  'ALLOWED_ORIGINS',
  'LOGIN_FAILURES_PER_ACCOUNT',
  'STREAMS_PER_ACCOUNT',
  'EXPORTS_PER_ACCOUNT',
  'STREAM_STALL_TIMEOUT_MS',
] as const satisfies readonly (keyof LimitsEnvironment)[];
