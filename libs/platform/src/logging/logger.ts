import type { IncomingMessage, ServerResponse } from 'node:http';
import pino, { type Logger, type LoggerOptions } from 'pino';
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
  '*.token',
  '*.secret',
];

export function loggerOptions(config: AppConfig, name: string): LoggerOptions {
  return {
    name,
    level: config.log.level,
    redact: { paths: LOG_REDACT_PATHS, censor: '[redacted]' },
    transport: config.log.pretty ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:HH:MM:ss.l' } } : undefined,
  };
}

export function createLogger(config: AppConfig, name: string): Logger {
  return pino(loggerOptions(config, name));
}

/** The request and response members worth a log line; bodies and payload bytes stay out. */
export const httpLogSerializers = {
  req: (req: IncomingMessage & { id?: string }) => ({ id: req.id, method: req.method, url: req.url }),
  res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
};
