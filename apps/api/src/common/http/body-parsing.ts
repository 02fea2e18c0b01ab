import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiException } from './api.exception';
import { sendError } from './api-exception.filter';
import { JSON_MAX_DEPTH, JSON_MAX_ELEMENTS, JSON_MAX_MEMBERS, jsonShapeProblem, type ShapeProblem } from '@dts/domain';
import { findRefusedMember } from './refused-member';

export const JSON_BODY_LIMIT = '1mb';
/**
 * Routes whose bodies are larger by nature, each with its own limit: a codec script may be 512 KiB
 * (docs/api.md §13), which JSON escaping can double, and an import from the device repository
 * carries several scripts and a YAML; a bulk device import holds up to 10,000 rows (docs/api.md §4).
 */
export const LARGE_BODY_ROUTES = [
  { path: '/user/codec', limit: '4mb', types: [] as string[] },
  { path: '/user/device/import', limit: '8mb', types: ['text/csv'] },
] as const;

/** Set once a body has been taken by a route's own parsers, so the global ones leave it alone. */
const TAKEN = Symbol('body taken');
type Middleware = ((req: Request, res: Response, next: NextFunction) => void) | ((error: Error, req: Request, res: Response, next: NextFunction) => void);
const taken = (req: Request) => (req as Request & { [TAKEN]?: true })[TAKEN] === true;
/** The chain skipped for a request whose body a route's own chain has taken. */
function unlessTaken(chain: Middleware[]): Middleware[] {
  return chain.map((mw) =>
    mw.length === 4
      ? (error: Error, req: Request, res: Response, next: NextFunction) =>
          taken(req) ? next(error) : (mw as (e: Error, q: Request, s: Response, n: NextFunction) => void)(error, req, res, next)
      : (req: Request, res: Response, next: NextFunction) => (taken(req) ? next() : (mw as (q: Request, s: Response, n: NextFunction) => void)(req, res, next)),
  );
}

/** Member names that could reach an object's prototype if a library merged the body somewhere. */
const POISONED = new Set(['__proto__', 'constructor', 'prototype']);

const SHAPE_MESSAGES: Record<ShapeProblem, string> = {
  depth: `the body is nested deeper than ${JSON_MAX_DEPTH} levels`,
  wide: `an object of the body has more than ${JSON_MAX_MEMBERS} members`,
  long: `an array of the body has more than ${JSON_MAX_ELEMENTS} elements`,
};

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * JSON body handling with the envelope on every failure: a body that is not JSON is 415, bad JSON
 * 400 MALFORMED_JSON, more than 1 MB 413, and a prototype-polluting member, a NUL character,
 * nesting past JSON_MAX_DEPTH or an object wider than JSON_MAX_MEMBERS 400 naming where — all
 * before any DTO transformation runs.
 * `rawTypes` are media types that routes of their own parse (multipart uploads).
 */
export function jsonBodyMiddlewares(rawTypes: readonly string[] = [], limit: string = JSON_BODY_LIMIT): Middleware[] {
  const parser = express.json({
    limit,
    type: ['application/json', 'application/*+json'],
    // Runs on the raw bytes before JSON.parse: a body too deep, wide or long is refused unparsed.
    verify: (_req, _res, buf) => {
      const problem = jsonShapeProblem(buf);
      if (problem) throw Object.assign(new Error(SHAPE_MESSAGES[problem]), { shape: problem });
    },
  });
  return unlessTaken([
    (req: Request, res: Response, next: NextFunction) => {
      if (!hasBody(req) || Buffer.isBuffer(req.body) || req.is(['application/json', 'application/*+json', ...rawTypes])) return next();
      sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json', 'Content-Type'));
    },
    parser as Middleware,
    (error: Error & { type?: string; shape?: ShapeProblem }, _req: Request, res: Response, next: NextFunction) => {
      if (error.type === 'entity.verify.failed' && error.shape) return sendError(res, ApiException.validation('body', SHAPE_MESSAGES[error.shape]));
      if (error.type === 'entity.too.large') return sendError(res, ApiException.of('PAYLOAD_TOO_LARGE', `bodies of this route are limited to ${limit}`));
      if (error.type === 'entity.parse.failed') return sendError(res, ApiException.of('MALFORMED_JSON', 'the request body is not valid JSON'));
      if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
        return sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding', 'Content-Type'));
      }
      next(error);
    },
    (req: Request, res: Response, next: NextFunction) => {
      // Bytes a binary parser took (binaryBodyMiddlewares) and text (CSV) are the route's to read.
      if (Buffer.isBuffer(req.body) || typeof req.body === 'string') return next();
      const refused = findRefusedMember(req.body, (key) => POISONED.has(key));
      if (refused) {
        const field = refused.path || 'body';
        const message = {
          name: `${field} is not an accepted member`,
          nul: `${field} contains a NUL character`,
          depth: `the body is nested deeper than ${JSON_MAX_DEPTH} levels`,
          wide: `${field} has more than ${JSON_MAX_MEMBERS} members`,
        }[refused.reason];
        return sendError(res, ApiException.validation(refused.reason === 'depth' ? 'body' : field, message));
      }
      next();
    },
  ]);
}

/**
 * Large bodies are parsed one per turn of the event loop: sixty 512 KiB bodies arriving together
 * would otherwise be parsed back to back in one poll phase (measured: a 325 ms stall of
 * /health/live in hostile-cost.e2e-spec.ts), and every other request waits behind them. A
 * callback scheduled from a check-phase callback runs in the next turn, after the poll phase.
 */
const parseQueue: (() => void)[] = [];
let draining = false;
function inItsOwnTurn(work: () => void): void {
  parseQueue.push(work);
  if (!draining) {
    draining = true;
    setImmediate(drainOne);
  }
}
function drainOne(): void {
  parseQueue.shift()?.();
  if (parseQueue.length > 0) setImmediate(drainOne);
  else draining = false;
}

const JSON_TYPES = ['application/json', 'application/*+json'];

/** The refusal of a parsed JSON body (a poisoned member, a NUL, nesting or width), or null. */
function refusalOf(body: unknown): ApiException | null {
  const refused = findRefusedMember(body, (key) => POISONED.has(key));
  if (!refused) return null;
  const field = refused.path || 'body';
  const message = {
    name: `${field} is not an accepted member`,
    nul: `${field} contains a NUL character`,
    depth: `the body is nested deeper than ${JSON_MAX_DEPTH} levels`,
    wide: `${field} has more than ${JSON_MAX_MEMBERS} members`,
  }[refused.reason];
  return ApiException.validation(refused.reason === 'depth' ? 'body' : field, message);
}

/**
 * The body chain of a route in LARGE_BODY_ROUTES: JSON up to its own limit, its text types (CSV)
 * as a string, with the same refusals as every JSON body; the JSON parsed in a turn of its own.
 * Mounted on the route's path before the global chain, which then leaves the body alone.
 */
export function largeBodyMiddlewares(route: (typeof LARGE_BODY_ROUTES)[number]): Middleware[] {
  const tooLarge = (error: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) => {
    if (error.type === 'entity.too.large') return sendError(res, ApiException.of('PAYLOAD_TOO_LARGE', `bodies of this route are limited to ${route.limit}`));
    if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
      return sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding', 'Content-Type'));
    }
    next(error);
  };
  const accepted = [...JSON_TYPES, ...route.types];
  return [
    (req: Request, res: Response, next: NextFunction) => {
      if (!hasBody(req) || req.is(accepted)) return next();
      sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', `request bodies must be ${accepted.join(' or ')}`, 'Content-Type'));
    },
    ...(route.types.length === 0 ? [] : [express.text({ type: [...route.types], limit: route.limit }) as Middleware, tooLarge]),
    express.raw({ type: JSON_TYPES, limit: route.limit }) as Middleware,
    tooLarge,
    (req: Request, res: Response, next: NextFunction) => {
      const taken = () => {
        (req as Request & { [TAKEN]?: true })[TAKEN] = true;
        next();
      };
      if (!Buffer.isBuffer(req.body)) return taken();
      const bytes = req.body;
      inItsOwnTurn(() => {
        // Judged on the raw bytes first, as every JSON body is: a hostile shape is never parsed.
        const shape = jsonShapeProblem(bytes);
        if (shape) return sendError(res, ApiException.validation('body', SHAPE_MESSAGES[shape]));
        let parsed: unknown;
        try {
          parsed = JSON.parse(bytes.toString('utf8'));
        } catch {
          return sendError(res, ApiException.of('MALFORMED_JSON', 'the request body is not valid JSON'));
        }
        const refusal = refusalOf(parsed);
        if (refusal) return sendError(res, refusal);
        req.body = parsed;
        taken();
      });
    },
  ];
}

/**
 * `application/octet-stream` bodies for the routes that take a binary encoding (ChirpStack's
 * Protobuf, `POST /ingest/chirpstack`): the body is handed over as its bytes, up to the JSON limit.
 * Mounted on those paths before jsonBodyMiddlewares, which lets a parsed body through.
 */
export function binaryBodyMiddlewares() {
  return [
    express.raw({ type: 'application/octet-stream', limit: JSON_BODY_LIMIT }),
    (error: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) => {
      if (error.type === 'entity.too.large') return sendError(res, ApiException.of('PAYLOAD_TOO_LARGE', `bodies are limited to ${JSON_BODY_LIMIT}`));
      if (error.type === 'encoding.unsupported') return sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding', 'Content-Type'));
      next(error);
    },
  ];
}
