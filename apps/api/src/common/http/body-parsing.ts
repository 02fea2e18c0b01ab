import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiException } from './api.exception';
import { sendError } from './api-exception.filter';
import { findRefusedMember, JSON_MAX_DEPTH } from './refused-member';

export const JSON_BODY_LIMIT = '1mb';

/** Member names that could reach an object's prototype if a library merged the body somewhere. */
const POISONED = new Set(['__proto__', 'constructor', 'prototype']);

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/**
 * JSON body handling with the envelope on every failure: a body that is not JSON is 415, bad JSON
 * 400 MALFORMED_JSON, more than 1 MB 413, and a prototype-polluting member, a NUL character or
 * nesting past JSON_MAX_DEPTH 400 naming where.
 * `rawTypes` are media types that routes of their own parse (multipart uploads).
 */
export function jsonBodyMiddlewares(rawTypes: string[] = []) {
  const parser = express.json({ limit: JSON_BODY_LIMIT, type: ['application/json', 'application/*+json'] });
  return [
    (req: Request, res: Response, next: NextFunction) => {
      if (!hasBody(req) || req.is(['application/json', 'application/*+json', ...rawTypes])) return next();
      sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'request bodies must be application/json', 'Content-Type'));
    },
    parser,
    (error: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) => {
      if (error.type === 'entity.too.large') return sendError(res, ApiException.of('PAYLOAD_TOO_LARGE', `JSON bodies are limited to ${JSON_BODY_LIMIT}`));
      if (error.type === 'entity.parse.failed') return sendError(res, ApiException.of('MALFORMED_JSON', 'the request body is not valid JSON'));
      if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
        return sendError(res, ApiException.of('UNSUPPORTED_MEDIA_TYPE', 'unsupported body encoding', 'Content-Type'));
      }
      next(error);
    },
    (req: Request, res: Response, next: NextFunction) => {
      const refused = findRefusedMember(req.body, (key) => POISONED.has(key));
      if (refused) {
        const field = refused.path || 'body';
        const message = { name: `${field} is not an accepted member`, nul: `${field} contains a NUL character`, depth: `the body is nested deeper than ${JSON_MAX_DEPTH} levels` }[refused.reason];
        return sendError(res, ApiException.validation(refused.reason === 'depth' ? 'body' : field, message));
      }
      next();
    },
  ];
}
