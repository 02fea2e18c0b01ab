import { ERROR_STATUS, type ApiErrorEntry, type ErrorCode } from '@dts/domain';

/**
 * The one exception type of the service: it carries the error codes of docs/api.md §1, and the exception filter turns
 * it into the error envelope with the code's HTTP status.
 */
export class ApiException extends Error {
  readonly status: number;
  /** Headers the error answer carries besides Retry-After (Content-Range of a 416). */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly entries: ApiErrorEntry[],
    /** Seconds for the Retry-After header (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(entries.map((e) => e.message).join('; '));
    this.name = 'ApiException';
    const [first] = entries;
    // Every throw site names at least one problem; an empty list is a bug in the thrower.
    if (!first) throw new Error('ApiException without an error entry');
    this.status = ERROR_STATUS[first.code];
  }

  /** The same exception, answered with this header too. */
  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  static of(code: ErrorCode, message: string, field?: string): ApiException {
    return new ApiException([field === undefined ? { code, message } : { code, message, field }]);
  }

  static validation(field: string, message: string): ApiException {
    return ApiException.of('VALIDATION_FAILED', message, field);
  }

  /** Also for what exists but is not the caller's: no existence oracle (docs/api.md §1). */
  static notFound(what: string, field?: string): ApiException {
    return ApiException.of('NOT_FOUND', `${what} not found`, field);
  }
}
