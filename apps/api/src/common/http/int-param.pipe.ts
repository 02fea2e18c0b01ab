import { Injectable, type PipeTransform, type ArgumentMetadata } from '@nestjs/common';
import { ApiException } from './api.exception';

/** A positive integer path id; anything else is 400 naming the parameter (docs/api.md §11). */
@Injectable()
export class IntParamPipe implements PipeTransform<unknown, number> {
  transform(value: unknown, metadata: ArgumentMetadata): number {
    const n = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > 2_147_483_647)
      throw ApiException.validation(metadata.data ?? 'id', `${metadata.data ?? 'id'} must be a positive integer`);
    return n;
  }
}
