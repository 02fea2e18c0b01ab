import type { Response } from 'supertest';

/** Asserts the error envelope with this status and code; returns its entries. */
export function expectError(res: Response, status: number, code: string, field?: string) {
  expect({ status: res.status, body: res.body }).toMatchObject({
    status,
    body: { success: false, data: null, debug: [], meta: [], messages: [], errors: expect.arrayContaining([expect.objectContaining(field ? { code, field } : { code })]) },
  });
  return res.body.errors as { code: string; message: string; field?: string }[];
}

export function expectSuccess<T = unknown>(res: Response, status = 200): T {
  expect({ status: res.status, success: res.body.success, errors: res.body.errors }).toEqual({ status, success: true, errors: [] });
  expect(res.body).toEqual(expect.objectContaining({ debug: [], messages: expect.any(Array), meta: expect.anything() }));
  return res.body.data as T;
}
