import { ERROR_CODES, ERROR_STATUS, errorEnvelope, successEnvelope } from './envelope';

describe('envelope', () => {
  it('has every member on success and on failure', () => {
    expect(successEnvelope({ a: 1 })).toEqual({ errors: [], debug: [], meta: [], messages: [], data: { a: 1 }, success: true });
    expect(errorEnvelope([{ code: 'NOT_FOUND', message: 'x' }])).toEqual({
      errors: [{ code: 'NOT_FOUND', message: 'x' }],
      debug: [],
      meta: [],
      messages: [],
      data: null,
      success: false,
    });
  });

  it('maps every code to a 4xx or 5xx status', () => {
    for (const code of ERROR_CODES) {
      expect(code).toMatch(/^[A-Z][A-Z_]+$/);
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code]).toBeLessThan(600);
    }
  });
});
