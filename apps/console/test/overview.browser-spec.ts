import type { Browser, Page } from 'playwright-core';
import { checkAtEachSize, endsCleanly, launch, signedInPage, snapshot, watch } from './support/browser';
import { lpp } from './support/payloads';
import { type Account, account, call, SECRETS, type Service, startService } from './support/service';

/*
 * The overview and the shell around every page, in Chromium against the built service: the header
 * is one row on a laptop with the menu beside the page, and on a phone a menu button opens the menu
 * as a drawer (a page chosen, or Escape, closes it). The overview counts the devices (online,
 * silent, never seen), shows an alert raised by a real uplink live — in its card and the header's
 * bell — the delivery health, the recent activity and every device on the map with its track.
 * Screenshots at 1366×768 and 390×844 in tmp/console-screenshots, each scanned with axe-core.
 */

const EUIS = ['70B3D57ED0AB0001', '70B3D57ED0AB0002', '70B3D57ED0AB0003', '70B3D57ED0AB0004'];
const BOUND = { timeout: 20_000 };

describe('the overview and the shell, in Chromium', () => {
  let svc: Service;
  let browser: Browser;
  let alice: Account;
  let page: Page;
  const problems: string[] = [];
  const now = Math.floor(Date.now() / 1000);
  const ingest = (items: object[]) =>
    call(svc.url, 'POST', '/ingest/rest', { body: items, headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET }, expect: 202 });
  const as = () => ({ Authorization: `Bearer ${alice.token}` });

  beforeAll(async () => {
    svc = await startService({ RATE_LIMIT_PER_MINUTE: '1000000' });
    alice = await account(svc.url, `alice_ov${Math.random().toString(16).slice(2, 6)}`);
    const labels = ['Tractor 7', 'Cold store', 'Gate sensor', 'Spare tracker'];
    for (const [i, eui] of EUIS.entries())
      await call(svc.url, 'POST', `/user/device/${eui}`, { body: { label: labels[i], decoder_ref: 2 }, headers: as(), expect: 201 });
    // The tractor moves over the last hours (a track); the cold store is heard now; the gate two days ago (silent); the spare never.
    await ingest([
      ...[0, 1, 2, 3].map((k) => ({
        devEUI: EUIS[0],
        port: 1,
        payload_hex: lpp(12 + k, 52.52 + k * 0.004, 13.4 + k * 0.006),
        time_stamp_unix: now - (4 - k) * 900,
      })),
      { devEUI: EUIS[1], port: 1, payload_hex: lpp(4, 52.51, 13.38), time_stamp_unix: now - 120 },
      { devEUI: EUIS[2], port: 1, payload_hex: lpp(9, 52.53, 13.43), time_stamp_unix: now - 2 * 86_400 },
    ]);
    await call(svc.url, 'POST', '/user/rule', {
      body: { name: 'Cold store too warm', kind: 'threshold', member: 'temperature', above: 8, devices: { euis: [EUIS[1]] }, email: false },
      headers: as(),
      expect: 201,
    });
    browser = await launch();
    page = await signedInPage(browser, `${svc.url}/console/`, alice, problems);
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));

  it('keeps the header to one row on a laptop, with the menu beside the page by sections', async () => {
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    const header = (await page.locator('.topbar').boundingBox())!;
    expect(header.height).toBeLessThanOrEqual(56);
    const menu = page.getByRole('navigation', { name: 'Main' });
    const nav = (await menu.boundingBox())!;
    const main = (await page.locator('main').boundingBox())!;
    expect(nav.x + nav.width).toBeLessThanOrEqual(main.x + 1);
    expect(nav.y).toBeGreaterThanOrEqual(header.height - 1);
    for (const section of ['Monitor', 'Devices', 'Getting data in', 'Automation', 'Access'])
      await menu.getByRole('list', { name: section, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
  });

  it('counts the devices, lists the activity and draws every placed device with the tractor’s track', async () => {
    const figures = page.getByRole('list', { name: 'Account figures' });
    const figure = (label: string) =>
      figures.locator('li', { has: page.locator('.figure-label', { hasText: new RegExp(`^${label}$`) }) }).locator('.figure-value');
    await page.waitForFunction(() => document.querySelector('.figure-value')?.textContent === '4', null, BOUND);
    expect(await figure('Online').textContent()).toBe('2');
    expect(await figure('Silent for a day').textContent()).toBe('1');
    expect(await figure('Never seen').textContent()).toBe('1');
    const activity = page.locator('#overview-activity');
    await activity.locator('li[data-kind="seen"]', { hasText: 'Cold store' }).waitFor(BOUND);
    await activity.locator('li[data-kind="seen"]', { hasText: 'Gate sensor' }).waitFor(BOUND);
    // Three devices have a position; the tractor's four points are its track.
    await page.locator('#overview-map .map[data-markers="3"][data-track-points="4"]').waitFor(BOUND);
    await page.locator('#overview-deliveries', { hasText: 'No integration sends data out yet' }).waitFor();
  });

  it('shows an alert raised by an uplink live, in its card and the header’s bell, and in the activity', async () => {
    await page.locator('#overview-alerts', { hasText: 'no alert is active' }).waitFor(BOUND);
    await ingest([{ devEUI: EUIS[1], port: 1, payload_hex: lpp(11.5, 52.51, 13.38), time_stamp_unix: now - 30 }]);
    await page.locator('#overview-alerts li', { hasText: 'Cold store too warm' }).waitFor(BOUND);
    await page.getByRole('link', { name: '1 active alert' }).waitFor(BOUND);
    await page.locator('#overview-activity li[data-kind="alert"]', { hasText: 'alert raised' }).waitFor(BOUND);
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('.figure')].find((f) => f.textContent?.includes('Active alerts'))?.querySelector('.figure-value')?.textContent === '1',
      null,
      BOUND,
    );
    await checkAtEachSize(page, 'overview-live');
  });

  it('opens the menu from a button on a phone: a page chosen, or Escape, closes it', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      const header = (await page.locator('.topbar').boundingBox())!;
      expect(header.height).toBeLessThanOrEqual(56);
      const button = page.getByRole('button', { name: 'Menu' });
      const menu = page.getByRole('navigation', { name: 'Main' });
      expect(await menu.isVisible()).toBe(false);
      await button.click();
      expect(await button.getAttribute('aria-expanded')).toBe('true');
      await menu.getByRole('link', { name: 'Devices', exact: true }).waitFor();
      expect(await snapshot(page, 'menu-open-390x844')).toEqual([]);
      await menu.getByRole('link', { name: 'Devices', exact: true }).click();
      await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
      expect(await menu.isVisible()).toBe(false);
      await button.click();
      await menu.getByRole('link', { name: 'Overview', exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'hidden' });
      expect(await button.getAttribute('aria-expanded')).toBe('false');
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 });
    }
  });

  it('speaks German to a German browser, and switches language from the menu, kept across a reload', async () => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 }, timezoneId: 'UTC', locale: 'de-DE' });
    try {
      const german = await context.newPage();
      problems.push(...watch(german));
      // From the sign-in page on.
      await german.goto(`${svc.url}/console/`);
      await german.getByRole('heading', { name: 'Anmelden' }).waitFor(BOUND);
      await german.getByLabel('Benutzername oder E-Mail').fill(alice.username);
      await german.getByLabel('Passwort', { exact: true }).fill(alice.password);
      await german.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await german.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor(BOUND);
      expect(await german.evaluate(() => document.documentElement.lang)).toBe('de');
      const menu = german.getByRole('navigation', { name: 'Hauptmenü' });
      await menu.getByRole('link', { name: 'Geräte', exact: true }).waitFor();
      await menu.getByRole('list', { name: 'Automatisierung' }).waitFor();
      // Counts written as German readers do, times too.
      await german.locator('#overview-activity', { hasText: 'hat sich gemeldet' }).waitFor(BOUND);
      await german
        .locator('#overview-activity time', { hasText: /^vor \d+ (Min\.|Std\.|T\.)$/ })
        .first()
        .waitFor(BOUND);
      await checkAtEachSize(german, 'overview-de');

      await menu.getByLabel('Sprache').selectOption('en');
      await german.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      expect(await german.evaluate(() => document.documentElement.lang)).toBe('en');
      await german.reload();
      await german.getByRole('heading', { name: 'Overview', level: 1 }).waitFor(BOUND);
      await german.getByRole('navigation', { name: 'Main' }).getByLabel('Language').selectOption('de');
      await german.getByRole('heading', { name: 'Übersicht', level: 1 }).waitFor();
    } finally {
      await context.close();
    }
  });
});
