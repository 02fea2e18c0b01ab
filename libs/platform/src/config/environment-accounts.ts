import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { emptyToUndefined, toBool, toInt } from './environment-transforms';

/**
 * The settings of credentials and accounts: the platform's secrets, the first admin, sessions,
 * account quotas, request rates, and mail: its transport and its hourly limits. The root of the settings'
 * class chain (see Environment); the README's configuration table documents each.
 */
export class AccountsEnvironment {
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(16)
  INGEST_SECRET?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[0-9a-fA-F]{64}$/, { message: 'must be 64 hexadecimal characters (32 bytes)' })
  TOKEN_ENCRYPTION_KEY?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(32)
  SESSION_SECRET?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^[A-Za-z0-9._-]{3,64}$/, { message: 'must be 3-64 of A-Z a-z 0-9 . _ -' })
  ADMIN_USERNAME?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  @MinLength(10)
  @MaxLength(256)
  ADMIN_PASSWORD?: string;

  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  ADMIN_EMAIL?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  DEMO?: boolean;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  AUDIT_LOG?: boolean;

  /** OpenID Connect providers to sign in with, as JSON (oidc-providers.ts). */
  @IsOptional()
  @Transform(emptyToUndefined)
  @IsString()
  OIDC_PROVIDERS?: string;

  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/, { message: 'must be a cookie name of A-Z a-z 0-9 _ -' })
  SESSION_COOKIE_NAME?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(60)
  @Max(31_536_000)
  SESSION_TTL_SECONDS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(1_000_000)
  ACCOUNT_MAX_DEVICES?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(36_500)
  ACCOUNT_EXPIRATION_DAYS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  AUTH_RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Transform(emptyToUndefined)
  @Matches(/^smtps?:\/\/.+/, { message: 'must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional()
  @IsString()
  MAIL_FROM?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  ALERT_MAILS_PER_RECIPIENT_PER_HOUR?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100_000)
  ALERT_MAILS_PER_ACCOUNT_PER_HOUR?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  VERIFICATION_MAILS_PER_HOUR?: number;

  @IsOptional()
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL?: string;
}

export const ACCOUNTS_ENVIRONMENT_NAMES = [
  'INGEST_SECRET',
  'TOKEN_ENCRYPTION_KEY',
  'SESSION_SECRET',
  'ADMIN_USERNAME',
  'ADMIN_PASSWORD',
  'ADMIN_EMAIL',
  'DEMO',
  'AUDIT_LOG',
  'OIDC_PROVIDERS',
  'SESSION_COOKIE_NAME',
  'SESSION_TTL_SECONDS',
  'ACCOUNT_MAX_DEVICES',
  'ACCOUNT_EXPIRATION_DAYS',
  'RATE_LIMIT_PER_MINUTE',
  'AUTH_RATE_LIMIT_PER_MINUTE',
  'SMTP_URL',
  'MAIL_FROM',
  'ALERT_MAILS_PER_RECIPIENT_PER_HOUR',
  'ALERT_MAILS_PER_ACCOUNT_PER_HOUR',
  'VERIFICATION_MAILS_PER_HOUR',
  'LOG_LEVEL',
] as const satisfies readonly (keyof AccountsEnvironment)[];
