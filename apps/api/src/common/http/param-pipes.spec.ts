import { ApiException } from './api.exception';
import { EuiParamPipe } from './eui-param.pipe';
import { IntParamPipe } from './int-param.pipe';

const meta = (data: string) => ({ type: 'param' as const, data });

describe('IntParamPipe', () => {
  const pipe = new IntParamPipe();

  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2147483647],
  ])('reads %p', (text, n) => {
    expect(pipe.transform(text, meta('uid'))).toBe(n);
  });

  it.each(['0', '-1', '1e3', '0x10', '1.0', '+5', ' 5', '5 ', '', 'abc', '2147483648', '99999999999', 7])('refuses %p naming the parameter', (value) => {
    expect(() => pipe.transform(value, meta('uid'))).toThrow(ApiException);
    try {
      pipe.transform(value, meta('uid'));
    } catch (error) {
      expect((error as ApiException).entries[0]).toMatchObject({ code: 'VALIDATION_FAILED', field: 'uid' });
    }
  });
});

describe('EuiParamPipe', () => {
  const pipe = new EuiParamPipe();

  it('normalises', () => {
    expect(pipe.transform('70-b3-d5-7e-d0-00-12-34', meta('eui'))).toBe('70B3D57ED0001234');
  });

  it('refuses what is not an EUI, naming the parameter', () => {
    expect(() => pipe.transform('70b3', meta('eui'))).toThrow(ApiException);
  });
});
