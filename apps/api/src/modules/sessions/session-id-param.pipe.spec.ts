import { ApiException } from '../../common/http/api.exception';
import { SessionIdParamPipe } from './session-id-param.pipe';

const meta = { type: 'param' as const, data: 'id' };

describe('SessionIdParamPipe', () => {
  const pipe = new SessionIdParamPipe();

  it('takes 24 lowercase hexadecimal characters as they are', () => {
    expect(pipe.transform('0123456789abcdef01234567', meta)).toBe('0123456789abcdef01234567');
  });

  it.each(['', '0123456789ABCDEF01234567', '0123456789abcdef0123456', '0123456789abcdef012345678', '0123456789abcdef0123456g', ' 0123456789abcdef0123456', 7])(
    'refuses %p naming the parameter',
    (value) => {
      expect(() => pipe.transform(value, meta)).toThrow(ApiException);
      try {
        pipe.transform(value, meta);
      } catch (error) {
        expect((error as ApiException).entries[0]).toMatchObject({ code: 'VALIDATION_FAILED', field: 'id' });
      }
    },
  );
});
