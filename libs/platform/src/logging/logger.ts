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

export function createLogger(config: AppConfig, name: string): Logger {
  return pino(loggerOptions(config, name));
}

/**
 * The request and response members worth a log line. Headers (credentials, cookies), bodies
 * (passwords, payload bytes) and credential query members stay out.
 */
export const httpLogSerializers = {
  req: (req: IncomingMessage & { id?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
  res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
};
