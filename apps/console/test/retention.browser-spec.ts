import type { AccountWire, DeviceMetaWire } from '@dts/domain';
import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { checkAtEachSize, endsCleanly, launch, SCREENSHOTS, signedInPage, VIEWPORTS } from './support/browser';
import { type Account, account, call, SECRETS, type Service, startService } from './support/service';

/*
 * Retention of raw uplinks in the console, in Chromium against the built service (docs/api.md §5,
 * "Retention"): an administrator sets an account's retention in the accounts table (the service's
 * refusal shown at the field); the owner sees it on the device's Settings and gives the device a
 * shorter one (a longer one refused, saying why), and the Uplinks tab says where raw history
 * begins; a user the device is shared with sees the policy but no control; the account page shows
 * what is in force. Each changed page is screenshotted at 1366×768 and 390×844 into
 * tmp/console-screenshots and scanned with axe-core (no serious or critical violation).
 */

const EUI = '70B3D57ED0C0DA7A';
const ADMIN = { username: 'retention_console_admin', password: 'retention-console-admin-01' };
const DAY = 86_400;

describe('retention in the console, in Chromium', () => {
  let svc: Service;
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  const problems: string[] = [];
  const as = (who: Account) => ({ Authorization: `Bearer ${who.token}` });
  const meta = async (who: Account) => (await call<DeviceMetaWire[]>(svc.url, 'GET', `/user/device/meta/${EUI}`, { headers: as(who), expect: 200 })).data[0]!;

  const check = (name: string, page: Page) => checkAtEachSize(page, name);
  const signedIn = (who: { username: string; password: string }, path: string) => signedInPage(browser, `${svc.url}${path}`, who, problems);

  beforeAll(async () => {
    svc = await startService({ ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, RATE_LIMIT_PER_MINUTE: '1000000' });
    [alice, bob] = await Promise.all([account(svc.url, 'alice_r'), account(svc.url, 'bob_r')]);
    await call(svc.url, 'POST', `/user/device/${EUI}`, { body: { label: 'River gauge', decoder_ref: 2 }, headers: as(alice), expect: 201 });
    await call(svc.url, 'POST', `/user/device/share/${EUI}`, { body: { username: bob.username }, headers: as(alice), expect: 201 });
    // A reading a day over the last five days (LPP temperature on channel 1).
    const now = Math.floor(Date.now() / 1000);
    const items = [1, 2, 3, 4, 5].map((k) => ({
      devEUI: EUI,
      port: 1,
      payload_hex: `0167${(200 + k).toString(16).padStart(4, '0')}`,
      time_stamp_unix: now - k * DAY,
      fcnt: k,
    }));
    await call(svc.url, 'POST', '/ingest/rest', { body: items, headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET }, expect: 202 });
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));

  it('an administrator sets an account’s retention in the accounts table; a refusal is shown at the field and stores nothing', async () => {
    const admin = await signedIn(ADMIN, '/console/admin');
    try {
      await admin.getByRole('heading', { name: 'Administration' }).waitFor();
      const row = admin.getByRole('form', { name: `Retention of ${alice.username}` });
      const field = row.getByLabel('Raw uplinks (days)');
      await row.locator('[data-retention-effective="forever"]', { hasText: 'kept forever (platform default)' }).waitFor();

      await field.fill('ten');
      await row.getByRole('button', { name: 'Save' }).click();
      await row.locator('.field-error', { hasText: 'whole number of days' }).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect((await call<AccountWire>(svc.url, 'GET', '/user', { headers: as(alice), expect: 200 })).data.uplink_retention_effective_days).toBeNull();

      await field.fill('30');
      await row.getByRole('button', { name: 'Save' }).click();
      await row.locator('[data-retention-effective="30"]', { hasText: 'Saved: kept 30 days' }).waitFor();
      expect(await field.getAttribute('aria-invalid')).toBeNull();
      expect((await call<AccountWire>(svc.url, 'GET', '/user', { headers: as(alice), expect: 200 })).data.uplink_retention_effective_days).toBe(30);
      await check('admin-retention', admin);
      // On a phone the accounts table scrolls sideways: the retention column, scrolled to.
      await admin.setViewportSize(VIEWPORTS[1]);
      await field.scrollIntoViewIfNeeded();
      await admin.screenshot({ path: join(SCREENSHOTS, 'admin-retention-column-390x844.png') });
    } finally {
      await admin.context().close();
    }
  }, 90_000);

  it('the owner sees the policy on the device, is refused a longer one saying why, and shortens it; the Uplinks tab says where raw history begins', async () => {
    const page = await signedIn(alice, `/console/devices/${EUI}/settings`);
    try {
      const card = page.locator('#retention');
      await card.locator('[data-retention-effective="30"]', { hasText: '30 days (the account’s)' }).waitFor();
      expect(await card.locator('[data-data-first]').getAttribute('data-data-first')).toBe(String((await meta(alice)).ts_data_first_unix));
      const field = card.getByLabel('This device’s own (days)');
      expect(await card.getByText('at most 30 days (the account’s)').count()).toBe(1);

      await field.fill('45');
      await card.getByRole('button', { name: 'Save the retention' }).click();
      await card.getByText('a device may only shorten its account’s retention of 30 days').waitFor();
      expect(await field.getAttribute('aria-invalid')).toBe('true');
      expect((await meta(alice)).uplink_retention_days).toBeNull();
      await check('device-retention-refused', page);

      await field.fill('7');
      await card.getByRole('button', { name: 'Save the retention' }).click();
      await card.getByRole('status').filter({ hasText: 'Saved: raw uplinks are kept 7 days.' }).waitFor();
      await card.locator('[data-retention-effective="7"]', { hasText: '7 days (this device’s own)' }).waitFor();
      expect(await meta(alice)).toMatchObject({ uplink_retention_days: 7, uplink_retention_effective_days: 7 });
      await check('device-retention', page);

      // The history's own answer says where raw history begins: a UTC midnight seven days back.
      await page.getByRole('link', { name: 'Uplinks', exact: true }).click();
      const note = page.locator('[data-raw-history-from]');
      await note.filter({ hasText: 'Raw uplinks are kept 7 days' }).waitFor();
      const table = await call(svc.url, 'GET', `/user/device/table/${EUI}?limit=1`, { headers: as(alice), expect: 200 });
      const from = table.headers.get('X-Raw-History-From');
      expect(from).toMatch(/^\d+$/);
      expect(Number(from) % DAY).toBe(0);
      expect(await note.getAttribute('data-raw-history-from')).toBe(from);
      expect(await note.textContent()).toContain(`${new Date(Number(from) * 1000).toISOString().slice(0, 19).replace('T', ' ')} UTC are removed`);
      await check('device-uplinks-retention', page);
    } finally {
      await page.context().close();
    }
  }, 90_000);

  it('a user the device is shared with sees the policy but no control; the account page shows what is in force', async () => {
    const shared = await signedIn(bob, `/console/devices/${EUI}/settings`);
    try {
      const card = shared.locator('#retention');
      await card.locator('[data-retention-effective="7"]').waitFor();
      await card.getByText('Only the device’s owner may shorten it.').waitFor();
      expect(await card.getByLabel('This device’s own (days)').count()).toBe(0);
    } finally {
      await shared.context().close();
    }

    const page = await signedIn(alice, '/console/account');
    try {
      const profile = page.locator('#profile');
      await profile.getByRole('heading', { name: 'Profile' }).waitFor();
      const fact = profile.locator('.fact', { hasText: 'Raw uplinks kept' });
      expect((await fact.locator('dd').textContent())?.trim()).toBe('30 days');
      await check('account-retention', page);
    } finally {
      await page.context().close();
    }
  }, 90_000);
});
