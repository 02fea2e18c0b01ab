import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@dts/platform';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { addVary, type Coding, negotiateEncoding } from '../../common/http/compression';

/** Where `npm run build` puts the console (tools/build.mjs), seen from the compiled and the source tree. */
const ROOTS = [join(__dirname, '../../../../../..'), join(__dirname, '../../../../..')];

export function consoleDirectory(): string | null {
  for (const root of ROOTS) {
    const dir = join(root, 'dist', 'console');
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
}

/** The file suffix of each precompressed form (tools/build-console.mjs writes them). */
const SUFFIX: Record<Coding, string> = { br: '.br', gzip: '.gz' };

/** Each file of `dir` that has precompressed forms beside it, with their codings, brotli first. */
export function precompressedForms(dir: string): Map<string, Coding[]> {
  const names = new Set(existsSync(dir) ? readdirSync(dir) : []);
  const forms = new Map<string, Coding[]>();
  for (const name of names) {
    const codings = (['br', 'gzip'] as const).filter((c) => names.has(`${name}${SUFFIX[c]}`));
    if (codings.length > 0 && !name.endsWith('.br') && !name.endsWith('.gz')) forms.set(name, codings);
  }
  return forms;
}

/**
 * Static files of `dir` in the form the request accepts: a file built with `.br` and `.gz` forms
 * beside it is answered with the brotli or gzip one (Content-Encoding, the original's Content-Type,
 * `Vary: Accept-Encoding`; Content-Length, ETag and ranges those of the bytes sent, by
 * serve-static), else as it is. The forms are listed once, at start: the build does not change
 * under a running service. A form is not addressable by its own name; `.map` files never are here
 * (`maps` serves them, when there are any to serve, and each script then names its map in a
 * `SourceMap` header).
 */
function precompressedStatic(dir: string, options: Parameters<typeof express.static>[1], maps: string | null): RequestHandler {
  const forms = precompressedForms(dir);
  // Typed for node's IncomingMessage, whose `id` pino's types declare otherwise than Express's.
  const files = express.static(dir, options) as unknown as RequestHandler;
  const mapFiles = maps ? (express.static(maps, { ...options, fallthrough: true }) as unknown as RequestHandler) : null;
  const mapped = new Set(maps && existsSync(maps) ? readdirSync(maps) : []);
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    let name: string;
    try {
      name = decodeURIComponent(req.path.slice(1));
    } catch {
      return next();
    }
    if (name.endsWith('.map')) return mapFiles ? mapFiles(req, res, next) : next();
    if (name.endsWith('.br') || name.endsWith('.gz')) return next();
    const available = forms.get(name);
    if (available) {
      addVary(res, 'Accept-Encoding');
      const coding = negotiateEncoding(req.headers['accept-encoding'], available);
      if (coding) {
        res.setHeader('Content-Encoding', coding);
        res.type(extname(name));
        const query = req.url.indexOf('?');
        req.url = `/${encodeURIComponent(name + SUFFIX[coding])}${query >= 0 ? req.url.slice(query) : ''}`;
      }
    }
    if (mapped.has(`${name}.map`)) res.setHeader('SourceMap', `${encodeURIComponent(name)}.map`);
    files(req, res, next);
  };
}

/** The CSP source of the tile server: scheme and host of the template, a `{s}` subdomain as `*`. */
export function tileSource(tileUrl: string | null): string | null {
  if (!tileUrl) return null;
  const [, scheme, host] = /^(https?:\/\/)([^/?#]+)/.exec(tileUrl) ?? [];
  if (!scheme || !host) return null;
  return `${scheme}${host.replace(/^\{[a-z]\}\./, '*.')}`;
}

/**
 * The console's Content-Security-Policy: exactly what it loads. Scripts, styles and fonts from the
 * service itself (no inline script, no eval), images from itself, the map's tile server and the
 * blank data: image Leaflet uses, calls
 * and the live feed to the service, no frames.
 */
export function consoleCsp(config: AppConfig): string {
  const tiles = tileSource(config.map.tileUrl);
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    // data: for Leaflet's blank image, which it puts in a tile it stops loading.
    `img-src 'self' data:${tiles ? ` ${tiles}` : ''}`,
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * Serves the web console under /console/ from the same origin as the api (cookie sessions, no
 * CORS): hashed assets cached for a year, index.html never cached and answered for every client
 * route under /console/, a browser asking for `/` sent there. Everything else — unknown API routes
 * included — goes on to the router and keeps its envelope.
 */
export function mountConsole(app: NestExpressApplication, config: AppConfig): void {
  const dir = consoleDirectory();
  // The build's source maps (dist/console-maps), only when CONSOLE_SOURCE_MAPS says so.
  const maps = dir && config.console.sourceMaps ? join(dir, '..', 'console-maps') : null;
  const csp = consoleCsp(config);
  const withCsp = (res: Response) => res.setHeader('Content-Security-Policy', csp);

  app.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/' && req.accepts(['json', 'html']) === 'html') return res.redirect(302, '/console/');
    if (req.path === '/console') return res.redirect(301, '/console/');
    if (req.path.startsWith('/console/')) withCsp(res);
    next();
  });
  if (!dir) {
    // Not built (a checkout that ran only the api's compile): say so instead of a bare 404.
    app.use('/console/', (req: Request, res: Response, next: NextFunction) => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      res.status(503).json({
        errors: [{ code: 'UNAVAILABLE', message: 'the console is not built: run npm run build' }],
        debug: [],
        meta: [],
        messages: [],
        data: null,
        success: false,
      });
    });
    return;
  }
  // Content-hashed names: a new build has new names, so a year is safe.
  app.use(
    '/console/assets/',
    precompressedStatic(join(dir, 'assets'), { immutable: true, maxAge: '365d', index: false, fallthrough: true }, maps && join(maps, 'assets')),
  );
  app.use(
    '/console/',
    precompressedStatic(
      dir,
      {
        index: false,
        maxAge: '1h',
        fallthrough: true,
        setHeaders: (res: Response, path: string) => {
          if (path.endsWith('.html') || path.endsWith('.html.br') || path.endsWith('.html.gz')) res.setHeader('Cache-Control', 'no-cache');
        },
      },
      maps,
    ),
  );
  app.use('/console/', (req: Request, res: Response, next: NextFunction) => {
    // A missing asset is a 404 envelope, not the page: only client routes get index.html.
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.path.startsWith('/assets/')) return next();
    readFile(join(dir, 'index.html')).then(
      (html) => {
        res.status(200).setHeader('Content-Type', 'text/html; charset=utf-8').setHeader('Cache-Control', 'no-cache');
        res.end(req.method === 'HEAD' ? undefined : html);
      },
      (error: unknown) => next(error),
    );
  });
}
