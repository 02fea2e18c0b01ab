import { registerDecorator, type ValidationOptions } from 'class-validator';

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
