import { ERROR_STATUS, type ApiErrorEntry, type ErrorCode } from '@dts/domain';

/**
 * The one exception type of the service: it carries CONTRACT codes, and the exception filter turns
 * it into the error envelope with the code's HTTP status.
 */
export class ApiException extends Error {
  readonly status: number;

  constructor(
    readonly entries: ApiErrorEntry[],
    /** Seconds for the Retry-After header (429, 503). */
    readonly retryAfter?: number,
  ) {
    super(entries.map((e) => e.message).join('; '));
    this.name = 'ApiException';
    this.status = ERROR_STATUS[entries[0].code];
  }

  static of(code: ErrorCode, message: string, field?: string): ApiException {
    return new ApiException([field === undefined ? { code, message } : { code, message, field }]);
  }

  static validation(field: string, message: string): ApiException {
    return ApiException.of('VALIDATION_FAILED', message, field);
  }

  /** Also for what exists but is not the caller's: no existence oracle (CONTRACT §1). */
  static notFound(what: string, field?: string): ApiException {
    return ApiException.of('NOT_FOUND', `${what} not found`, field);
  }
}
