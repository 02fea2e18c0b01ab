import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { type AxeViolation, launch, endsCleanly, newPage, snapshot, watch } from './support/browser';
import { type Account, account, call, SECRETS, seedDevices, type Service, startService } from './support/service';
import { lpp } from './support/payloads';

/*
 * The console in a real browser (Debian's Chromium through playwright-core) against the built
 * service on a fresh database: what a person does, seen as a person sees it. Every page is
 * screenshotted into tmp/console-screenshots and scanned with axe-core (no serious or critical
 * violation); no page may log a script error or a CSP violation.
 */

const EUI = '70B3D57ED0C0FFEE';
const FLEET = 5_000;

describe('the web console in Chromium', () => {
  let svc: Service;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let alice: Account;
  let bob: Account;
  let fleet: Account;
  let fcnt = 0;
  const scans: Record<string, AxeViolation[]> = {};

  /** Screenshot and accessibility scan of the page as it is now. */
  const check = async (name: string, on: Page = page) => {
    scans[name] = await snapshot(on, name);
    expect({ page: name, violations: scans[name] }).toEqual({ page: name, violations: [] });
  };
  const ingest = (items: object[]) =>
    call(svc.url, 'POST', '/ingest/rest', { body: items, headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET }, expect: 202 });
  const signIn = async (who: Account, on: Page = page, password = who.password) => {
    await on.getByLabel('Username or e-mail').fill(who.username);
    await on.getByLabel('Password').fill(password);
    await on.getByRole('button', { name: 'Sign in' }).click();
  };

  beforeAll(async () => {
    svc = await startService({ ACCOUNT_MAX_DEVICES: String(FLEET + 10), RATE_LIMIT_PER_MINUTE: '1000000' });
    [alice, bob, fleet] = await Promise.all([account(svc.url, 'alice'), account(svc.url, 'bob'), account(svc.url, 'fleet')]);
    browser = await launch();
    page = await newPage(browser);
    problems = watch(page);
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));

  it('sends a browser from / to the console, which asks to sign in and offers registering and a password reset', async () => {
    await page.goto(`${svc.url}/`);
    await page.waitForURL(/\/console\/sign-in\?next=/);
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    await check('sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account' }).waitFor();
    await check('register');
    await page.getByRole('link', { name: 'I have an account' }).click();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('E-mail of the account').fill('nobody@example.org');
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText(/If an account has this address/).waitFor();
    await check('forgot-password');
  });

  it('signs in, shows the overview, and registers a device', async () => {
    await page.goto(`${svc.url}/console/sign-in`);
    await signIn(alice, page, 'wrong password!');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/wrong password/);
    await signIn(alice);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.locator('[data-live="live"]').waitFor();
    await check('overview');

    await page.getByRole('link', { name: 'Devices', exact: true }).click();
    await page.getByRole('button', { name: 'Register a device' }).click();
    const dialog = page.getByRole('dialog', { name: 'Register a device' });
    await dialog.getByLabel('EUI').fill('70-b3-d5-7e-d0-c0-ff');
    await dialog.getByRole('button', { name: 'Register' }).click();
    await dialog.getByText('16 hexadecimal digits, with or without').waitFor();
    await dialog.getByLabel('EUI').fill(EUI.toLowerCase());
    await dialog.getByLabel('Label').fill('Test bike');
    await dialog.getByLabel('Decoder').selectOption({ label: 'Cayenne LPP' });
    await dialog.getByLabel('Folder').fill('browser');
    await dialog.getByLabel('Tags').fill('blue, fast');
    await check('register-device');
    await dialog.getByRole('button', { name: 'Register' }).click();
    await page.waitForURL(new RegExp(`/console/devices/${EUI}$`));
    await page.getByRole('heading', { name: 'Test bike' }).waitFor();
    const meta = (
      await call<{ folder: string; tags: string[]; decoder_ref: number }[]>(svc.url, 'GET', `/user/device/meta/${EUI}`, {
        headers: { Authorization: `Bearer ${alice.token}` },
      })
    ).data[0];
    expect(meta).toMatchObject({ folder: 'browser', tags: ['blue', 'fast'], decoder_ref: 2 });
  });

  it('shows an uplink posted through /ingest/rest live: a new row, a new chart point and the track on the map, without a reload', async () => {
    const now = Math.floor(Date.now() / 1000);
    await ingest([{ devEUI: EUI, port: 1, payload_hex: lpp(18.5, 52.3581, 4.8686), fcnt: ++fcnt, time_stamp_unix: now - 600, RSSI: -80, SNR: 7, SF: 8 }]);
    await page.reload();
    const rows = page.locator('#live-uplinks tbody tr[aria-rowindex]');
    await rows.first().waitFor();
    const chart = page.locator('#chart figure.chart');
    await chart.waitFor();
    const points = Number(await chart.getAttribute('data-points'));
    expect(points).toBe(1);
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => frame === page.mainFrame() && navigations.push(frame.url()));

    // Nine minutes later (another chart bucket), further along the path.
    await ingest([{ devEUI: EUI, port: 1, payload_hex: lpp(19.25, 52.3597, 4.8736), fcnt: ++fcnt, time_stamp_unix: now - 60 }]);
    await page.locator('#live-uplinks tbody tr[aria-rowindex]').nth(1).waitFor();
    expect(await rows.first().textContent()).toContain('temperature_1: 19.3');
    await page.waitForFunction(() => Number(document.querySelector('#chart figure.chart')?.getAttribute('data-points')) === 2, undefined, { timeout: 15_000 });
    await page.waitForFunction(() => Number(document.querySelector('#map .map')?.getAttribute('data-track-points')) >= 2, undefined, { timeout: 15_000 });
    expect(await page.locator('#map path.leaflet-interactive').count()).toBeGreaterThanOrEqual(2);
    expect(navigations).toEqual([]);
    await check('device-live');
  });

  it('sends a command and shows its status change live', async () => {
    await page.getByRole('link', { name: 'Commands', exact: true }).click();
    await page.getByLabel('Payload').fill('CAFE');
    await page.getByLabel('FPort').fill('7');
    await page.getByRole('button', { name: 'Send raw downlink' }).click();
    const status = page.locator('#commands [data-command-status]').first();
    await status.waitFor();
    // The worker hands it to the simulated network: Scheduled, pushed through the live feed.
    await page.locator('#commands [data-command-status="Scheduled"]').waitFor({ timeout: 20_000 });
    const [command] = (
      await call<{ uid: number; status: string }[]>(svc.url, 'GET', `/user/device/command/${EUI}`, { headers: { Authorization: `Bearer ${alice.token}` } })
    ).data;
    await call(svc.url, 'POST', '/ingest/ttn', {
      body: { correlation_ids: [`dts:command:${command.uid}`], downlink_sent: { f_port: 7 } },
      headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET },
      expect: 202,
    });
    await page.locator('#commands [data-command-status="Sent"]').waitFor({ timeout: 15_000 });
    // A named command's form is built from the device's parameter schemas: an LPP device has none, so only raw.
    expect(await page.getByLabel('Command').locator('option').count()).toBeGreaterThanOrEqual(1);
    await check('device-commands');

    // A longer history comes in pages of 100 as the list is scrolled: the first command (CAFE) is on the second.
    for (let i = 0; i < 11; i++) {
      await Promise.all(
        Array.from({ length: 10 }, () =>
          call(svc.url, 'POST', `/user/device/command/${EUI}`, {
            body: { port: 9, payload_hex: '01' },
            headers: { Authorization: `Bearer ${alice.token}` },
            expect: 201,
          }),
        ),
      );
    }
    await page.reload();
    const scroller = page.locator('#commands .table-scroll');
    await scroller.waitFor();
    const first = page.locator('#commands tbody tr', { hasText: 'CAFE' });
    // Scrolled to the end on every poll until the row has come (each scroll may load one more page).
    await page.waitForFunction(
      () => {
        const el = document.querySelector('#commands .table-scroll')!;
        el.scrollTo(0, el.scrollHeight);
        return [...document.querySelectorAll('#commands tbody tr')].some((tr) => tr.textContent?.includes('CAFE'));
      },
      undefined,
      { polling: 150, timeout: 15_000 },
    );
    await first.waitFor();
    expect(await first.locator('[data-command-status]').getAttribute('data-command-status')).toBe('Sent');

    // Only what waits to leave, as the network's queue: a command that leaves goes from the list live.
    await page.getByLabel('Show').selectOption('waiting');
    await scroller.evaluate((el) => el.scrollTo(0, 0));
    const [newest] = (
      await call<{ uid: number }[]>(svc.url, 'GET', `/user/device/command/${EUI}?limit=1`, { headers: { Authorization: `Bearer ${alice.token}` } })
    ).data;
    const newestRow = page.getByRole('button', { name: `Cancel command ${newest.uid}`, exact: true });
    await newestRow.waitFor();
    expect(await page.locator('#commands [data-command-status="Sent"]').count()).toBe(0);
    await call(svc.url, 'POST', '/ingest/ttn', {
      body: { correlation_ids: [`dts:command:${newest.uid}`], downlink_sent: { f_port: 9 } },
      headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET },
      expect: 202,
    });
    await newestRow.waitFor({ state: 'detached', timeout: 15_000 });
    // The rest still wait (Created, or Scheduled once the worker has handed them to the network).
    const statuses = await page.locator('#commands [data-command-status]').evaluateAll((els) => els.map((e) => e.getAttribute('data-command-status')));
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status !== 'Created' && status !== 'Scheduled')).toEqual([]);
    expect(await newestRow.count()).toBe(0);
    await check('device-commands-waiting');
    await page.getByLabel('Show').selectOption('all');
  });

  it('lists the uplinks and exports them as CSV', async () => {
    await page.getByRole('link', { name: 'Uplinks', exact: true }).click();
    await page.locator('#uplinks tbody tr[aria-rowindex]').nth(1).waitFor();
    await check('device-uplinks');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`${EUI}-table.csv`);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\n');
    expect(csv[0]).toMatch(/^uplink\.uid,/);
    expect(csv).toHaveLength(3);
    await page.getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByLabel('Installation latitude').fill('52.36');
    await page.getByLabel('Installation longitude').fill('4.87');
    // Exact: the Data retention card beside it has "Save the retention".
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await check('device-settings');
  });

  it('draws every device on the map overview, and a click opens the device', async () => {
    await page.getByRole('link', { name: 'Map', exact: true }).click();
    await page.locator('.map[data-markers="1"]').waitFor();
    await page.locator('.map path.leaflet-interactive').first().click({ force: true });
    await page.waitForURL(new RegExp(`/console/devices/${EUI}$`));
    // The screenshot after the click: a full-page screenshot resizes the viewport under the map,
    // and Chromium's emulated resize back was seen to leave the markers drawn at the map's corner,
    // where a click at the marker misses it.
    await page.goBack();
    await page.locator('.map[data-markers="1"]').waitFor();
    await check('map');
  });

  it('filters and sorts 5,000 devices, scrolling through pages of them', async () => {
    const started = Date.now();
    await seedDevices(svc, fleet, FLEET, (i) => ({
      eui: `70B3D57E${(0xa0000000 + i).toString(16).toUpperCase()}`,
      label: `Sensor ${String(i).padStart(4, '0')}`,
      folder: `zone-${i % 10}`,
      typeRef: i % 2 ? 3 : 1,
    }));
    process.stdout.write(`seeded ${FLEET} devices in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    const fleetPage = await newPage(browser);
    problems.push(...watch(fleetPage));
    try {
      await fleetPage.goto(`${svc.url}/console/devices`);
      await signIn(fleet, fleetPage);
      await fleetPage.getByText(`${FLEET.toLocaleString('en')} devices`).waitFor({ timeout: 20_000 });
      // Virtualised: a few dozen rows in the page, not 5,000.
      const rendered = await fleetPage.locator('tbody tr[aria-rowindex]').count();
      expect(rendered).toBeGreaterThan(5);
      expect(rendered).toBeLessThan(120);
      await check('devices-5000', fleetPage);

      // Sorted by label (the default) then, clicked, descending: the last sensor first.
      expect(await fleetPage.getByRole('columnheader', { name: 'Device' }).getAttribute('aria-sort')).toBe('ascending');
      await fleetPage.getByRole('button', { name: 'Device', exact: true }).click();
      await fleetPage.waitForURL(/sort=-label/);
      await fleetPage.locator('tbody tr[aria-rowindex="2"]', { hasText: 'Sensor 4999' }).waitFor();
      expect(await fleetPage.getByRole('columnheader', { name: 'Device' }).getAttribute('aria-sort')).toBe('descending');

      // Scrolled to the end: further pages come as the rows near the end.
      // Scrolled to the end on every poll until the last sensor's row has come (a page per scroll at most).
      await fleetPage.waitForFunction(
        () => {
          const el = document.querySelector('.table-scroll')!;
          el.scrollTo(0, el.scrollHeight);
          return [...document.querySelectorAll('tbody tr')].some((tr) => tr.textContent?.includes('Sensor 0000'));
        },
        undefined,
        { polling: 150, timeout: 30_000 },
      );
      await fleetPage.locator('tbody tr', { hasText: 'Sensor 0000' }).waitFor();

      // Filtered by folder and type and a text search, all by the service.
      await fleetPage.getByLabel('Search').fill('Sensor 12');
      await fleetPage.getByLabel('Folder').fill('zone-3');
      await fleetPage.getByLabel('Type').selectOption({ label: 'Sensor' });
      await fleetPage.getByLabel('Search').press('Enter');
      await fleetPage.waitForURL(/q=Sensor\+12.*folder=zone-3.*type=3/);
      // "Sensor 12…" in zone-3 (index ending in 3, odd: type Sensor): 1203, 1213, …, 1293.
      await fleetPage.getByText('10 devices match').waitFor();
      const labels = await fleetPage.locator('tbody tr[aria-rowindex] td:first-child').allTextContents();
      expect(labels.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `Sensor 12${i}3`));
      await check('devices-filtered', fleetPage);

      // A phone's width: the same list, readable.
      await fleetPage.setViewportSize({ width: 390, height: 844 });
      await check('devices-phone', fleetPage);
    } finally {
      await fleetPage.context().close();
    }
  }, 300_000);

  it('shows another account none of it', async () => {
    // One browser profile, one session cookie: sign out, then in as the other account.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await signIn(bob);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Devices', exact: true }).click();
    await page.getByText('0 devices').waitFor();
    await page.goto(`${svc.url}/console/devices/${EUI}`);
    await page.getByRole('heading', { name: 'Device not found' }).waitFor();
    await check('not-found');
  });

  it('returns to sign-in when the session ends, then back where it was', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(alice);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.goto(`${svc.url}/console/devices/${EUI}/uplinks`);
    await page.getByRole('heading', { name: 'Test bike' }).waitFor();
    // The password changes elsewhere (a master token): every session of the account ends.
    const password = `${alice.password}-new`;
    await call(svc.url, 'POST', '/auth/pwdchange', {
      body: { current_password: alice.password, new_password: password },
      headers: { Authorization: `Bearer ${alice.master}` },
      expect: 200,
    });
    await page.getByRole('link', { name: 'Commands', exact: true }).click();
    await page.waitForURL(/\/console\/sign-in\?next=%2Fdevices%2F70B3D57ED0C0FFEE%2Fcommands&expired=1/, { timeout: 20_000 });
    await page.getByText('Your session has ended').waitFor();
    await check('session-expired');
    await signIn(alice, page, password);
    await page.waitForURL(new RegExp(`/console/devices/${EUI}/commands$`));
    await page.locator('#commands [data-command-status]').first().waitFor();
  });
});
