import { formatDate, formatIsoUtc, formatSqlTimestamp, parseSqlTimestamp, toUnix } from './time';

describe('time formats', () => {
  const moment = new Date(Date.UTC(2026, 4, 1, 12, 3, 4));

  it('formats in UTC', () => {
    expect(formatSqlTimestamp(moment)).toBe('2026-05-01 12:03:04');
    expect(formatDate(moment)).toBe('2026-05-01');
    expect(formatIsoUtc(moment)).toBe('2026-05-01T12:03:04+00:00');
    expect(toUnix(moment)).toBe(1777636984);
  });

  it('writes every moment as its UTC fields, whatever the year or the milliseconds', () => {
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    const fields = (d: Date) =>
      `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    const moments = [
      new Date(Date.UTC(2026, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(1970, 0, 1)),
      new Date(Date.UTC(1000, 0, 1)),
      new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)),
      new Date(Date.UTC(999, 11, 31, 23, 59, 59)),
      new Date(Date.UTC(10000, 0, 1)),
      ...Array.from({ length: 200 }, (_, i) => new Date(Date.UTC(1900, 0, 1) + i * 7_919_993_417_3)),
    ];
    for (const d of moments) {
      expect(formatSqlTimestamp(d)).toBe(fields(d));
      expect(formatIsoUtc(d)).toBe(`${fields(d).replace(' ', 'T')}+00:00`);
    }
  });

  it('parses what it formats', () => {
    expect(parseSqlTimestamp('2026-05-01 12:03:04')?.getTime()).toBe(moment.getTime());
  });

  it.each(['2026-02-30 00:00:00', '2026-05-01T12:03:04', '2026-05-01 24:00:00', '2026-5-1 12:03:04', ''])('refuses %p', (text) => {
    expect(parseSqlTimestamp(text)).toBeNull();
  });
});
