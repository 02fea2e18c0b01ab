import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { checkAtEachSize, endsCleanly, launch, signedInPage } from './support/browser';
import { startMailbox, verificationLink } from './support/mailbox';
import { lpp } from './support/payloads';
import { type Account, account, call, SECRETS, type Service, startService } from './support/service';

/*
 * Rules, alerts and integrations in the console, in Chromium against the built service (docs/api.md
 * §18–19). Alice makes a threshold rule on the Rules page; an uplink over it (posted through
 * /ingest/rest) raises an alert that appears on the Alerts page, in the header's bell and on the
 * device's page without a reload; she acknowledges it, and the next uplink clears it. She makes a
 * webhook to a receiver this test runs, sees its secret once (the receiver verifies every signature
 * with it, by the Standard Webhooks reference library), sends a test event, sees real deliveries in
 * the log, the receiver failing in the integration's health, and redelivers. A viewer of her
 * organisation sees its rules and alerts without a control, and no integrations.
 */

const EUI = '70B3D57ED0A1E470';
const TEAM_EUI = '70B3D57ED0A1E471';

/** A webhook receiver: keeps what arrives, verified with the secret it is given; answers `status`. */
class Receiver {
  received: { type: string; id: string; verified: boolean }[] = [];
  status = 200;
  secret = '';
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        let verified = false;
        try {
          new Webhook(this.secret).verify(body, req.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
        const event = JSON.parse(body) as { type: string; id: string };
        this.received.push({ type: event.type, id: event.id, verified });
        res.writeHead(this.status, { 'Content-Type': 'text/plain' }).end(this.status === 200 ? 'ok' : 'receiver down');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', () => resolve()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

describe('rules, alerts and integrations in the console, in Chromium', () => {
  let svc: Service;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;
  let alice: Account;
  let vera: Account;
  let page: Page;
  const receiver = new Receiver();
  const problems: string[] = [];
  const suffix = Math.random().toString(16).slice(2, 8);
  const ORG = `ops-${suffix}`;
  let fcnt = 0;

  const ingest = (eui: string, t: number) =>
    call(svc.url, 'POST', '/ingest/rest', {
      body: [{ devEUI: eui, port: 1, payload_hex: lpp(t, 52.3581, 4.8686), fcnt: ++fcnt }],
      headers: { 'X-Ingest-Secret': SECRETS.INGEST_SECRET },
      expect: 202,
    });
  const menu = (p: Page) => p.getByRole('navigation', { name: 'Main' });
  const open = async (p: Page, label: string, heading: string) => {
    await menu(p).getByRole('link', { name: label, exact: true }).click();
    await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  const bell = (p: Page) => p.getByRole('banner');
  const sessionHeaders = async (p: Page, organisation?: string) => {
    const session = (await p.context().cookies()).find((c) => c.name === 'dts_session')!;
    return { Cookie: `${session.name}=${session.value}`, Origin: svc.url, ...(organisation ? { 'X-Organisation': organisation } : {}) };
  };

  beforeAll(async () => {
    await receiver.start();
    mailbox = await startMailbox();
    svc = await startService((url) => ({
      SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
      PUBLIC_BASE_URL: url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      // The receiver listens on loopback.
      OUTBOUND_ALLOW_PRIVATE: 'true',
      INTEGRATION_TIMEOUT_MS: '2000',
    }));
    [alice, vera] = await Promise.all([account(svc.url, `alice_a${suffix}`), account(svc.url, `vera_a${suffix}`)]);
    const link = verificationLink(await mailbox.waitFor(`${vera.username}@example.org`, 'Verify your e-mail address'));
    await call(svc.url, 'POST', '/auth/verify', { body: { token: link.split('#token=')[1] }, expect: 200 });
    await call(svc.url, 'POST', `/user/device/${EUI}`, {
      body: { label: 'Cold store', decoder_ref: 2 },
      headers: { Authorization: `Bearer ${alice.token}` },
      expect: 201,
    });
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));
  afterAll(async () => {
    await mailbox?.close();
    await receiver.stop();
  });

  it('makes a threshold rule; an uplink over it raises an alert shown live on the alerts page, the header and the device; acknowledged, then cleared', async () => {
    page = await signedInPage(browser, `${svc.url}/console/`, alice, problems);
    await open(page, 'Rules', 'Alert rules');
    await page.getByText('No rules yet.').waitFor();
    await page.getByRole('button', { name: 'New rule' }).click();
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Name').fill('Too warm');
    await form.getByLabel('Measurement').fill('temperature');
    await form.getByLabel('Limit').fill('warm');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await form.getByText('Enter a number, such as 25 or 3.6.').waitFor();
    await form.getByLabel('Limit').fill('30');
    await form.getByLabel('Hysteresis (optional)').fill('1');
    // The service's error, at its field: a device the account does not have.
    await form.getByLabel('Device EUIs').fill('FFFFFFFFFFFFFFFF');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await form.locator('.field-invalid').getByLabel('Device EUIs').waitFor();
    await checkAtEachSize(page, 'automation-rule-form');
    await form.getByLabel('Device EUIs').fill(EUI.toLowerCase());
    await form.getByRole('button', { name: 'Create rule' }).click();
    const row = page.locator('tr[data-rule]');
    await row.getByText('temperature above 30 (± 1)').waitFor();
    await row.getByText(`Device ${EUI}`).waitFor();
    await checkAtEachSize(page, 'automation-rules');

    await open(page, 'Alerts', 'Alerts');
    await page.getByText('No alerts yet.').waitFor();
    await bell(page).getByRole('link', { name: 'No active alerts' }).waitFor();
    // Nothing reloads from here on: the live feed brings the alert.
    await ingest(EUI, 35);
    const alertRow = page.locator('tr[data-alert]');
    await alertRow.getByText('active', { exact: true }).waitFor({ timeout: 30_000 });
    await alertRow.getByRole('link', { name: 'Cold store' }).waitFor();
    await bell(page).getByRole('link', { name: '1 active alert' }).waitFor();
    await alertRow.getByRole('button', { name: /^History of alert/ }).click();
    await page.locator('.details-row').getByText('Raised').waitFor();
    await page.locator('.details-row').getByText('The rule sends no e-mail.').waitFor();
    await checkAtEachSize(page, 'automation-alerts');
    await alertRow.getByRole('button', { name: /^Acknowledge/ }).click();
    await alertRow.getByText('acknowledged', { exact: true }).waitFor();
    expect(await alertRow.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
    await page.locator('.details-row').getByText('Acknowledged', { exact: true }).waitFor();
    const [stored] = (
      await call<{ acknowledged: boolean; state: string }[]>(svc.url, 'GET', '/user/alert', {
        headers: { Authorization: `Bearer ${alice.token}` },
        expect: 200,
      })
    ).data;
    expect(stored).toMatchObject({ acknowledged: true, state: 'active' });

    // The device's page shows it too, and loses it when the next uplink clears it.
    await page.goto(`${svc.url}/console/devices/${EUI}`);
    const banner = page.getByRole('region', { name: '1 active alert' });
    await banner.waitFor();
    await checkAtEachSize(page, 'automation-device-alert');
    await ingest(EUI, 20);
    await banner.waitFor({ state: 'detached', timeout: 30_000 });
    await bell(page).getByRole('link', { name: 'No active alerts' }).waitFor();
    await open(page, 'Alerts', 'Alerts');
    await page.locator('tr[data-alert]').getByText('cleared', { exact: true }).waitFor();
    await page.getByLabel('State').selectOption('active');
    await page.getByText('No alerts match these filters.').waitFor();
    expect(page.url()).toContain('state=active');
  });

  it('makes a webhook: its secret once, a test event, real deliveries, the receiver failing in its health, a redelivery', async () => {
    await open(page, 'Integrations', 'Integrations');
    await page.getByText('No integrations yet.').waitFor();
    await page.getByRole('button', { name: 'New integration' }).click();
    const form = page.getByRole('form', { name: 'New integration' });
    await form.getByLabel('Name').fill('Receiver');
    await form.getByLabel('Endpoint URL').fill('ftp://example.org/hook');
    await form.getByRole('button', { name: 'Create integration' }).click();
    await form.locator('.field-invalid').getByLabel('Endpoint URL').waitFor();
    await checkAtEachSize(page, 'automation-integration-form');
    await form.getByLabel('Endpoint URL').fill(receiver.url);
    await form.getByLabel(/Alerts: raised or cleared/).check();
    await form.getByRole('button', { name: 'Create integration' }).click();
    const secretCard = page.locator('#webhook-secret');
    const secret = (await secretCard.getByLabel('Signing secret of Receiver').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await checkAtEachSize(page, 'automation-integration-secret');
    await secretCard.getByRole('button', { name: 'I have stored it' }).click();
    expect(await page.getByText(secret).count()).toBe(0);

    const item = page.locator('li[data-integration]');
    await item.getByRole('button', { name: 'Test Receiver' }).click();
    await item.getByText(/^Test event delivered to Receiver \(HTTP 200\) in \d+ ms\.$/).waitFor();
    expect(receiver.received).toEqual([{ type: 'test', id: expect.stringMatching(/^evt_test_/), verified: true }]);

    // A real event, delivered and logged.
    await ingest(EUI, 21);
    await item.getByRole('button', { name: 'Delivery log of Receiver' }).click();
    const log = page.locator('#delivery-log');
    await log.locator('tr[data-state="delivered"]').first().waitFor({ timeout: 30_000 });
    expect(receiver.received.filter((r) => r.type === 'uplink')).toEqual([{ type: 'uplink', id: expect.stringMatching(/^evt_\d+$/), verified: true }]);

    // The receiver fails: the delivery waits and retries, the health says so.
    receiver.status = 500;
    await ingest(EUI, 22);
    const failing = log.locator('tr[data-state="pending"]').first();
    await failing.getByText('HTTP 500: receiver down').waitFor({ timeout: 30_000 });
    await item.locator('[data-health="Failing"]').waitFor({ timeout: 30_000 });
    await item.getByText(/has failed: HTTP 500/).waitFor();
    await checkAtEachSize(page, 'automation-integrations-failing');

    // Back up: redelivered at once, not after its backoff.
    receiver.status = 200;
    await failing.getByRole('button', { name: /^Redeliver/ }).click();
    await log.locator('tr[data-state="pending"]').waitFor({ state: 'detached', timeout: 30_000 });
    await item.locator('[data-health="Healthy"]').waitFor({ timeout: 30_000 });
    // Two events; the second tried while the receiver failed and once more after (the same webhook-id), every attempt signed.
    const uplinks = receiver.received.filter((r) => r.type === 'uplink');
    expect(new Set(uplinks.map((r) => r.id)).size).toBe(2);
    expect(uplinks.filter((r) => r.id === uplinks.at(-1)!.id).length).toBeGreaterThanOrEqual(2);
    expect(uplinks.every((r) => r.verified)).toBe(true);
  });

  it('shows a viewer the organisation’s rules and alerts without a control, and no integrations', async () => {
    const alice$ = await sessionHeaders(page);
    const org = (await call<{ id: number }>(svc.url, 'POST', '/org', { body: { name: ORG }, headers: alice$, expect: 201 })).data;
    const invitation = (
      await call<{ uid: number }>(svc.url, 'POST', `/org/${org.id}/member`, { body: { username: vera.username, role: 'viewer' }, headers: alice$, expect: 201 })
    ).data;
    const inOrg = await sessionHeaders(page, ORG);
    await call(svc.url, 'POST', `/user/device/${TEAM_EUI}`, { body: { label: 'Team freezer', decoder_ref: 2 }, headers: inOrg, expect: 201 });
    await call(svc.url, 'POST', '/user/rule', {
      body: { name: 'Freezer warm', kind: 'threshold', member: 'temperature', above: -10 },
      headers: inOrg,
      expect: 201,
    });
    await ingest(TEAM_EUI, 4);

    const veraPage = await signedInPage(browser, `${svc.url}/console/`, vera, problems);
    await call(svc.url, 'POST', `/user/invitation/${invitation.uid}/accept`, { headers: await sessionHeaders(veraPage), expect: 200 });
    await veraPage.reload();
    await veraPage.getByLabel('Act in').selectOption(ORG);
    await veraPage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await menu(veraPage).getByRole('link', { name: 'Integrations' }).count()).toBe(0);
    await open(veraPage, 'Rules', 'Alert rules');
    await veraPage.locator('tr[data-rule]').getByText('temperature above -10').waitFor();
    expect(await veraPage.getByRole('button', { name: 'New rule' }).count()).toBe(0);
    expect(await veraPage.locator('tr[data-rule]').getByRole('button').count()).toBe(0);
    await open(veraPage, 'Alerts', 'Alerts');
    const alertRow = veraPage.locator('tr[data-alert]');
    await alertRow.getByRole('link', { name: 'Team freezer' }).waitFor({ timeout: 30_000 });
    await bell(veraPage).getByRole('link', { name: '1 active alert' }).waitFor();
    expect(await alertRow.getByRole('button', { name: /^Acknowledge/ }).count()).toBe(0);
    await checkAtEachSize(veraPage, 'automation-viewer-alerts');
    await veraPage.goto(`${svc.url}/console/integrations`);
    await veraPage.getByText('Only its admins and owners see and change them.').waitFor();
    expect(await veraPage.getByRole('button', { name: 'New integration' }).count()).toBe(0);
  });
});
