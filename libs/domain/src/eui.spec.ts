import { isEui, normalizeEui } from './eui';

describe('normalizeEui', () => {
  it.each([
    ['70b3d57ed0001234', '70B3D57ED0001234'],
    ['70B3D57ED0001234', '70B3D57ED0001234'],
    ['70-b3-d5-7e-d0-00-12-34', '70B3D57ED0001234'],
    ['70:B3:D5:7E:D0:00:12:34', '70B3D57ED0001234'],
  ])('accepts %s', (input, expected) => {
    expect(normalizeEui(input)).toBe(expected);
    expect(isEui(normalizeEui(input))).toBe(true);
  });

  it.each([
    '',
    '70b3d57ed000123',
    '70b3d57ed00012345',
    '70b3d57ed000123g',
    '70-b3:d5-7e-d0-00-12-34',
    '70--b3d57ed0001234',
    ' 70b3d57ed0001234',
    42,
    null,
    undefined,
    '70.b3.d5.7e.d0.00.12.34',
  ])('refuses %p', (input) => {
    expect(normalizeEui(input)).toBeNull();
  });
});
