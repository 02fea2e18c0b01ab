import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { catchError, type Observable, tap, throwError } from 'rxjs';
import { ApiException } from '../http/api.exception';
import { actedOn } from './audit.middleware';

/**
 * The organisation a management call names in its path (`/org/{uid}/...`), for its audit record:
 * these routes act as the person, so the principal names no organisation, yet the call is the
 * organisation's to read in GET /org/{uid}/audit. Not a call answered 404 — an outsider's, or one
 * naming no organisation —: nobody outside an organisation writes into its log.
 */
@Injectable()
export class ActedOnOrganisation implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const uid = Number(http.getRequest<Request>().params.uid);
    if (!Number.isSafeInteger(uid) || uid < 1) return next.handle();
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      tap(() => actedOn(res, uid)),
      catchError((error: unknown) => {
        if (!(error instanceof ApiException && error.status === 404)) actedOn(res, uid);
        return throwError(() => error);
      }),
    );
  }
}
