import type { BatteryMeasure, FenceTrigger } from './rule';

/** One line per alert, for people (the alert's `message`, the e-mail's subject). */
export const alertMessages = {
  fence: (device: string, fence: string, on: FenceTrigger) => `${device} ${on === 'leave' ? 'left' : 'entered'} fence ${fence}`,
  threshold: (device: string, member: string, value: number, limit: { above: number } | { below: number }) =>
    'above' in limit ? `${device}: ${member} ${value} is above ${limit.above}` : `${device}: ${member} ${value} is below ${limit.below}`,
  battery: (device: string, measure: BatteryMeasure, value: number, below: number) =>
    measure === 'percent' ? `${device}: battery at ${value} %, below ${below} %` : `${device}: battery at ${value} V, below ${below} V`,
  offline: (device: string, minutes: number) => `${device} has sent nothing for ${minutes} minute${minutes === 1 ? '' : 's'}`,
};

/** The e-mail for an alert raised or cleared. */
export function alertMail(message: string, action: 'raised' | 'cleared', atIso: string): { subject: string; text: string } {
  return action === 'raised'
    ? { subject: `Alert: ${message}`, text: `${message}\n\nRaised at ${atIso}.\n` }
    : { subject: `Cleared: ${message}`, text: `The alert "${message}" cleared at ${atIso}.\n` };
}

/** One alert mail folded into an hour's digest. */
export interface DigestedAlertMail {
  action: 'raised' | 'cleared';
  /** When the alert was raised or cleared. */
  at: Date;
  message: string;
  rule: string;
}

/** Alert lines a digest lists; the rest are counted (the alerts themselves are all kept and listed by GET /user/alert). */
export const DIGEST_LISTED_ALERTS = 100;

const utcMinute = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ');

/**
 * The digest of the alert mails held back in one hour over the hourly limits (docs/api.md §19):
 * how many, a count per rule, and the alerts themselves in the order they happened (the first
 * DIGEST_LISTED_ALERTS of them).
 */
export function alertDigestMail(windowStart: Date, windowEnd: Date, items: readonly DigestedAlertMail[]): { subject: string; text: string } {
  const sorted = [...items].sort((a, b) => a.at.getTime() - b.at.getTime());
  const n = sorted.length;
  const span = `${utcMinute(windowStart)}–${utcMinute(windowEnd).slice(11)} UTC`;
  const perRule = new Map<string, { raised: number; cleared: number }>();
  for (const item of sorted) {
    const counts = perRule.get(item.rule) ?? { raised: 0, cleared: 0 };
    counts[item.action]++;
    perRule.set(item.rule, counts);
  }
  const byRule = [...perRule.entries()]
    .sort(([a, x], [b, y]) => y.raised + y.cleared - (x.raised + x.cleared) || a.localeCompare(b))
    .map(([rule, c]) => `  ${rule}: ${[c.raised ? `${c.raised} raised` : '', c.cleared ? `${c.cleared} cleared` : ''].filter(Boolean).join(', ')}`);
  const listed = sorted
    .slice(0, DIGEST_LISTED_ALERTS)
    .map((item) => `  ${item.at.toISOString().slice(11, 19)}  ${item.action === 'raised' ? 'raised ' : 'cleared'}  ${item.message}`);
  const rest = n - listed.length;
  return {
    subject: `${n} more alert${n === 1 ? '' : 's'}: ${span}`,
    text:
      `${n} more alert${n === 1 ? '' : 's'} between ${span}, over the hourly limit of alert mails to this address, ` +
      `folded into this one mail.\n\nBy rule:\n${byRule.join('\n')}\n\nAlerts (UTC):\n${listed.join('\n')}\n` +
      (rest > 0 ? `  … and ${rest} more.\n` : '') +
      `\nEvery alert is kept: GET /user/alert, or the console, lists them.\n`,
  };
}
