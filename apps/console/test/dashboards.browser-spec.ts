import type { Browser, Page } from 'playwright-core';
import { checkAtEachSize, endsCleanly, launch, newPage, watch } from './support/browser';
import { startMailbox, verificationLink } from './support/mailbox';
import { lpp } from './support/payloads';
import { type Account, account, call, SECRETS, type Service, startService } from './support/service';

/*
 * Dashboards in Chromium against the built service (docs/api.md §21). Alice, acting in her
 * organisation, builds a dashboard with one widget of each kind from uplinks ingested through
 * /ingest/rest — a latest-value tile, a gauge, a chart of two devices, a map of their tracks, an
 * alert list — saves it, and sees the tile and the gauge change live when a new uplink arrives. She
 * shares it with every member; Bob, a viewer of the organisation, sees it read-only: no Edit, no
 * Delete, no New dashboard. Each page is screenshotted at 1366×768 and 390×844 and scanned with axe.
 */

const FREEZER = '70B3D57ED0D0A001';
const VAN = '70B3D57ED0D0A002';
const CAYENNE = 2;
const BOUND = { timeout: 20_000 };

describe('dashboards in the console, in Chromium', () => {
  let svc: Service;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let alicePage: Page;
  let fcnt = 0;
  const problems: string[] = [];
  const suffix = Math.random().toString(16).slice(2, 8);
  const ORG = `cold-${suffix}`;

  const ingest = (eui: string, temperature: number, lat: number, lon: number, at: number) =>
    call(svc.url, 'POST', '/ingest/rest', {
      body: [{ devEUI: eui, port: 1, payload_hex: lpp(temperature, lat, lon), fcnt: ++fcnt, time_stamp_unix: at }],
      headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET },
      expect: 202,
    });
  /** A session cookie of the person, for the calls the console would make (Origin: the service's, as a browser sends it). */
  const session = async (who: Account) => {
    const res = await fetch(`${svc.url}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: who.username, password: who.password }),
    });
    const cookie = res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .find((c) => c.startsWith('dts_session='))!;
    return (organisation?: string) => ({ Cookie: cookie, Origin: svc.url, ...(organisation ? { 'X-Organisation': organisation } : {}) });
  };
  const signedIn = async (who: Account) => {
    const p = await newPage(browser);
    problems.push(...watch(p));
    // No tiles: the tile server cannot be reached, as offline (the bundled base map is drawn instead).
    await p.context().route('https://tile.openstreetmap.org/**', (route) => route.abort('internetdisconnected'));
    await p.goto(`${svc.url}/console/`);
    await p.getByLabel('Username or e-mail').fill(who.username);
    await p.getByLabel('Password').fill(who.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.locator('[data-live="live"]').waitFor(BOUND);
    await p.getByLabel('Act in').selectOption(ORG);
    await p.getByRole('heading', { name: 'Overview', level: 1 }).waitFor(BOUND);
    return p;
  };
  const openDashboards = async (p: Page) => {
    await p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboards', exact: true }).click();
    await p.getByRole('heading', { name: 'Dashboards', level: 1 }).waitFor(BOUND);
  };
  const widget = (p: Page, title: string) => p.getByRole('region', { name: title, exact: true });

  beforeAll(async () => {
    mailbox = await startMailbox();
    svc = await startService((url) => ({ SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, PUBLIC_BASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' }));
    [alice, bob] = await Promise.all([account(svc.url, `alice_d${suffix}`), account(svc.url, `bob_d${suffix}`)]);
    const link = verificationLink(await mailbox.waitFor(`${bob.username}@example.org`, 'Verify your e-mail address'));
    await call(svc.url, 'POST', '/auth/verify', { body: { token: link.split('#token=')[1] }, expect: 200 });

    // Alice's organisation, with Bob a viewer of it.
    const as = await session(alice);
    const org = (await call<{ id: number }>(svc.url, 'POST', '/org', { body: { name: ORG }, headers: as(), expect: 201 })).data;
    await call(svc.url, 'POST', `/org/${org.id}/member`, { body: { username: bob.username, role: 'viewer' }, headers: as(), expect: 201 });
    const bobAs = await session(bob);
    const [invitation] = (await call<{ uid: number }[]>(svc.url, 'GET', '/user/invitation', { headers: bobAs(), expect: 200 })).data;
    await call(svc.url, 'POST', `/user/invitation/${invitation!.uid}/accept`, { headers: bobAs(), expect: 200 });

    // Its devices, their uplinks over the last hour, and a rule that raises an alert.
    for (const [eui, label] of [
      [FREEZER, 'Freezer'],
      [VAN, 'Delivery van'],
    ] as const) {
      await call(svc.url, 'POST', `/user/device/${eui}`, { body: { label, decoder_ref: CAYENNE }, headers: as(ORG), expect: 201 });
    }
    await call(svc.url, 'POST', '/user/rule', {
      body: { name: 'Too warm', kind: 'threshold', member: 'temperature', above: 30 },
      headers: as(ORG),
      expect: 201,
    });
    const now = Math.floor(Date.now() / 1000);
    for (let i = 0; i < 6; i++) {
      await ingest(FREEZER, -18 + i * 0.5, 52.37, 4.89, now - 3000 + i * 480);
      await ingest(VAN, 4 + i * 6, 52.3 + i * 0.02, 4.6 + i * 0.04, now - 2900 + i * 480);
    }
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));
  afterAll(() => mailbox?.close());

  it('builds a dashboard with a widget of each kind from the ingested uplinks, in the organisation', async () => {
    alicePage = await signedIn(alice);
    const p = alicePage;
    await openDashboards(p);
    await p.getByText('No dashboard yet: make the first one.').waitFor(BOUND);
    const create = p.locator('#new-dashboard');
    await create.getByRole('button', { name: 'Create and add widgets' }).click();
    await create.locator('.field-error').waitFor(BOUND);
    await create.getByLabel('Name', { exact: true }).fill('Cold chain');
    await create.getByRole('button', { name: 'Create and add widgets' }).click();
    await p.getByRole('heading', { name: 'Cold chain', level: 1 }).waitFor(BOUND);

    // An empty dashboard opens the widget form: a latest value of the freezer's temperature.
    const form = () => p.getByRole('region', { name: /^(Add a widget|Change )/ });
    const add = async (kind: string, fill: () => Promise<void>) => {
      if (!(await form().isVisible())) await p.getByRole('button', { name: 'Add widget' }).click();
      await form().getByRole('radio', { name: kind, exact: true }).check();
      await fill();
      await form().getByRole('button', { name: 'Add to the dashboard' }).click();
      await form().waitFor({ state: 'detached' });
    };
    await add('Latest value', async () => {
      await form()
        .getByRole('radio', { name: /Freezer/ })
        .check();
      await form()
        .getByText(/The latest uplinks carry Temperature/)
        .waitFor(BOUND);
      await form().getByLabel('Measurement', { exact: true }).fill('temperature');
    });
    await add('Gauge', async () => {
      await form()
        .getByRole('radio', { name: /Delivery van/ })
        .check();
      await form().getByLabel('Measurement', { exact: true }).fill('temperature');
      // Checked before anything is sent.
      await form().getByLabel('Lowest value').fill('50');
      await form().getByLabel('Highest value').fill('40');
      await form().getByRole('button', { name: 'Add to the dashboard' }).click();
      await form().getByText('The highest value must be above the lowest.').waitFor();
      await form().getByLabel('Lowest value').fill('-20');
    });
    await add('Chart', async () => {
      await form().getByLabel('Title (optional)').fill('Temperatures');
      await form()
        .getByRole('checkbox', { name: /Freezer/ })
        .check();
      await form()
        .getByRole('checkbox', { name: /Delivery van/ })
        .check();
      await form().getByRole('checkbox', { name: 'Temperature', exact: true }).check();
      await form().getByLabel('Period').selectOption('6h');
    });
    await add('Map', async () => {
      await form()
        .getByRole('checkbox', { name: /Freezer/ })
        .check();
      await form()
        .getByRole('checkbox', { name: /Delivery van/ })
        .check();
    });
    await add('Alert list', async () => undefined);

    // Arranged from the keyboard: the alert list one column right and taller.
    const alerts = p.getByRole('listitem', { name: /^Alert list: Active alerts/ });
    await alerts.focus();
    await p.keyboard.press('Shift+ArrowDown');
    await p.getByRole('status').filter({ hasText: 'Resized: Active alerts is now at' }).waitFor();
    // And with the mouse, by a widget's head: one row down.
    const head = p.getByRole('listitem', { name: /^Latest value: Temperature of Freezer/ }).locator('.dash-drag');
    // At the top of the page, clear of the header that stays on top while the page scrolls.
    await p.evaluate(() => window.scrollTo(0, 0));
    const box = (await head.boundingBox())!;
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await p.mouse.down();
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 50, { steps: 4 });
    await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2 + 90, { steps: 4 });
    await p.mouse.up();
    await p.getByRole('status').filter({ hasText: 'Moved: Temperature of Freezer is now at column 1, row 2, 3 columns wide, 2 rows high.' }).waitFor();
    await checkAtEachSize(p, 'dashboard-editor');
    await p.getByRole('button', { name: 'Save dashboard' }).click();
    await p.getByText('Dashboard Cold chain saved.').waitFor(BOUND);

    // Each widget live, from the uplinks.
    await widget(p, 'Temperature of Freezer').getByTestId('latest-value').filter({ hasText: '-15.5' }).waitFor(BOUND);
    const gauge = widget(p, 'Temperature of Delivery van').getByRole('meter', { name: 'Temperature of Delivery van' });
    await gauge.waitFor(BOUND);
    expect(await gauge.getAttribute('aria-valuenow')).toBe('34');
    expect(await gauge.getAttribute('aria-valuetext')).toBe('34 °C, on a scale from -20 to 40 °C');
    await widget(p, 'Temperatures').locator('figure.chart').waitFor(BOUND);
    expect(Number(await widget(p, 'Temperatures').locator('figure.chart').getAttribute('data-points'))).toBeGreaterThanOrEqual(6);
    await widget(p, 'Tracks').locator('.leaflet-container').waitFor(BOUND);
    await widget(p, 'Active alerts')
      .getByRole('link', { name: /Delivery van/ })
      .first()
      .waitFor(BOUND);

    const stored = (await call<{ widgets: { kind: string }[] }[]>(svc.url, 'GET', '/user/dashboard', { headers: (await session(alice))(ORG), expect: 200 }))
      .data;
    expect(stored.map((d) => d.widgets.map((w) => w.kind))).toEqual([['latest', 'gauge', 'chart', 'map', 'alerts']]);
    await checkAtEachSize(p, 'dashboard');
  });

  it('changes the tile and the gauge live when a new uplink arrives, without a reload', async () => {
    const p = alicePage;
    await ingest(FREEZER, -12.5, 52.37, 4.89, Math.floor(Date.now() / 1000));
    await widget(p, 'Temperature of Freezer').getByTestId('latest-value').filter({ hasText: '-12.5' }).waitFor(BOUND);
    await ingest(VAN, 12, 52.4, 4.9, Math.floor(Date.now() / 1000));
    await p.getByRole('meter', { name: 'Temperature of Delivery van' }).and(p.locator('[aria-valuenow="12"]')).waitFor(BOUND);
  });

  it('shares it with every member: Bob, a viewer, sees it read-only', async () => {
    const p = alicePage;
    await p.getByRole('button', { name: 'Edit' }).click();
    await p.getByLabel('Who sees it').selectOption('viewer');
    await p.getByRole('button', { name: 'Save dashboard' }).click();
    await p.getByText('Dashboard Cold chain saved.').waitFor(BOUND);
    await openDashboards(p);
    await p.getByText('Shared with every member').waitFor(BOUND);
    await checkAtEachSize(p, 'dashboards');

    const bobPage = await signedIn(bob);
    await openDashboards(bobPage);
    const row = bobPage.locator('.dash-list li', { hasText: 'Cold chain' });
    await row.getByText('Read-only').waitFor(BOUND);
    expect(await row.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    expect(await bobPage.getByRole('button', { name: 'Create and add widgets' }).count()).toBe(0);
    await checkAtEachSize(bobPage, 'dashboards-viewer');
    await row.getByRole('link', { name: 'Cold chain' }).click();
    await bobPage.getByRole('heading', { name: 'Cold chain', level: 1 }).waitFor(BOUND);
    await widget(bobPage, 'Temperature of Freezer').getByTestId('latest-value').filter({ hasText: '-12.5' }).waitFor(BOUND);
    await widget(bobPage, 'Temperatures').locator('figure.chart').waitFor(BOUND);
    expect(await bobPage.getByRole('button', { name: 'Edit' }).count()).toBe(0);
    await bobPage.getByText(/read-only/).waitFor();
    await checkAtEachSize(bobPage, 'dashboard-viewer');
    await bobPage.close();
  });
});
