import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '@dts/domain';
import { IsInt, IsOptional, Max, Min, registerDecorator, type ValidationOptions } from 'class-validator';

/** Any JSON value whose serialised form stays under `maxBytes` (free-form members such as tags). */
export function IsBoundedJson(maxBytes: number, options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isBoundedJson',
      target: object.constructor,
      propertyName,
      options: { message: `${propertyName} must be JSON of at most ${maxBytes} bytes`, ...options },
      validator: {
        validate: (value: unknown) => value === null || Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') <= maxBytes,
      },
    });
}

/** Present means not null: for members that may be left out but never cleared. */
export function isPresent(o: object, key: string): boolean {
  return (o as Record<string, unknown>)[key] !== undefined;
}

/**
 * `uplink_retention_days` of an account (set by an administrator) or a device (set by its owner):
 * whole days within the bounds of libs/domain's retention rules, or null (none of its own); absent
 * is no change. One rule for both, with its OpenAPI schema and the description given.
 */
export function RetentionDays(description: string) {
  return applyDecorators(
    ApiPropertyOptional({ type: 'integer', nullable: true, minimum: RETENTION_DAYS_MIN, maximum: RETENTION_DAYS_MAX, description }),
    IsOptional(),
    IsInt({ message: 'uplink_retention_days must be a whole number of days' }),
    Min(RETENTION_DAYS_MIN),
    Max(RETENTION_DAYS_MAX),
  );
}
