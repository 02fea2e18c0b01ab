import { logScope, type MetricsService, redactUrl } from '@dts/platform';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { routeTemplate } from './http-metrics';

/**
 * Each request's one completion line and its duration metric, written when the response ends (or
 * the client hangs up): request id, method, URL (credential query members redacted), status,
 * account when authenticated, route template and duration in ms; 4xx at `warn`, 5xx at `error`.
 * The line is built once, from named members, at the end — no logger per request. The rest of the
 * request runs in its log scope, so that a line logged meanwhile names the request too.
 */
export function requestLogMiddleware(log: Logger, metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const startedAt = Date.now();
    const started = performance.now();
    const url = req.url;
    let done = false;
    const ended = () => {
      if (done) return;
      done = true;
      res.removeListener('finish', ended);
      res.removeListener('close', ended);
      const status = res.statusCode;
      const route = routeTemplate(req, status);
      // A client that hangs up still took that long; its status is what was set by then.
      metrics.httpDuration.observe({ method: req.method, route, status: String(status) }, (performance.now() - started) / 1000);
      const level = status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
      if (!log.isLevelEnabled(level)) return;
      const line: Record<string, unknown> = {
        req: { id: req.id, method: req.method, url: redactUrl(url) },
        res: { statusCode: status },
        accountId: req.auth?.accountId,
        route,
        responseTime: Date.now() - startedAt,
      };
      if (status >= 500) {
        line.err = new Error(`failed with status code ${status}`);
        log[level](line, 'request errored');
      } else {
        log[level](line, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
      }
    };
    res.once('finish', ended);
    res.once('close', ended);
    logScope.run({ req }, next);
  };
}
