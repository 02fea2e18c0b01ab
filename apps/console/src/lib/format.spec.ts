import { currentLocale, i18n } from '../i18n';
import { duration, noun, num, parseTags, plural, relativeTime, retentionInput, retentionText, spacedEui, tagsText, utcText, count } from './format';

describe('format', () => {
  it('tells times relative to now', () => {
    expect(relativeTime(null, 1000)).toBe('never');
    expect(relativeTime(1000, 1010)).toBe('just now');
    expect(relativeTime(1000, 1000 + 300)).toBe('5 min ago');
    expect(relativeTime(1000, 1000 + 7_200)).toBe('2 h ago');
    expect(relativeTime(1000, 1000 + 3 * 86_400)).toBe('3 d ago');
    expect(relativeTime(1000 + 600, 1000)).toBe('in 10 min');
  });

  it('writes UTC times and numbers', () => {
    expect(utcText(0)).toBe('1970-01-01 00:00:00');
    expect(utcText(null)).toBe('–');
    expect(num(3.14159, 2, '°C')).toBe('3.14 °C');
    expect(num(2.5)).toBe('2.5');
    expect(num(20)).toBe('20');
    expect(num(null)).toBe('–');
  });

  it('shows and reads tags', () => {
    expect(tagsText(['a', 'b'])).toBe('a, b');
    expect(tagsText({ site: 'north' })).toBe('site: north');
    expect(tagsText(null)).toBe('');
    expect(parseTags(' a, b,,a ')).toEqual(['a', 'b']);
    expect(parseTags(' ')).toBeNull();
    expect(spacedEui('70B3D57ED0000001')).toBe('70 B3 D5 7E D0 00 00 01');
  });
});

describe('duration', () => {
  it('says a length of time in its two largest units', () => {
    expect(duration(42)).toBe('42 s');
    expect(duration(3_600 * 5 + 60 * 12 + 9)).toBe('5 h 12 min');
    expect(duration(86_400 * 3 + 3_600 * 4 + 59)).toBe('3 d 4 h');
    expect(duration(86_400 + 30)).toBe('1 d');
  });
});

describe('plural', () => {
  it('writes a count with its noun in the count’s form', () => {
    expect(plural(1, 'bucket')).toBe('1 bucket');
    expect(plural(0, 'bucket')).toBe('0 buckets');
    expect(plural(2, 'position')).toBe('2 positions');
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(5, 'entry', 'entries')).toBe('5 entries');
    expect(plural(5000, 'device')).toBe('5,000 devices');
    expect(noun(1, 'photo')).toBe('photo');
    expect(noun(3, 'box', 'boxes')).toBe('boxes');
  });
});

describe('retention', () => {
  it('says days, one day, or forever', () => {
    expect([retentionText(30), retentionText(1), retentionText(null)]).toEqual(['30 days', '1 day', 'forever']);
  });

  it('reads a field: empty is null, a number as it reads, other text as typed (never NaN, which JSON would send as null)', () => {
    expect([retentionInput(''), retentionInput('  '), retentionInput(' 14 '), retentionInput('1.5'), retentionInput('ten')]).toEqual([
      null,
      null,
      14,
      1.5,
      'ten',
    ]);
  });
});

describe('in German', () => {
  beforeAll(() => i18n.changeLanguage('de'));
  afterAll(() => i18n.changeLanguage('en'));

  it('writes times and counts as German readers do', () => {
    expect(relativeTime(1_000 - 300, 1_000)).toBe('vor 5 Min.');
    expect(relativeTime(1_000 + 7_200, 1_000)).toBe('in 2 Std.');
    expect(relativeTime(null, 1_000)).toBe('nie');
    expect(count(5_000)).toBe('5.000');
    expect(num(4.567)).toBe('4,57');
    expect(num(-15.5, 1, '°C')).toBe('-15,5 °C');
    expect(currentLocale()).toBe('de-DE');
  });

  it('says lengths of time and retentions in German', () => {
    expect(duration(42)).toBe('42 s');
    expect(duration(3_600 * 5 + 60 * 12 + 9)).toBe('5 Std. 12 Min.');
    expect(duration(86_400 * 3 + 3_600 * 4 + 59)).toBe('3 T. 4 Std.');
    expect([retentionText(30), retentionText(1), retentionText(null)]).toEqual(['30 Tage', '1 Tag', 'unbegrenzt']);
  });
});
