import { type ArgumentMetadata, Injectable, ValidationPipe, type ValidationError } from '@nestjs/common';
import type { ApiErrorEntry } from '@dts/domain';
import { ApiException } from './api.exception';
import { findRefusedMember } from './refused-member';

function flatten(errors: ValidationError[], parent = ''): ApiErrorEntry[] {
  const entries: ApiErrorEntry[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const constraints = error.constraints ?? {};
    if (constraints.whitelistValidation) {
      entries.push({ code: 'VALIDATION_FAILED', message: `${field} is not an accepted member`, field });
    } else if (Object.keys(constraints).length > 0) {
      entries.push({ code: 'VALIDATION_FAILED', message: Object.values(constraints).join('; '), field });
    }
    if (error.children?.length) entries.push(...flatten(error.children, field));
  }
  return entries;
}

/**
 * Names every object inherits (__proto__, toString, valueOf, hasOwnProperty, …): class-transformer
 * skips such members without a word, so the whitelist never sees them — `{"toString": 1}` would
 * pass and a tag named valueOf would vanish. Query strings and multipart fields reach the pipe
 * without the JSON body parser's own check.
 */
const inherited = (key: string) => key in Object.prototype || key === 'prototype';

const NOT_DTOS: unknown[] = [String, Boolean, Number, Array, Object, Buffer, Date];
const isDto = (metatype: unknown) => typeof metatype === 'function' && !NOT_DTOS.includes(metatype);

/**
 * class-validator on every body and query DTO: unknown members are refused, never dropped, and
 * each failing member becomes one error entry naming it.
 */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      validationError: { target: false, value: false },
      exceptionFactory: (errors) => new ApiException(flatten(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters are parsed by their own pipes (EuiParamPipe, IntParamPipe): converting them
    // here first would let "1e3" pass as 1000.
    if (metadata.type === 'param' || metadata.type === 'custom') return value;
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      // A route with a body DTO and no body at all: validate an empty object, so that the
      // required members are named rather than the body as a whole.
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw ApiException.validation('body', 'the body must be a JSON object');
    }
    // Only DTOs go through class-transformer; `@Body() body: unknown` reaches its handler as parsed.
    const refused = isDto(metadata.metatype) ? findRefusedMember(value, inherited) : null;
    if (refused) throw ApiException.validation(refused.path || metadata.type, `${refused.path || metadata.type} is not an accepted member or value`);
    return super.transform(value, metadata);
  }
}
