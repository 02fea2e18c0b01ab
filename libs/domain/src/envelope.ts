/**
 * The response envelope of every route (docs/api.md §1, §1). Success and failure
 * share the shape so that a client parses one thing.
 */
export interface Envelope<T = unknown, M = unknown[] | Record<string, unknown>> {
  errors: ApiErrorEntry[];
  debug: unknown[];
  meta: M;
  messages: string[];
  data: T | null;
  success: boolean;
}

/** One problem; a body with three bad members yields three entries. */
export interface ApiErrorEntry {
  code: ErrorCode;
  message: string;
  field?: string;
}

/**
 * Stable error codes (docs/api.md §1, §11) with their HTTP status. Clients switch on `code`, so a code
 * is never renamed or reused for another meaning.
 */
export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  MALFORMED_JSON: 400,
  CONFLICTING_CREDENTIALS: 400,
  INVALID_RESET_TOKEN: 400,
  /** POST /auth/verify: a verification token unknown, expired, replaced by a newer one, or for an address the account no longer asks for. */
  INVALID_VERIFICATION_TOKEN: 400,
  AUTH_REQUIRED: 401,
  INVALID_TOKEN: 401,
  TOKEN_EXPIRED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  ADMIN_ONLY: 403,
  /** The caller's role in the organisation the request acts in is below what the route needs (docs/api.md §20). */
  ROLE_REQUIRED: 403,
  /** The API key's list of rights lacks what the route needs (docs/api.md §20). */
  RIGHT_REQUIRED: 403,
  ACCOUNT_EXPIRED: 403,
  ACCOUNT_DISABLED: 403,
  DEVICE_LIMIT_REACHED: 403,
  WRONG_PASSWORD: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  DEVICE_EXISTS: 409,
  DEVICE_OWNED_ELSEWHERE: 409,
  USERNAME_TAKEN: 409,
  /** The change would leave an organisation without an owner. */
  LAST_OWNER: 409,
  /** A person owns MAX_OWNED_ORGANISATIONS organisations already. */
  ORGANISATION_LIMIT_REACHED: 409,
  EMAIL_TAKEN: 409,
  TOKEN_LIMIT_REACHED: 409,
  COMMAND_NOT_CANCELLABLE: 409,
  /** An account's integrations (50) or alert rules (2,000) are at their limit. */
  LIMIT_REACHED: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  /** A read a user asked for ran past READ_STATEMENT_TIMEOUT_MS: a narrower range (or a coarser interval) answers. */
  QUERY_TIMEOUT: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

export function successEnvelope<T>(data: T, extra: { meta?: unknown[] | Record<string, unknown>; messages?: string[] } = {}): Envelope<T> {
  return { errors: [], debug: [], meta: extra.meta ?? [], messages: extra.messages ?? [], data, success: true };
}

export function errorEnvelope(errors: ApiErrorEntry[]): Envelope<null> {
  return { errors, debug: [], meta: [], messages: [], data: null, success: false };
}
