import { CHIRPSTACK_UPLINK_SAMPLE, TTN_UPLINK_SAMPLE } from '@dts/domain';
import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { parseCurlCommand } from '../src/lib/ingest-setup';
import { join } from 'node:path';
import { checkAtEachSize, endsCleanly, launch, SCREENSHOTS, signedInPage } from './support/browser';
import { startMailbox, verificationLink } from './support/mailbox';
import { type Account, account, call, type Service, startService } from './support/service';

/*
 * Getting data in, in Chromium against the built service (issue 32): Alice adds networks on the
 * Networks page and reads their set-up; on her device's Connect tab she makes a key with the ingest
 * right, and every set-up shown there is sent as shown — the REST curl command, The Things Stack's
 * webhook fields and ChirpStack's HTTP integration with the networks' own sample messages, an HTTP
 * JSON network's example — each stored, the REST one seen arriving live. She simulates an uplink
 * from the page. The Gateways page shows the gateways of those messages in a table and on a map. Bob,
 * a viewer of her organisation, sees the set-ups without a control he cannot use. Each page is
 * screenshotted at 1366×768 and 390×844 into tmp/console-screenshots and scanned with axe-core.
 */

const EUI = '70B3D57ED0000A01';
const ORG_EUI = '70B3D57ED0000B02';

describe('getting data in: networks, a device’s set-up, simulated uplinks and gateways, in Chromium', () => {
  let svc: Service;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let page: Page;
  let ingestKey: string;
  const problems: string[] = [];
  const suffix = Math.random().toString(16).slice(2, 8);
  const ORG = `farm-${suffix}`;

  const menu = (p: Page) => p.getByRole('navigation', { name: 'Main' });
  const open = async (p: Page, label: string, heading: string) => {
    await menu(p).getByRole('link', { name: label, exact: true }).click();
    await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  /** The value a set-up shows for a setting, as the page has it. */
  const setting = (scope: ReturnType<Page['locator']>, name: string) => scope.locator(`code[data-setting="${name}"]`).innerText();
  const tableRows = async (eui: string) =>
    (
      await call<{ uplink: { network: string; port: number }; payload_hex: string }[]>(svc.url, 'GET', `/user/device/table/${eui}`, {
        headers: { Authorization: `Bearer ${alice.token}` },
      })
    ).data;
  /** Screenshots and axe at both sizes, and nothing wider than the phone's screen (a page that scrolls sideways). */
  const check = async (p: Page, name: string) => {
    await p.setViewportSize({ width: 390, height: 844 });
    expect({ name, width: await p.evaluate(() => document.documentElement.scrollWidth) }).toEqual({ name, width: 390 });
    await checkAtEachSize(p, name);
  };
  const post = async (url: string, headers: Record<string, string>, body: unknown) => {
    const res = await fetch(url, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, data: ((await res.json()) as { data: { accepted: number; rejected: unknown[] } }).data };
  };

  beforeAll(async () => {
    mailbox = await startMailbox();
    svc = await startService((url) => ({ SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, PUBLIC_BASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' }));
    [alice, bob] = await Promise.all([account(svc.url, `alice_n${suffix}`), account(svc.url, `bob_n${suffix}`)]);
    const link = verificationLink(await mailbox.waitFor(`${bob.username}@example.org`, 'Verify your e-mail address'));
    await call(svc.url, 'POST', '/auth/verify', { body: { token: link.split('#token=')[1] }, expect: 200 });
    // The Cayenne LPP decoder (2): what arrives is decoded.
    await call(svc.url, 'POST', `/user/device/${EUI}`, {
      body: { label: 'Meadow sensor', decoder_ref: 2 },
      headers: { Authorization: `Bearer ${alice.token}` },
      expect: 201,
    });
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));
  afterAll(() => mailbox?.close());

  it('adds networks on the Networks page, each with the route its uplinks take', async () => {
    page = await signedInPage(browser, `${svc.url}/console/`, alice, problems);
    await open(page, 'Networks', 'Networks');
    await page.getByText('No networks of your own yet').waitFor();
    const setUp = page.locator('#set-up');
    // The Things Stack's set-up is there before any network: every account's uplinks take the same route.
    expect(await setting(setUp, 'Base URL')).toBe(`${svc.url}/ingest/ttn`);
    await check(page, 'networks-empty');

    const form = page.locator('#add-network');
    await form.getByLabel('Kind').selectOption('ttn');
    await form.getByLabel('Name', { exact: true }).fill('Farm TTS');
    await form.getByLabel('The Things Stack address').fill('https://8.8.4.4');
    await form.getByLabel('API key').fill('NNSXS.SECRET');
    await form.getByLabel('Application ID').fill('Farm App');
    await form.getByLabel('Webhook ID').fill('dts');
    await form.getByRole('button', { name: 'Add network' }).click();
    await form.getByText('application_id must be a The Things Stack id').waitFor();
    await form.getByLabel('Application ID').fill('farm');
    await form.getByRole('button', { name: 'Add network' }).click();
    const tts = page.locator('tr[data-network]', { hasText: 'Farm TTS' });
    await tts.waitFor();
    expect(await tts.innerText()).toContain(`${svc.url}/ingest/ttn`);
    // Its set-up is shown at once: the webhook's ID is this network's, the key never again.
    expect(await setting(setUp, 'Webhook ID')).toBe('dts');
    expect(await page.content()).not.toContain('NNSXS.SECRET');

    await form.getByLabel('Kind').selectOption('http-json');
    await form.getByLabel('Name', { exact: true }).fill('Weather bridge');
    await form.getByLabel('Device EUI at').fill('end_device.eui');
    await form.getByLabel('Payload at', { exact: true }).fill('data');
    await form.getByLabel('Payload encoding').selectOption('base64');
    await form.getByLabel('Array of uplinks at').fill('uplinks');
    await form.getByRole('button', { name: 'Add network' }).click();
    const bridge = page.locator('tr[data-network]', { hasText: 'Weather bridge' });
    await bridge.waitFor();
    const uid = Number(await bridge.getAttribute('data-network'));
    expect(await bridge.innerText()).toContain(`${svc.url}/ingest/http/${uid}`);
    expect(await setting(setUp, 'URL')).toBe(`${svc.url}/ingest/http/${uid}`);
    await setUp.getByLabel('Weather bridge example (curl)', { exact: true }).waitFor();
    await check(page, 'networks');
  });

  it('makes an ingest key on the device’s Connect tab, and every set-up shown there is sent as shown and stored', async () => {
    await page.goto(`${svc.url}/console/devices/${EUI}`);
    // A device that never sent anything says where to start.
    await page.locator('#live-uplinks').getByRole('link', { name: 'How to connect this device' }).click();
    await page.getByRole('heading', { name: 'Getting this device’s data in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Connect' }).getAttribute('aria-current')).toBe('page');
    await page.locator('#connect-uplinks').getByText('Waiting for the first uplink').waitFor();
    await page.getByRole('button', { name: 'Create an ingest key' }).click();
    const secret = page.getByLabel(/^Value of the ingest key/);
    ingestKey = await secret.innerText();
    expect(ingestKey).toMatch(/^[0-9a-f]{64}$/);
    const tokens = (
      await call<{ hash: string; name: string; rights: string[] | null }[]>(svc.url, 'GET', '/user/token', {
        headers: { Authorization: `Bearer ${alice.master}` },
      })
    ).data;
    expect(tokens.find((t) => t.hash === ingestKey)).toMatchObject({ name: 'Ingest key for Meadow sensor', rights: ['ingest'] });

    // The REST example, sent exactly as shown; it arrives live on the page.
    const rest = parseCurlCommand(await page.getByLabel('REST example (curl)', { exact: true }).innerText());
    expect(rest.url).toBe(`${svc.url}/ingest/rest`);
    expect(rest.headers.Authorization).toBe(`Bearer ${ingestKey}`);
    const sent = await fetch(rest.url, { method: 'POST', headers: rest.headers, body: rest.body });
    expect(sent.status).toBe(202);
    const uplinks = page.locator('#connect-uplinks');
    await uplinks.getByText('temperature: 22.5').waitFor();
    await uplinks.getByText('016700E1').waitFor();

    // The Things Stack's webhook as its form is filled in, with its own sample uplink (gateways with a position).
    const tts = page.locator('#connect-tts');
    const ttsHeaders = { [await setting(tts, 'Additional header: name')]: await setting(tts, 'Additional header: value') };
    const now = new Date().toISOString();
    const ttsUplink = {
      ...TTN_UPLINK_SAMPLE,
      end_device_ids: { ...TTN_UPLINK_SAMPLE.end_device_ids, device_id: 'meadow', dev_eui: EUI },
      correlation_ids: [`as:up:${randomUUID()}`],
      received_at: now,
      uplink_message: { ...TTN_UPLINK_SAMPLE.uplink_message, received_at: now },
    };
    expect(await post(await setting(tts, 'Base URL'), ttsHeaders, ttsUplink)).toEqual({ status: 202, data: { accepted: 1, duplicates: 0, rejected: [] } });

    // ChirpStack's HTTP integration: the endpoint, with the event it appends itself.
    const cs = page.locator('#connect-chirpstack');
    expect(await setting(cs, 'Payload encoding')).toBe('JSON');
    const csHeaders = { [await setting(cs, 'Header: key')]: await setting(cs, 'Header: value') };
    const csUplink = {
      ...CHIRPSTACK_UPLINK_SAMPLE,
      deduplicationId: randomUUID(),
      time: new Date().toISOString(),
      deviceInfo: { ...CHIRPSTACK_UPLINK_SAMPLE.deviceInfo, devEui: EUI },
    };
    expect(await post(`${await setting(cs, 'Event endpoint URL')}?event=up`, csHeaders, csUplink)).toEqual({
      status: 202,
      data: { accepted: 1, duplicates: 0, rejected: [] },
    });

    // The HTTP JSON network's example, at its mapping's paths.
    const bridge = parseCurlCommand(await page.getByLabel('Weather bridge example (curl)', { exact: true }).innerText());
    expect(await post(bridge.url, { Authorization: bridge.headers.Authorization }, JSON.parse(bridge.body))).toEqual({
      status: 202,
      data: { accepted: 1, duplicates: 0, rejected: [] },
    });
    await uplinks.getByText('Weather bridge').waitFor();
    expect((await tableRows(EUI)).map((r) => r.uplink.network).sort()).toEqual(['ChirpStack', 'Generic REST', 'The Things Stack', 'Weather bridge']);
  });

  it('simulates an uplink from the device page: refused input names the member, a good one arrives as “Simulated”', async () => {
    const form = page.locator('#simulate');
    await form.getByLabel('Port').fill('2');
    await form.getByLabel('Payload').fill('zz');
    await form.getByRole('button', { name: 'Send simulated uplink' }).click();
    await form.getByText('payload_hex must be hexadecimal').waitFor();
    await form.getByLabel('Payload').fill('0167010E');
    await form.getByLabel('RSSI in dBm (optional)').fill('-61');
    await form.getByRole('button', { name: 'Send simulated uplink' }).click();
    await form.getByText('Stored: the uplink is in the list below').waitFor();
    const uplinks = page.locator('#connect-uplinks');
    await uplinks.getByRole('cell', { name: 'temperature: 27, temperature_1: 27' }).waitFor();
    await uplinks.getByText('Simulated').waitFor();
    const rows = await tableRows(EUI);
    expect(rows.filter((r) => r.uplink.network === 'Simulated').map((r) => [r.uplink.port, r.payload_hex])).toEqual([[2, '0167010E']]);
    await check(page, 'device-connect');
    // And on the Live tab, as any uplink.
    await page.getByRole('link', { name: 'Live', exact: true }).click();
    await page.locator('#live-uplinks').getByRole('cell', { name: 'temperature: 27, temperature_1: 27' }).waitFor();
  });

  it('shows the gateways of those messages in a table and on a map', async () => {
    await open(page, 'Gateways', 'Gateways');
    for (const id of ['gw-north', 'gw-south', '0016c001f153a14c']) await page.locator(`[data-gateway="${id}"]`).waitFor();
    const north = page.locator('tr', { has: page.locator('[data-gateway="gw-north"]') });
    expect(await north.innerText()).toMatch(/-97 dBm[\s\S]*52\.10000, 5\.10000/);
    expect(await page.locator('tr', { has: page.locator('[data-gateway="gw-south"]') }).innerText()).toContain('not reported');
    await page.locator('#gateways-map .leaflet-container').waitFor();
    await page.getByText('One gateway has not reported a position: it is in the table only.').waitFor();
    await check(page, 'gateways');
    // Opened on a phone, the map holds both placed gateways in its view.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await page.locator('#gateways-map path.leaflet-interactive').nth(1).waitFor();
    const inView = await page.evaluate(() => {
      const box = document.querySelector('#gateways-map .leaflet-container')!.getBoundingClientRect();
      return [...document.querySelectorAll('#gateways-map path.leaflet-interactive')].map((p) => {
        const r = p.getBoundingClientRect();
        return r.left >= box.left && r.right <= box.right && r.top >= box.top && r.bottom <= box.bottom;
      });
    });
    expect(inView).toEqual([true, true]);
    await page.screenshot({ path: join(SCREENSHOTS, 'gateways-phone-390x844.png'), fullPage: true });
    await page.setViewportSize({ width: 1366, height: 768 });
  });

  it('shows a viewer the set-ups and gateways without a control the viewer cannot use', async () => {
    // Alice's organisation, with a device; Bob a viewer in it.
    const org = (
      await call<{ id: number }>(svc.url, 'POST', '/org', { body: { name: ORG }, headers: { Authorization: `Bearer ${alice.master}` }, expect: 201 })
    ).data;
    const invitation = (
      await call<{ uid: number }>(svc.url, 'POST', `/org/${org.id}/member`, {
        body: { username: bob.username, role: 'viewer' },
        headers: { Authorization: `Bearer ${alice.master}` },
        expect: 201,
      })
    ).data;
    await call(svc.url, 'POST', `/user/invitation/${invitation.uid}/accept`, { headers: { Authorization: `Bearer ${bob.master}` }, expect: 200 });
    const session = (await page.context().cookies()).find((c) => c.name === 'dts_session')!;
    await call(svc.url, 'POST', `/user/device/${ORG_EUI}`, {
      body: { label: 'Barn sensor' },
      headers: { Cookie: `${session.name}=${session.value}`, 'X-Organisation': ORG, Origin: svc.url },
      expect: 201,
    });

    const viewer = await signedInPage(browser, `${svc.url}/console/`, bob, problems);
    await viewer.getByLabel('Act in').selectOption(ORG);
    await viewer.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    await open(viewer, 'Networks', 'Networks');
    await viewer.getByText('No networks of your own yet').waitFor();
    expect(await viewer.locator('#add-network').count()).toBe(0);
    await viewer.getByText('An administrator of this organisation can create an ingest key').waitFor();
    expect(await viewer.getByRole('button', { name: 'Create an ingest key' }).count()).toBe(0);

    await viewer.goto(`${svc.url}/console/devices/${ORG_EUI}/connect`);
    await viewer.getByRole('heading', { name: 'Getting this device’s data in' }).waitFor();
    expect(await setting(viewer.locator('#connect-tts'), 'Additional header: value')).toBe('Bearer <your ingest key>');
    expect(await viewer.locator('#simulate').count()).toBe(0);
    expect(await viewer.getByRole('button', { name: 'Create an ingest key' }).count()).toBe(0);
    await check(viewer, 'device-connect-viewer');

    await open(viewer, 'Gateways', 'Gateways');
    await viewer.getByText('Gateways appear here by themselves once uplinks arrive').waitFor();
    await check(viewer, 'gateways-empty');
    await viewer.close();
  });
});
