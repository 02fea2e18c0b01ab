import { formatDate, formatIsoUtc, formatSqlTimestamp, parseSqlTimestamp, toUnix } from './time';

describe('time formats', () => {
  const moment = new Date(Date.UTC(2026, 4, 1, 12, 3, 4));

  it('formats in UTC', () => {
    expect(formatSqlTimestamp(moment)).toBe('2026-05-01 12:03:04');
    expect(formatDate(moment)).toBe('2026-05-01');
    expect(formatIsoUtc(moment)).toBe('2026-05-01T12:03:04+00:00');
    expect(toUnix(moment)).toBe(1777636984);
  });

  it('parses what it formats', () => {
    expect(parseSqlTimestamp('2026-05-01 12:03:04')?.getTime()).toBe(moment.getTime());
  });

  it.each(['2026-02-30 00:00:00', '2026-05-01T12:03:04', '2026-05-01 24:00:00', '2026-5-1 12:03:04', ''])('refuses %p', (text) => {
    expect(parseSqlTimestamp(text)).toBeNull();
  });
});
