import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Observable } from 'rxjs';
import { actedOn } from './audit.middleware';

/**
 * The organisation a management call names in its path (`/org/{uid}/...`), for its audit record:
 * these routes act as the person, so the principal names no organisation, yet the call is the
 * organisation's to read in GET /org/{uid}/audit — a refused one by an outsider included.
 */
@Injectable()
export class ActedOnOrganisation implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const uid = Number(http.getRequest<Request>().params.uid);
    if (Number.isSafeInteger(uid) && uid > 0) actedOn(http.getResponse<Response>(), uid);
    return next.handle();
  }
}
