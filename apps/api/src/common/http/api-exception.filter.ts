import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException, Logger, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { errorEnvelope, type ApiErrorEntry } from '@dts/domain';
import { QueryTimeoutError } from '@dts/persistence';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiException } from './api.exception';
import { type JsonResponse, writeJson } from './write-json';

/** Errors that mean the database, Redis or the queue cannot be reached: the caller should retry later. */
export function isUnavailable(error: unknown): boolean {
  const e = error as { name?: string; code?: string; message?: string; driverError?: { code?: string; message?: string } };
  // ioredis gave up on a command while Redis is unreachable (sessions, rate limits, cache, queues).
  if (e?.name === 'MaxRetriesPerRequestError' || e?.name === 'ClusterAllFailedError') return true;
  // A Redis Cluster with a master down: ioredis retries the slot's owner, then gives up ("Too many
  // Cluster redirections. Last error: …", about a second), or the nodes answer CLUSTERDOWN / TRYAGAIN.
  // With no node reachable at all, the service's cluster client refuses at once (no offline queue).
  if (/^Too many Cluster redirections|^CLUSTERDOWN|^TRYAGAIN|None of startup nodes is available|^Cluster isn't ready/.test(e?.message ?? '')) return true;
  const code = e?.code ?? e?.driverError?.code;
  const message = `${e?.message ?? ''} ${e?.driverError?.message ?? ''}`;
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '53300'].includes(code ?? '') ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Connection is closed|Client has encountered a connection error|max retries per request limit|Stream isn't writeable/i.test(
      message,
    )
  );
}

/** Turns any error into the error envelope, so that no response ever escapes the envelope (docs/api.md §1). */
export function toApiException(error: unknown): { exception: ApiException; unexpected: boolean } {
  if (error instanceof ApiException) return { exception: error, unexpected: false };
  if (error instanceof PayloadTooLargeException) return { exception: ApiException.of('PAYLOAD_TOO_LARGE', 'request body is too large'), unexpected: false };
  // The router could not percent-decode a path parameter (`%FF`): name the path, not nothing.
  if (/^Failed to decode param /.test((error as Error)?.message ?? ''))
    return { exception: ApiException.validation('path', 'the path is not valid percent-encoded UTF-8'), unexpected: false };
  // Thrown by the router for a path or method it does not know.
  if (error instanceof NotFoundException) return { exception: ApiException.of('ROUTE_NOT_FOUND', 'no such route'), unexpected: false };
  if (error instanceof HttpException && error.getStatus() < 500) {
    const status = error.getStatus();
    const code =
      status === 401
        ? 'AUTH_REQUIRED'
        : status === 403
          ? 'FORBIDDEN'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status === 415
              ? 'UNSUPPORTED_MEDIA_TYPE'
              : 'VALIDATION_FAILED';
    // What reaches here as a 400 comes from the body layer (multer: "Field value too long - vendor_id",
    // "Too many files", "Multipart: Boundary not found"): name the member when the message does, else the body.
    const field = code === 'VALIDATION_FAILED' ? (/ - ([^\s]+)$/.exec(error.message)?.[1] ?? 'body') : undefined;
    return { exception: ApiException.of(code, error.message, field), unexpected: false };
  }
  if (error instanceof QueryTimeoutError) {
    return {
      exception: ApiException.of('QUERY_TIMEOUT', `the read ran longer than ${error.timeoutMs} ms: ask for a shorter range or a coarser interval`),
      unexpected: false,
    };
  }
  if (isUnavailable(error))
    return { exception: new ApiException([{ code: 'UNAVAILABLE', message: 'the service is temporarily unavailable' }], 5), unexpected: true };
  return { exception: ApiException.of('INTERNAL', 'internal error'), unexpected: true };
}

export function sendError(res: JsonResponse, exception: ApiException): void {
  if (exception.retryAfter !== undefined) res.setHeader('Retry-After', String(Math.max(1, Math.ceil(exception.retryAfter))));
  for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
  const entries: ApiErrorEntry[] = exception.entries;
  // Whatever a handler had set up for a file, an error is JSON.
  writeJson(res, exception.status, errorEnvelope(entries));
}

@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  private readonly logger = new Logger('http');

  catch(error: unknown, host: ArgumentsHost): void {
    // Typed as Node's own request and response: the filter also answers before Express has
    // decorated them (a body refused by the parser's own error handler).
    const res = host.switchToHttp().getResponse<ServerResponse>();
    const req = host.switchToHttp().getRequest<IncomingMessage & { id?: string; originalUrl?: string }>();
    const { exception, unexpected } = toApiException(error);
    if (unexpected) {
      // The stack goes to the log under the request id, never to the client.
      this.logger.error({ err: error, requestId: req.id, route: `${req.method} ${(req.originalUrl ?? req.url)?.split('?')[0]}` }, 'request failed');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendError(res, exception);
  }
}
