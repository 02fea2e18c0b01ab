/**
 * A session's user agent in plain words ("Firefox 128 on Linux", "Safari on iPhone"), for the
 * account's list of sessions. Only the common browsers and systems are named; anything else shows
 * its first product token ("curl 8.5.0"), or "Unknown browser".
 * The words around the names are the console's language's (`userAgent` in the message catalogue).
 */
import { i18n } from '../i18n';

/** Browsers in the order to test them: Edge, Opera and Samsung Internet also say Chrome, and Chrome says Safari. */
const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\bVivaldi\/(\d+)/, 'Vivaldi'],
  [/\bHeadlessChrome\/(\d+)/, 'Headless Chrome'],
  [/\b(?:Chrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bChromium\/(\d+)/, 'Chromium'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\bVersion\/(\d+)(?:[.\d]*)? (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function describeUserAgent(userAgent: string | null): string {
  const ua = userAgent?.trim() ?? '';
  if (!ua) return i18n.t('userAgent.unknown');
  const system = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1];
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (!match) continue;
    // Safari's own version says little to people (it follows the system's); the others' does.
    const browser = name === 'Safari' ? name : `${name} ${match[1]}`;
    return system ? i18n.t('userAgent.browserOn', { browser, system }) : browser;
  }
  const product = /^([A-Za-z][\w.-]*)(?:\/([\w.-]+))?/.exec(ua);
  if (product && product[1] !== 'Mozilla') return product[2] ? `${product[1]} ${product[2]}` : product[1]!;
  return system ? i18n.t('userAgent.aBrowserOn', { system }) : i18n.t('userAgent.unknown');
}
