import { ApiError } from '@dts/client';
import type { ErrorCode } from '@dts/domain';
import type { Response } from 'supertest';

/** Asserts the error envelope with this status and code; returns its entries. */
export function expectError(res: Response, status: number, code: string, field?: string) {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: {
      success: false,
      data: null,
      debug: [],
      meta: [],
      messages: [],
      errors: expect.arrayContaining([expect.objectContaining(field ? { code, field } : { code })]),
    },
  });
  return res.body.errors as { code: string; message: string; field?: string }[];
}

export function expectSuccess<T = unknown>(res: Response, status = 200): T {
  expect({ status: res.status, success: res.body.success, errors: res.body.errors }).toEqual({ status, success: true, errors: [] });
  expect(res.body).toEqual(expect.objectContaining({ debug: [], messages: expect.any(Array), meta: expect.anything() }));
  return res.body.data as T;
}

/** The ApiError a typed-client call fails with; fails the test when the call succeeds or throws anything else. */
export async function apiFailure(call: Promise<unknown>): Promise<ApiError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the call succeeded; an ApiError was expected');
}

/** Asserts that a typed-client call fails with this status and code (naming this field); returns the error. */
export async function expectApiError(call: Promise<unknown>, status: number, code: ErrorCode, field?: string): Promise<ApiError> {
  const error = await apiFailure(call);
  expect({ status: error.status, errors: error.errors }).toMatchObject({
    status,
    errors: expect.arrayContaining([expect.objectContaining(field ? { code, field } : { code })]),
  });
  return error;
}
