import type { Browser, Page } from 'playwright-core';
import { join } from 'node:path';
import { type AxeViolation, launch, endsCleanly, newPage, SCREENSHOTS, snapshot, watch } from './support/browser';
import { type Account, account, call, SECRETS, type Service, startService } from './support/service';
import { lpp } from './support/payloads';

/*
 * What a person met in the console (issue 28, items 13–16), in Chromium against the built service:
 * the chart's time axis is the chosen window whatever data falls in it; a map follows live positions
 * until the person moves it, and shows the bundled base map when tiles cannot load (as here: the
 * tile server is unreachable); the photo upload offers camera traps only and picks the only one; the
 * administration page counts the cache entries its table lists; counts read "1 bucket", "1
 * position"; a Cayenne LPP GPS reading shows once in the Decoded column. Each page is screenshotted
 * (1366×768 and 390×844) into tmp/console-screenshots and scanned with axe-core.
 */

const TRACKER = '70B3D57ED0C1A001';
const CAMERA = '70B3D57ED0C1A0C1';
const SENSOR = '70B3D57ED0C1A051';
const ADMIN = { username: 'views_admin', password: 'views-admin-password-0123' };
/** Seeded device type 2 is Camera, decoder 2 Cayenne LPP. */
const CAMERA_TYPE = 2;
const CAYENNE = 2;
const BOUND = { timeout: 20_000 };

/**
 * Whether the newest position's marker (the last one filled in the track's colour) is drawn inside
 * the device map (`want` true) or not (false). Leaflet draws a marker outside the view as an empty
 * path ("M0 0", at the corner of its layer): that is not in view. Run in the page.
 */
function NEWEST_IN_VIEW(want: boolean): boolean {
  const map = document.querySelector('#map .map')!.getBoundingClientRect();
  const marker = [...document.querySelectorAll('#map path.leaflet-interactive[fill="#0f766e"]')].at(-1);
  const box = marker?.getBoundingClientRect();
  const x = box ? box.left + box.width / 2 : NaN;
  const y = box ? box.top + box.height / 2 : NaN;
  const inView = !!box && marker!.getAttribute('d') !== 'M0 0' && box.width > 0 && x >= map.left && x <= map.right && y >= map.top && y <= map.bottom;
  return inView === want;
}

describe('the console’s charts, maps and counts, in Chromium', () => {
  let svc: Service;
  let browser: Browser;
  let page: Page;
  let alice: Account;
  let fcnt = 0;
  const problems: string[] = [];
  const scans: Record<string, AxeViolation[]> = {};

  const as = (who: Account) => ({ Authorization: `Bearer ${who.token}` });
  const ingest = (eui: string, payload: string, at: number) =>
    call(svc.url, 'POST', '/ingest/rest', {
      body: [{ devEUI: eui, port: 1, payload_hex: payload, fcnt: ++fcnt, time_stamp_unix: at }],
      headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET },
      expect: 202,
    });
  /** Screenshots at a laptop's and a phone's size, then the accessibility scan. */
  const check = async (name: string, on: Page = page) => {
    for (const [w, h] of [
      [390, 844],
      [1366, 768],
    ] as const) {
      await on.setViewportSize({ width: w, height: h });
      await on.screenshot({ path: join(SCREENSHOTS, `${name}-${w}x${h}.png`), fullPage: true });
    }
    await on.setViewportSize({ width: 1366, height: 900 });
    scans[name] = await snapshot(on, name);
    expect({ page: name, violations: scans[name] }).toEqual({ page: name, violations: [] });
  };
  const signedIn = async (who: { username: string; password: string }, path: string) => {
    const p = await newPage(browser);
    problems.push(...watch(p));
    // No tiles: the tile server cannot be reached, as offline (CI has no network either; this makes it certain).
    await p.context().route('https://tile.openstreetmap.org/**', (route) => route.abort('internetdisconnected'));
    await p.goto(`${svc.url}/console/sign-in?next=${encodeURIComponent(path)}`);
    await p.getByLabel('Username or e-mail').fill(who.username);
    await p.getByLabel('Password').fill(who.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.locator('[data-live="live"]').waitFor(BOUND);
    return p;
  };

  beforeAll(async () => {
    svc = await startService({
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      RATE_LIMIT_PER_MINUTE: '1000000',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    });
    alice = await account(svc.url, 'views_alice');
    const register = (eui: string, body: object) => call(svc.url, 'POST', `/user/device/${eui}`, { body, headers: as(alice), expect: 201 });
    await register(TRACKER, { label: 'Ranger bike', decoder_ref: CAYENNE });
    await register(SENSOR, { label: 'Pond sensor' });
    await register(CAMERA, { label: 'Gate camera', type_ref: CAMERA_TYPE });
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));

  it('draws the chart’s time axis over the chosen window, whatever data falls in it', async () => {
    const now = Math.floor(Date.now() / 1000);
    await ingest(TRACKER, lpp(18.5, 52.3581, 4.8686), now - 600);
    page = await signedIn(alice, `/devices/${TRACKER}`);
    const chart = page.locator('#chart figure.chart[data-points="1"]');
    await chart.waitFor(BOUND);
    const axis = page.locator('#chart [data-x-min]');
    await axis.waitFor(BOUND);
    const span = async () => {
      const [min, max] = await Promise.all([axis.getAttribute('data-x-min'), axis.getAttribute('data-x-max')]);
      return { min: Number(min), max: Number(max) };
    };
    // One 5-minute bucket in 24 h: the axis is the 24 hours ending now, not the years around a point.
    const day = await span();
    // The window's start is the console's clock less 24 h, its end the service's clock when it answered.
    expect(day.max - day.min).toBeGreaterThanOrEqual(86_400);
    expect(day.max - day.min).toBeLessThan(86_400 + 120);
    expect(Math.abs(day.max - now)).toBeLessThan(300);
    await page.getByText('1 bucket of 5m from').waitFor(BOUND);
    expect(await page.locator('#chart figcaption').textContent()).not.toContain('1 buckets');

    // Two buckets in 1 h: the hour, not the minute between them.
    await ingest(TRACKER, lpp(18.9, 52.3581, 4.8686), now - 300);
    await page.locator('#chart label', { hasText: /^1h$/ }).click();
    await page.locator('#chart figure.chart[data-points="2"]').waitFor(BOUND);
    await page.waitForFunction(
      () => {
        const el = document.querySelector('#chart [data-x-min]');
        const width = el === null ? 0 : Number(el.getAttribute('data-x-max')) - Number(el.getAttribute('data-x-min'));
        return width >= 3_600 && width < 3_600 + 120;
      },
      undefined,
      BOUND,
    );
    await page.getByText('2 buckets of 1m from').waitFor(BOUND);
    await check('device-chart-window');
  });

  it('shows a Cayenne LPP GPS reading once in the Decoded column, and counts positions in words', async () => {
    const row = page
      .getByRole('table', { name: /Latest uplinks/ })
      .locator('tbody tr')
      .first();
    await row.waitFor(BOUND);
    const decoded = (await row.textContent()) ?? '';
    expect(decoded).toContain('lat: 52.3581');
    expect(decoded).toContain('lon: 4.8686');
    expect(decoded).not.toContain('gps_3');
    expect(decoded.match(/52\.3581/g)).toHaveLength(1);
    await page.getByText('2 positions in the last 24 hours.').waitFor(BOUND);
  });

  it('keeps the newest position in view as positions arrive live, until the person moves the map; Show all follows again', async () => {
    const now = Math.floor(Date.now() / 1000);
    const map = page.locator('#map .map');
    // Eastwards, each step further than the last view held: the view must follow every one.
    for (const [i, lon] of [4.92, 4.99, 5.08].entries()) {
      await ingest(TRACKER, lpp(19, 52.3581, lon), now - 200 + i);
      await page.locator(`#map .map[data-track-points="${3 + i}"]`).waitFor(BOUND);
      await page.waitForFunction(NEWEST_IN_VIEW, true, BOUND);
    }
    expect(await map.getAttribute('data-follow')).toBe('true');
    expect(await page.getByRole('button', { name: /^Show all/ }).isVisible()).toBe(false);
    // Without tiles a fit stops at a region's depth, where the base map's coastlines say where the track is.
    expect(await page.evaluate(() => document.querySelector('#map .map')!.getAttribute('data-tiles'))).toBe('failed');

    // The person drags the map: their view is kept when the next position comes.
    const box = (await map.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 120, box.y + box.height / 2 + 40, { steps: 8 });
    // Real time: the person holds the map still before letting go. Leaflet glides on after the
    // release with the speed of the last 50 ms of the drag, starting a frame later (so no class
    // says it is coming yet); held still, the view stays where the drag left it.
    await page.waitForTimeout(150);
    await page.mouse.up();
    await page.locator('#map .map[data-follow="false"]').waitFor(BOUND);
    const centre = await map.evaluate((el) => el.querySelector('.leaflet-map-pane')!.getAttribute('style'));
    await ingest(TRACKER, lpp(19.2, 52.3581, 7.5), now - 100);
    await page.locator('#map .map[data-track-points="6"]').waitFor(BOUND);
    await page.waitForFunction(NEWEST_IN_VIEW, false, BOUND);
    expect(await map.evaluate((el) => el.querySelector('.leaflet-map-pane')!.getAttribute('style'))).toBe(centre);

    await page.getByRole('button', { name: /^Show all/ }).click();
    await page.locator('#map .map[data-follow="true"]').waitFor(BOUND);
    await page.waitForFunction(NEWEST_IN_VIEW, true, BOUND);
  });

  it('draws the bundled base map on every map when the tiles cannot load', async () => {
    await page.locator('#map .map[data-base-layer="natural-earth"]').waitFor(BOUND);
    expect(await page.locator('#map .leaflet-dts-base-pane path').count()).toBeGreaterThan(0);
    await page.locator('#map .leaflet-control-attribution', { hasText: 'Natural Earth' }).waitFor(BOUND);
    // A phone's width: the map, following, keeps the newest position in view.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForFunction(NEWEST_IN_VIEW, true, BOUND);
    await page.setViewportSize({ width: 1366, height: 900 });
    await check('device-map-offline');

    await page.getByRole('link', { name: 'Map', exact: true }).click();
    await page.locator('.map[data-base-layer="natural-earth"]').waitFor(BOUND);
    await page.locator('.map[data-markers="1"]').waitFor(BOUND);
    await check('map-offline');

    await page.getByRole('link', { name: 'Fences', exact: true }).click();
    await page.locator('.fence-map[data-base-layer="natural-earth"]').waitFor(BOUND);
    await check('fences-offline');
  });

  it('offers camera traps only for a photo upload, and picks the only one', async () => {
    await page.getByRole('link', { name: 'Camera traps', exact: true }).click();
    const select = page.getByLabel('To camera');
    await select.locator(`option[value="${CAMERA}"]`).waitFor({ state: 'attached', ...BOUND });
    const options = await select.locator('option').evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value));
    expect(options).toEqual(['', CAMERA]);
    expect(await select.inputValue()).toBe(CAMERA);
    await check('camera-traps-upload');
  });

  it('counts on the administration page the cache entries its table lists', async () => {
    const admin = await signedIn(ADMIN, '/admin');
    try {
      await admin.getByRole('heading', { name: 'Administration' }).waitFor(BOUND);
      const figure = admin.locator('[data-cache-entries]');
      await figure.waitFor(BOUND);
      const rows = admin.locator('#cache tbody tr', { hasText: /70B3D57ED0C1A0/ });
      await rows.nth(2).waitFor(BOUND);
      expect(await figure.getAttribute('data-cache-entries')).toBe(String(await rows.count()));
      expect(await figure.textContent()).toBe('3');
      expect(await admin.locator('[data-cache-listed]').getAttribute('data-cache-listed')).toBe('3');
      await admin.getByText(/^3 entries: /).waitFor(BOUND);
      await check('admin-cache-counts', admin);
    } finally {
      await admin.context().close();
    }
  });
});
