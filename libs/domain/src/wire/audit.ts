/**
 * The audit log (docs/api.md §8): one record per state-changing call (POST, PUT, PATCH, DELETE;
 * not the networks' ingestion, whose record is the uplink itself) and per sign-in, succeeded or
 * not. Append-only for the service: no route changes or deletes a record; the worker drops whole
 * months past AUDIT_RETENTION_DAYS.
 */
export interface AuditEventWire {
  /** Increasing with time within one database; the cursor orders by `at`, then this. */
  id: string;
  /** When the call ended (ISO 8601, milliseconds, UTC). */
  at: string;
  /** The caller's account; null for a call without one (a refused sign-in, a registration). */
  account_id: number | null;
  /** The organisation the call acted in (docs/api.md §20); null: the caller's own account. */
  organisation_id: number | null;
  /** The caller's username; for a sign-in, the name it was tried with (as typed, up to 64 characters). */
  username: string | null;
  /** The API token the call came with, when it came with one. */
  token_uid: number | null;
  via: 'session' | 'token' | null;
  /** The route: method and path template, `PATCH /admin/accounts/{id}`. */
  action: string;
  /** The path's parameters, `{"id": "12"}`: what the call acted on. */
  target: Record<string, string>;
  /** The answer's status; `result` is `success` below 400. */
  status: number;
  result: 'success' | 'failure';
  /** The client's address as the service sees it (TRUST_PROXY). */
  ip: string | null;
  /** The request id of the call's log lines (X-Request-Id). */
  request_id: string | null;
}

export const AUDIT_RESULTS = ['success', 'failure'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];
export const AUDIT_MAX_LIMIT = 1_000;

/** GET /admin/audit's query members: every one narrows; none is all, newest first. */
export interface AuditQuery {
  account_id?: number;
  /** The caller's username or the sign-in name, any case. */
  username?: string;
  /** Text the action contains, any case (`/admin/`, `DELETE`). */
  action?: string;
  result?: AuditResult;
  /** Unix seconds: at or after, before. */
  from?: number;
  to?: number;
  limit?: number;
  cursor?: string;
  /** `csv`: every record that matches, as a file (streamed), instead of a page in the envelope. */
  format?: 'json' | 'csv';
}

/** GET /admin/audit's `meta`. */
export interface AuditPageMetaWire {
  next_cursor: string | null;
}
