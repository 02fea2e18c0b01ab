/** Time formats of the wire (docs/api.md §2): every textual time is UTC. */

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The UTC `YYYY-MM-DDTHH:MM:SS` of a date: one native ISO rendering, sliced. A history export
 * formats a time per row, and building it from seven getters and pads cost 100,000 rows a tenth
 * of a second (docs/benchmarks.md, figure 3). Years outside 1000–9999 (and an invalid date) take
 * the field by field form, which the native one writes differently (`+010000`, `0999`).
 */
function isoSeconds(date: Date): string | null {
  const year = date.getUTCFullYear();
  return year >= 1000 && year <= 9999 ? date.toISOString().slice(0, 19) : null;
}

/** `YYYY-MM-DD HH:MM:SS` in UTC. */
export function formatSqlTimestamp(date: Date): string {
  const iso = isoSeconds(date);
  if (iso !== null) return `${iso.slice(0, 10)} ${iso.slice(11)}`;
  return `${formatDate(date)} ${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
}

/** `YYYY-MM-DD` in UTC. */
export function formatDate(date: Date): string {
  return `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}`;
}

/** ISO 8601 with an explicit `+00:00` offset, the data rows' `time_stamp` form. */
export function formatIsoUtc(date: Date): string {
  const iso = isoSeconds(date);
  return iso !== null ? `${iso}+00:00` : `${formatSqlTimestamp(date).replace(' ', 'T')}+00:00`;
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
