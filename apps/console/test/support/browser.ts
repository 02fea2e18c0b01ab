import { type Browser, chromium, type Page } from 'playwright-core';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './service';

/** Screenshots of every page, kept as artifacts of the run (git-ignored). */
export const SCREENSHOTS = join(ROOT, 'tmp', 'console-screenshots');

/**
 * Debian's Chromium, headless, with no background traffic to the (closed) network. Playwright
 * starts it on a fresh temporary profile (its own --user-data-dir); each account gets a context
 * of its own (its own cookies).
 */
export async function launch(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page in a context of its own: 1366×900, UTC, English, downloads kept. */
export async function newPage(browser: Browser): Promise<Page> {
  // English unless a test says otherwise: the console follows the browser's language (German is tested on its own).
  const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, acceptDownloads: true, timezoneId: 'UTC', locale: 'en-GB' });
  return context.newPage();
}

/** What a page reported that must not happen: script errors and Content-Security-Policy violations. */
export function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
  });
  return problems;
}

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * axe-core run inside the page (through the DevTools protocol, so the page's CSP, which forbids
 * inline scripts, stays as it is): the serious and critical violations.
 */
export async function axe(page: Page): Promise<AxeViolation[]> {
  const violations = (await page.evaluate(
    `(async () => { ${AXE}; const r = await axe.run(document, { resultTypes: ['violations'] }); return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => ({ target: n.target })) })); })()`,
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * The whole page as one picture, taken from the top: the header and the menu stick to the window,
 * so a page scrolled down would be drawn with its header in the middle. The scroll is put back.
 */
async function fullPageShot(page: Page, path: string): Promise<void> {
  const scrolled = await page.evaluate(() => {
    const y = window.scrollY;
    window.scrollTo(0, 0);
    return y;
  });
  await page.screenshot({ path, fullPage: true });
  await page.evaluate((y) => window.scrollTo(0, y), scrolled);
}

/** Screenshot of the whole page under tmp/console-screenshots, then the accessibility scan. */
export async function snapshot(page: Page, name: string): Promise<AxeViolation[]> {
  await fullPageShot(page, join(SCREENSHOTS, `${name}.png`));
  return axe(page);
}

/**
 * The hooks every browser suite ends with: after each test, no page may have logged a script
 * error or a CSP violation (`watch`); after all, the browser and the service are closed. `state`
 * is read when the hooks run, so the suite's variables may be assigned in its beforeAll.
 */
export function endsCleanly(state: () => { browser?: Browser; svc?: { stop(): Promise<void> }; problems: string[] }): void {
  afterEach(() => {
    expect(state().problems.splice(0)).toEqual([]);
  });
  afterAll(async () => {
    const { browser, svc } = state();
    await browser?.close();
    await svc?.stop();
  });
}

/** A laptop's and a phone's size: every page is looked at in both. */
export const VIEWPORTS = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
] as const;

/**
 * Screenshots at each of VIEWPORTS under tmp/console-screenshots (`<name>-<w>x<h>.png`), each
 * scanned with axe (no serious or critical violation); the page is left at the first size.
 */
export async function checkAtEachSize(page: Page, name: string): Promise<void> {
  for (const size of VIEWPORTS) {
    await page.setViewportSize(size);
    await fullPageShot(page, join(SCREENSHOTS, `${name}-${size.width}x${size.height}.png`));
    const violations = await axe(page);
    expect({ page: name, size, violations }).toEqual({ page: name, size, violations: [] });
  }
  await page.setViewportSize(VIEWPORTS[0]);
}

/** A page of its own, signed in through the console's sign-in form at `url`; what it reports goes to `problems`. */
export async function signedInPage(browser: Browser, url: string, who: { username: string; password: string }, problems: string[]): Promise<Page> {
  const page = await newPage(browser);
  problems.push(...watch(page));
  await page.goto(url);
  await page.getByLabel('Username or e-mail').fill(who.username);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('[data-live="live"]').waitFor();
  return page;
}
