/** Time formats of the wire (docs/api.md §2): every textual time is UTC. */

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatSqlTimestamp(date: Date): string {
  return `${formatDate(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** ISO 8601 with an explicit `+00:00` offset, the data rows' `time_stamp` form. */
export function formatIsoUtc(date: Date): string {
  return `${formatSqlTimestamp(date).replace(' ', 'T')}+00:00`;
}

export function toUnix(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}

const SQL_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** Parses `YYYY-MM-DD HH:MM:SS` as UTC; null when the text is not a real moment in that form. */
export function parseSqlTimestamp(text: string): Date | null {
  const m = SQL_TIMESTAMP.exec(text);
  if (!m) return null;
  // The pattern has six groups, each of digits.
  const [y = 0, mo = 1, d = 1, h = 0, mi = 0, s = 0] = m.slice(1).map(Number);
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s));
  // Date.UTC rolls 2026-02-30 over into March: reject what does not survive the round trip.
  return formatSqlTimestamp(date) === text ? date : null;
}
