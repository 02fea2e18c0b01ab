import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger, type LoggerOptions } from 'pino';
import type { Options as HttpLoggerOptions } from 'pino-http';
import type { AppConfig } from '../config/app-config';

/**
 * Paths that are never logged: credentials in headers, cookies, and anything that looks like a
 * password or token in a logged object.
 */
export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers.token',
  'req.headers["x-ingest-secret"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.current_password',
  '*.new_password',
  '*.token',
  '*.secret',
  '*.api_key',
];

/** Query members that carry a credential (signed image links, tokens pasted into a URL). */
const SECRET_QUERY = /^(signature|sig|token|api_key|apikey|secret|password|access_token)$/i;

/** The URL with the values of credential-bearing query members replaced. */
export function redactUrl(url: string | undefined): string | undefined {
  const q = url?.indexOf('?') ?? -1;
  if (url === undefined || q < 0) return url;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // a malformed escape is logged as sent
      }
      return eq >= 0 && SECRET_QUERY.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

export function loggerOptions(config: AppConfig, name: string): LoggerOptions {
  return {
    name,
    level: config.log.level,
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    transport: config.log.pretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } : undefined,
  };
}

/** How long a log line may wait in the buffer of logDestination. */
const LOG_FLUSH_MS = 200;

/**
 * Standard output, buffered: lines are written in blocks of 4 KiB or every 200 ms, whichever
 * comes first, instead of one write system call per line (one per request), and flushed when the
 * process exits. A SIGKILL can lose the last 200 ms of lines, never a request. Pretty output
 * (development) goes through its own transport instead: undefined then.
 */
export function logDestination(config: AppConfig): pino.DestinationStream | undefined {
  if (config.log.pretty) return undefined;
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), LOG_FLUSH_MS).unref();
  return destination;
}

/** Options for nestjs-pino's `pinoHttp`, written to logDestination. */
export function withDestination(options: HttpLoggerOptions, config: AppConfig): HttpLoggerOptions | [HttpLoggerOptions, pino.DestinationStream] {
  const destination = logDestination(config);
  return destination ? [options, destination] : options;
}

export function createLogger(config: AppConfig, name: string): Logger {
  const destination = logDestination(config);
  return destination ? pino(loggerOptions(config, name), destination) : pino(loggerOptions(config, name));
}

/** The api's two loggers, on one destination. */
export interface HttpLoggers {
  /** Everything the application logs: redacted (LOG_REDACT_PATHS), `req`/`res` through httpLogSerializers. */
  app: Logger;
  /**
   * The one completion line of each request, built from named members only (request id, method,
   * redacted URL, status, account, route, duration): nothing in it can hold a credential, so it
   * skips redaction and serializers. On a terminal (pretty output) it is the application logger.
   */
  requests: Logger;
}

/** Injection token of the api's HttpLoggers. */
export const HTTP_LOGGERS = Symbol('HTTP_LOGGERS');

/** One pair per process and setting: instances started in one process (tests) share their destination. */
const httpLoggers = new Map<string, HttpLoggers>();

export function createHttpLoggers(config: AppConfig, name: string): HttpLoggers {
  const key = JSON.stringify([name, config.log.level, config.log.pretty]);
  let loggers = httpLoggers.get(key);
  if (!loggers) {
    loggers = buildHttpLoggers(config, name);
    httpLoggers.set(key, loggers);
  }
  return loggers;
}

function buildHttpLoggers(config: AppConfig, name: string): HttpLoggers {
  const options: LoggerOptions = { ...loggerOptions(config, name), serializers: httpLogSerializers };
  const destination = logDestination(config);
  if (!destination) {
    const app = pino(options);
    return { app, requests: app };
  }
  return { app: pino(options, destination), requests: pino({ name, level: config.log.level }, destination) };
}

/**
 * The request and response members worth a log line. Headers (credentials, cookies), bodies
 * (passwords, payload bytes) and credential query members stay out.
 */
export const httpLogSerializers = {
  req: (req: IncomingMessage & { id?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
  res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
};
