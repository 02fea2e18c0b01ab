/** Formatting the console shows: pure functions of the value and the console's language, unit tested. */
import { currentLocale, i18n } from '../i18n';

const UNITS = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'min'],
] as const;

/** "just now", "5 min ago", "3 h ago", "2 d ago" (and "in …" for a time ahead of the clock), in the console's language. */
export function relativeTime(unix: number | null, nowUnix: number): string {
  if (unix === null) return i18n.t('time.never');
  const delta = nowUnix - unix;
  const abs = Math.abs(delta);
  if (abs < 45) return i18n.t('time.justNow');
  for (const [seconds, unit] of UNITS) {
    if (abs >= seconds || unit === 'min') {
      const count = Math.max(1, Math.round(abs / seconds));
      return delta >= 0 ? i18n.t(`time.ago.${unit}`, { count }) : i18n.t(`time.in.${unit}`, { count });
    }
  }
  return i18n.t('time.justNow');
}

/** A count as the console's language writes it ("5,000" in English, "5.000" in German). */
export function count(n: number): string {
  return n.toLocaleString(currentLocale());
}

/** `YYYY-MM-DD HH:MM:SS` in UTC, as the service writes times. */
export function utcText(unix: number | null): string {
  if (unix === null) return '–';
  return new Date(unix * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** A number with at most `digits` decimals in the console's language, or an en dash for none. */
export function num(value: number | null | undefined, digits = 2, unit = ''): string {
  if (value === null || value === undefined || Number.isNaN(value)) return '–';
  // The language's decimal mark ("4.5", "4,5"), no grouping: a reading, not a count.
  const text = new Intl.NumberFormat(currentLocale(), { maximumFractionDigits: digits, useGrouping: false }).format(value);
  return unit ? `${text} ${unit}` : text;
}

/** EUI in groups of two, for reading aloud and comparing by eye. */
export function spacedEui(eui: string): string {
  return eui.replace(/(..)(?=.)/g, '$1 ');
}

/** The tags of a device as short text ("a, b" for a list, "k: v" for an object). */
export function tagsText(tags: unknown): string {
  if (tags === null || tags === undefined) return '';
  if (Array.isArray(tags)) return tags.map(String).join(', ');
  if (typeof tags === 'object')
    return Object.entries(tags as Record<string, unknown>)
      .map(([k, v]) => `${k}: ${String(v)}`)
      .join(', ');
  return String(tags);
}

/** "a, b ,c" → ["a", "b", "c"]; empty: null (the device has no tags). */
export function parseTags(text: string): string[] | null {
  const list = text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return list.length ? [...new Set(list)] : null;
}

/** A length of time in its two largest units: "3 d 4 h", "5 h 12 min", "42 s" (German "3 T. 4 Std."). */
export function duration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const parts = [
    [Math.floor(s / 86_400), 'd'],
    [Math.floor((s % 86_400) / 3_600), 'h'],
    [Math.floor((s % 3_600) / 60), 'min'],
  ] as const;
  const first = parts.findIndex(([n]) => n > 0);
  if (first === -1) return i18n.t('time.duration.s', { n: s });
  const [a, b] = parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, unit]) => i18n.t(`time.duration.${unit}`, { n }));
  return b === undefined ? a! : i18n.t('time.duration.two', { first: a, second: b });
}

/**
 * A count and its noun in the count's form: "1 bucket", "0 buckets", "5,000 devices" ("1 entry",
 * "2 entries" with `many`). The one way the console writes a count, so that none says "1 buckets".
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${noun(n, one, many)}`;
}

/** The noun alone, for a count written apart from it ("photo" or "photos"). */
export function noun(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** A retention in days as the console says it: "1 day", "30 days", "forever" (null keeps), in the console's language. */
export function retentionText(days: number | null): string {
  return days === null ? i18n.t('common.retention.forever') : i18n.t('common.retention.days', { count: days });
}

/**
 * A retention field's text as a request member: empty is null (none of its own), a number as it
 * reads, and other text as typed: the service judges every one and names the field when it refuses
 * (a NaN would go out as JSON null and silently clear the value).
 */
export function retentionInput(text: string): number | string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : trimmed;
}
