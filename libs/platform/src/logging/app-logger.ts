import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggerService } from '@nestjs/common';
import type { Logger, Level } from 'pino';

/** The request being handled, for the lines logged meanwhile (its id, method and URL, through the `req` serializer). */
export interface LogScope {
  req: { id?: unknown; method?: string; url?: string };
}

/**
 * Which request the code running now serves. One `run` per request (requestLogMiddleware); a line
 * logged through AppLogger inside it carries the request's `req` member, so every line of a request
 * names its id — without a child logger per request: the member is added only to lines that are
 * actually written.
 */
export const logScope = new AsyncLocalStorage<LogScope>();

type Method = Exclude<Level, 'trace'> | 'trace';

/**
 * Nest's LoggerService over pino, with nestjs-pino's calling convention: the last extra argument
 * is the context (the `Logger`'s name), an object first argument is merged into the line, an Error
 * becomes `err`, and Nest's exception handlers' `(message, stack)` becomes an `err` with that stack.
 */
export class AppLogger implements LoggerService {
  constructor(private readonly pino: Logger) {}

  verbose(message: unknown, ...optional: unknown[]): void {
    this.call('trace', message, optional);
  }
  debug(message: unknown, ...optional: unknown[]): void {
    this.call('debug', message, optional);
  }
  log(message: unknown, ...optional: unknown[]): void {
    this.call('info', message, optional);
  }
  warn(message: unknown, ...optional: unknown[]): void {
    this.call('warn', message, optional);
  }
  error(message: unknown, ...optional: unknown[]): void {
    this.call('error', message, optional);
  }
  fatal(message: unknown, ...optional: unknown[]): void {
    this.call('fatal', message, optional);
  }

  private call(level: Method, message: unknown, optional: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const line: Record<string, unknown> = {};
    const scope = logScope.getStore();
    if (scope) line.req = scope.req;
    let params: unknown[] = [];
    if (optional.length > 0) {
      line.context = optional[optional.length - 1];
      params = optional.slice(0, -1);
    }
    if (typeof message === 'object' && message !== null) {
      if (message instanceof Error) line.err = message;
      else Object.assign(line, message);
      this.pino[level](line, ...(params as []));
    } else if (level === 'error' && typeof message === 'string' && params.length === 1 && typeof params[0] === 'string' && /\n\s*at /.test(params[0])) {
      const err = new Error(message);
      err.stack = params[0];
      line.err = err;
      this.pino[level](line);
    } else {
      this.pino[level](line, message as string, ...(params as []));
    }
  }
}
