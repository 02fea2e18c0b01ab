import { alertDigestMail, DIGEST_LISTED_ALERTS, type DigestedAlertMail } from './messages';

const HOUR_START = new Date(Date.UTC(2026, 10, 28, 14));
const HOUR_END = new Date(Date.UTC(2026, 10, 28, 15));
const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 10, 28, 14, minute, second));

describe('the digest of held alert mails', () => {
  it('says how many, per rule, and lists them in the order they happened', () => {
    const items: DigestedAlertMail[] = [
      { action: 'cleared', at: at(20), message: 'Greenhouse: temperature 31 is above 30', rule: 'Hot' },
      { action: 'raised', at: at(5, 7), message: 'Greenhouse: temperature 31 is above 30', rule: 'Hot' },
      { action: 'raised', at: at(9), message: 'Bike left fence Park', rule: 'Leaves' },
    ];
    const mail = alertDigestMail(HOUR_START, HOUR_END, items);
    expect(mail.subject).toBe('3 more alerts: 2026-11-28 14:00–15:00 UTC');
    expect(mail.text).toContain('By rule:\n  Hot: 1 raised, 1 cleared\n  Leaves: 1 raised\n');
    expect(mail.text).toContain(
      'Alerts (UTC):\n' +
        '  14:05:07  raised   Greenhouse: temperature 31 is above 30\n' +
        '  14:09:00  raised   Bike left fence Park\n' +
        '  14:20:00  cleared  Greenhouse: temperature 31 is above 30\n',
    );
    expect(mail.text).not.toContain('more.\n');
  });

  it('lists the first alerts and counts the rest; one alert is singular', () => {
    const many = Array.from({ length: DIGEST_LISTED_ALERTS + 7 }, (_, i) => ({
      action: 'raised' as const,
      at: at(i % 60, Math.floor(i / 60)),
      message: `m${i}`,
      rule: 'R',
    }));
    const mail = alertDigestMail(HOUR_START, HOUR_END, many);
    expect(mail.subject).toBe(`${DIGEST_LISTED_ALERTS + 7} more alerts: 2026-11-28 14:00–15:00 UTC`);
    expect(mail.text.split('\n').filter((l) => /^ {2}14:/.test(l))).toHaveLength(DIGEST_LISTED_ALERTS);
    expect(mail.text).toContain('  … and 7 more.\n');
    expect(alertDigestMail(HOUR_START, HOUR_END, [many[0]!]).subject).toBe('1 more alert: 2026-11-28 14:00–15:00 UTC');
  });
});
