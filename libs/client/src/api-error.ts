import type { ApiErrorEntry, ErrorCode } from '@dts/domain';

/**
 * A response that is not a success envelope: the HTTP status, the envelope's `errors` (docs/api.md §1)
 * and, for convenience, the code and field of the first. A response that is not an envelope at all
 * (a proxy's error page) has no entries and `code` undefined.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: ErrorCode | undefined;
  readonly field: string | undefined;

  constructor(
    readonly status: number,
    readonly errors: readonly ApiErrorEntry[],
    readonly request: { method: string; path: string },
    /** The service's X-Request-Id of the failed call, to find it in the logs. */
    readonly requestId: string | null = null,
    /** Seconds from `Retry-After` (429, 503), when sent. */
    readonly retryAfter: number | null = null,
  ) {
    const first = errors[0];
    super(
      `${request.method} ${request.path}: ${status}${first ? ` ${first.code}${first.field ? ` (${first.field})` : ''}: ${first.message}` : ' (no error envelope)'}`,
    );
    this.code = first?.code;
    this.field = first?.field;
  }

  /** Whether any entry carries this code (and names this field, when given). */
  has(code: ErrorCode, field?: string): boolean {
    return this.errors.some((e) => e.code === code && (field === undefined || e.field === field));
  }
}
