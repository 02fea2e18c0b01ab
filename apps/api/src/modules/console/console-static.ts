import type { NestExpressApplication } from '@nestjs/platform-express';
import type { AppConfig } from '@dts/platform';
import type { NextFunction, Request, Response } from 'express';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where `npm run build` puts the console (tools/build.mjs), seen from the compiled and the source tree. */
const ROOTS = [join(__dirname, '../../../../../..'), join(__dirname, '../../../../..')];

export function consoleDirectory(): string | null {
  for (const root of ROOTS) {
    const dir = join(root, 'dist', 'console');
    if (existsSync(join(dir, 'index.html'))) return dir;
  }
  return null;
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
  app.useStaticAssets(join(dir, 'assets'), { prefix: '/console/assets/', immutable: true, maxAge: '365d', index: false, fallthrough: true });
  app.useStaticAssets(dir, {
    prefix: '/console/',
    index: false,
    maxAge: '1h',
    fallthrough: true,
    setHeaders: (res: Response, path: string) => {
      if (path.endsWith('.html')) res.setHeader('Cache-Control', 'no-cache');
    },
  });
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
