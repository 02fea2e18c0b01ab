import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';

/**
 * Query members arrive as text; these @Transform functions turn digits and `true`/`false` into
 * numbers and booleans and leave anything else as it came, so that the validators name the member
 * in their refusal instead of a conversion failing silently. Fifteen digits keep every integer
 * exact (Number is exact below 2^53); the range is the validators' (`@Min`, `@Max(INT4_MAX)`).
 */
export const toIntFromQuery = ({ value }: { value: unknown }) => (typeof value === 'string' && /^-?\d{1,15}$/.test(value) ? Number(value) : value);

export const toBoolFromQuery = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

/** The largest value of a PostgreSQL `integer` column (uids and references). */
export const INT4_MAX = 2_147_483_647;

/** 9999-12-31 23:59:59 UTC: past it a time no longer fits the formats the interface answers with. */
export const MAX_UNIX_SECONDS = 253_402_300_799;

/** An optional query member holding a time in unix seconds (`from`, `to`), described for OpenAPI. */
export function UnixSecondsQuery(description: string) {
  return (target: object, propertyName: string) =>
    applyDecorators(
      ApiPropertyOptional({ description }),
      IsOptional(),
      Transform(toIntFromQuery),
      IsInt({ message: `${propertyName} must be unix seconds` }),
      Min(0),
      Max(MAX_UNIX_SECONDS),
    )(target, propertyName);
}

/**
 * An optional query member holding a comma-separated list of `allowed` values (`agg=min,max`,
 * `status=Created,Scheduled`): refused as a whole, naming the member, if any part is not one.
 */
export function CommaListQuery(allowed: readonly string[], openApi: { description: string; example: string; default?: string }) {
  const one = allowed.map((value) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  return (target: object, propertyName: string) =>
    applyDecorators(
      ApiPropertyOptional(openApi),
      IsOptional(),
      IsString(),
      MaxLength(100),
      Matches(new RegExp(`^(${one})(,(${one}))*$`), { message: `${propertyName} must be a comma-separated list of ${allowed.join(', ')}` }),
    )(target, propertyName);
}
