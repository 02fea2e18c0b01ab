import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

const ACCEPTED_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * First middleware of all: the request id is taken from X-Request-Id when it is a sane token (a load
 * balancer's), else made here, and echoed on the response so that a client can quote it.
 */
export function requestIdMiddleware(req: Request & { id?: string }, res: Response, next: NextFunction): void {
  const given = req.headers['x-request-id'];
  const id = typeof given === 'string' && ACCEPTED_ID.test(given) ? given : randomUUID();
  req.id = id;
  res.setHeader('X-Request-Id', id);
  next();
}
