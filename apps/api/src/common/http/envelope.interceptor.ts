import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { successEnvelope } from '@dts/domain';
import { map, type Observable } from 'rxjs';
import { ApiResult } from './api-result';

export const RAW_RESPONSE = 'dts:raw-response';

/** The handler writes its own response (streams, files): the interceptor leaves it alone. */
export const RawResponse = () => SetMetadata(RAW_RESPONSE, true);

/** A handler's result in the envelope (docs/api.md §1): the one place success bodies are shaped. */
export function envelopeOf(value: unknown) {
  return value instanceof ApiResult ? successEnvelope(value.data, value.options) : successEnvelope(value === undefined ? null : value);
}

/** Wraps every handler result in the envelope, on every route but those that write their own response. */
@Injectable()
export class EnvelopeInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (this.reflector.getAllAndOverride<boolean>(RAW_RESPONSE, [context.getHandler(), context.getClass()])) return next.handle();
    return next.handle().pipe(map(envelopeOf));
  }
}
