import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * Who delivers to an ingest route, as a plain value: the platform (the ingest secret, which may
 * write to any account's devices) or one account through its API token (docs/api.md §11).
 */
export interface IngestCaller {
  /** null: the platform ingest secret. */
  accountId: number | null;
  /** The API token that delivered (recorded as the uplink's api_ref); null for the secret. */
  tokenUid: number | null;
}

export function ingestCallerOf(req: Pick<Request, 'ingestSecret' | 'auth'>): IngestCaller {
  if (req.ingestSecret) return { accountId: null, tokenUid: null };
  // The guard admits no call to an @IngestAuth() route without the secret or a principal.
  if (!req.auth) throw new Error('CurrentIngestCaller used on a route without ingest authentication');
  return { accountId: req.auth.accountId, tokenUid: req.auth.tokenUid };
}

/** The caller of an @IngestAuth() route. */
export const CurrentIngestCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): IngestCaller =>
  ingestCallerOf(ctx.switchToHttp().getRequest<Request>()),
);
