import type { Request } from 'express';
import { ApiException } from '../http/api.exception';
import { presentedToken } from './credentials';

const req = (headers: Record<string, string>) => ({ headers }) as unknown as Request;
const T = 'a'.repeat(64);
const U = 'b'.repeat(64);

describe('presentedToken', () => {
  it.each([
    [{ authorization: `Bearer ${T}` }],
    [{ authorization: `bearer   ${T}` }],
    [{ authorization: T }],
    [{ token: T }],
    [{ authorization: `Bearer ${T}`, token: T }],
  ])('reads %j', (headers) => {
    expect(presentedToken(req(headers))).toBe(T);
  });

  it('is null without a token', () => {
    expect(presentedToken(req({}))).toBeNull();
    expect(presentedToken(req({ authorization: '   ' }))).toBeNull();
  });

  it('refuses two different tokens', () => {
    expect(() => presentedToken(req({ authorization: `Bearer ${T}`, token: U }))).toThrow(ApiException);
    try {
      presentedToken(req({ authorization: T, token: U }));
    } catch (error) {
      expect((error as ApiException).entries[0]!.code).toBe('CONFLICTING_CREDENTIALS');
      expect((error as ApiException).status).toBe(400);
    }
  });
});
