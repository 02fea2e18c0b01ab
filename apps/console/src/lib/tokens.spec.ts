import { expired, maskToken, untilFromInput } from './tokens';

describe('tokens', () => {
  it('reads an expiry from a datetime-local input as UTC', () => {
    expect(untilFromInput('2027-05-01T12:30')).toBe('2027-05-01 12:30:00');
    expect(untilFromInput('2027-05-01T12:30:15')).toBe('2027-05-01 12:30:15');
    expect(untilFromInput('')).toBeNull();
    expect(untilFromInput('tomorrow')).toBeNull();
  });

  it('hides a token’s value and tells an expired one', () => {
    expect(maskToken('0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef')).toBe('012345…cdef');
    expect(expired('2020-01-01 00:00:00', 1_800_000_000)).toBe(true);
    expect(expired('2030-01-01 00:00:00', 1_800_000_000)).toBe(false);
    expect(expired(null, 1_800_000_000)).toBe(false);
  });
});
