import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { checkAtEachSize, endsCleanly, launch, signedInPage } from './support/browser';
import { startMailbox, verificationLink } from './support/mailbox';
import { type Account, account, call, type Service, startService } from './support/service';

/*
 * Organisations in the console, in Chromium against the built service (docs/api.md §20): Alice
 * creates one on the Organisations page and switches to it in the header; what she registers there
 * is the organisation's, not hers. She invites Bob (his address verified through a real SMTP
 * server); Bob accepts on his Organisations page and, a viewer, sees the devices without a control
 * he cannot use — no Register button, no Settings tab, no Tokens page. Made an operator, he gets
 * them. Alice's members table, invitations, audit log and a key with a list of rights. Each page
 * is screenshotted at 1366×768 and 390×844 into tmp/console-screenshots and scanned with axe-core.
 */

const EUI = '70B3D57ED0C0FFEE';

describe('organisations in the console, in Chromium', () => {
  let svc: Service;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;
  let alice: Account;
  let bob: Account;
  let alicePage: Page;
  let bobPage: Page;
  const problems: string[] = [];
  const suffix = Math.random().toString(16).slice(2, 8);
  const ORG = `fleet-${suffix}`;

  const check = (name: string, page: Page) => checkAtEachSize(page, name);
  const signedIn = (who: { username: string; password: string }) => signedInPage(browser, `${svc.url}/console/`, who, problems);
  const menu = (p: Page) => p.getByRole('navigation', { name: 'Main' });
  const open = async (p: Page, label: string, heading: string) => {
    await menu(p).getByRole('link', { name: label, exact: true }).click();
    await p.getByRole('heading', { name: heading, level: 1 }).waitFor();
  };
  /** Verifies the account's address through the link mailed to it. */
  const verify = async (who: Account) => {
    const link = verificationLink(await mailbox.waitFor(`${who.username}@example.org`, 'Verify your e-mail address'));
    await call(svc.url, 'POST', '/auth/verify', { body: { token: link.split('#token=')[1] }, expect: 200 });
  };

  beforeAll(async () => {
    mailbox = await startMailbox();
    svc = await startService((url) => ({ SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, PUBLIC_BASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' }));
    [alice, bob] = await Promise.all([account(svc.url, `alice_o${suffix}`), account(svc.url, `bob_o${suffix}`)]);
    await verify(bob);
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));
  afterAll(() => mailbox?.close());

  it('creates an organisation and acts in it from the header: what is registered there is the organisation’s', async () => {
    alicePage = await signedIn(alice);
    await open(alicePage, 'Organisations', 'Organisations');
    await alicePage.getByText('You are in no organisation yet').waitFor();
    const form = alicePage.locator('#create-organisation');
    await form.getByLabel('Name', { exact: true }).fill('no spaces allowed');
    await form.getByRole('button', { name: 'Create organisation' }).click();
    await form.getByText('name must be 3-64 characters').waitFor();
    await form.getByLabel('Name', { exact: true }).fill(ORG);
    await form.getByLabel('Shown name (optional)').fill('The fleet team');
    await form.getByRole('button', { name: 'Create organisation' }).click();
    const row = alicePage.locator(`tr[data-organisation="${ORG}"]`);
    await row.getByText('owner').waitFor();
    await check('organisations', alicePage);

    // The header's switcher: acting in the organisation, the device list is its (empty), then its device.
    await alicePage.getByLabel('Act in').selectOption(ORG);
    await alicePage.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    // Her session, naming the organisation as the console does (her own token acts in her own account only).
    const session = (await alicePage.context().cookies()).find((c) => c.name === 'dts_session')!;
    await call(svc.url, 'POST', `/user/device/${EUI}`, {
      body: { label: 'Fleet tracker' },
      headers: { Cookie: `${session.name}=${session.value}`, 'X-Organisation': ORG, Origin: svc.url },
      expect: 201,
    });
    await open(alicePage, 'Devices', 'Devices');
    await alicePage.getByRole('link', { name: 'Fleet tracker' }).waitFor();
    await check('organisation-devices', alicePage);
    const own = (await call<string[]>(svc.url, 'GET', '/user/device', { headers: { Authorization: `Bearer ${alice.token}` }, expect: 200 })).data;
    expect(own).toEqual([]);
    // Back in her own account, the organisation's device is not listed.
    await alicePage.getByLabel('Act in').selectOption({ label: `${alice.username} (personal)` });
    await open(alicePage, 'Devices', 'Devices');
    await alicePage.getByText('No device matches').waitFor();
    await alicePage.getByLabel('Act in').selectOption(ORG);
  });

  it('invites a member, who accepts and, a viewer, sees no control a viewer cannot use', async () => {
    await open(alicePage, 'Organisations', 'Organisations');
    await alicePage.getByRole('link', { name: ORG }).click();
    await alicePage.getByRole('heading', { name: ORG, level: 1 }).waitFor();
    const invite = alicePage.locator('#org-invitations');
    await invite.getByLabel('E-mail address or username').fill(bob.username);
    await invite.getByLabel('Role').selectOption('viewer');
    await invite.getByRole('button', { name: 'Invite' }).click();
    await invite.getByText(`${bob.username}@example.org is invited as viewer`).waitFor();
    await invite.locator(`tr[data-invitation="${bob.username}@example.org"]`).waitFor();
    await mailbox.waitFor(`${bob.username}@example.org`, `You are invited to ${ORG}`);

    bobPage = await signedIn(bob);
    await open(bobPage, 'Organisations', 'Organisations');
    const offered = bobPage.locator('#invitations');
    await offered.getByText(`${ORG} invites you as viewer`).waitFor();
    await check('organisations-invited', bobPage);
    await offered.getByRole('button', { name: 'Accept' }).click();
    await bobPage.locator(`tr[data-organisation="${ORG}"]`).getByText('viewer').waitFor();
    await bobPage.getByLabel('Act in').selectOption(ORG);
    await open(bobPage, 'Devices', 'Devices');
    await bobPage.getByRole('link', { name: 'Fleet tracker' }).waitFor();
    expect(await bobPage.getByRole('button', { name: 'Register a device' }).count()).toBe(0);
    expect(await menu(bobPage).getByRole('link', { name: 'Tokens' }).count()).toBe(0);
    expect(await menu(bobPage).getByRole('link', { name: 'Import' }).count()).toBe(0);
    await bobPage.getByRole('link', { name: 'Fleet tracker' }).click();
    await bobPage.getByRole('navigation', { name: 'Device sections' }).waitFor();
    expect(await bobPage.getByRole('navigation', { name: 'Device sections' }).getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await bobPage.getByRole('navigation', { name: 'Device sections' }).getByRole('link', { name: 'Commands' }).click();
    await bobPage.locator('#commands').waitFor();
    expect(await bobPage.locator('#send-command').count()).toBe(0);
    await check('organisation-viewer-commands', bobPage);
  });

  it('shows a viewer the organisation’s photos with their boxes and labels, and no annotator', async () => {
    const session = (await alicePage.context().cookies()).find((c) => c.name === 'dts_session')!;
    const headers = { Cookie: `${session.name}=${session.value}`, 'X-Organisation': ORG, Origin: svc.url };
    const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 90, g: 120, b: 60 } } })
      .jpeg()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'fox.jpg');
    const uploaded = await fetch(`${svc.url}/user/device/image/${EUI}`, { method: 'POST', headers, body: form });
    expect(uploaded.status).toBe(201);
    const { hash } = ((await uploaded.json()) as { data: { hash: string } }).data;
    await call(svc.url, 'POST', `/user/device/image/${EUI}/${hash}/annotations`, {
      body: [{ bbox: [0.2, 0.2, 0.4, 0.5], score: 0.9, label: 'red fox' }],
      headers,
      expect: 200,
    });
    await bobPage.goto(`${svc.url}/console/camera-traps/${EUI}/${hash}`);
    await bobPage.getByText('Your role here lets you look, not change the annotations.').waitFor();
    await bobPage.getByRole('img', { name: /Box 1: red fox/ }).waitFor();
    expect(await bobPage.getByRole('button', { name: 'Add box' }).count()).toBe(0);
    expect(await bobPage.getByRole('button', { name: /Delete/ }).count()).toBe(0);
    await check('organisation-viewer-photo', bobPage);
  });

  it('makes the member an operator in the members table; the controls come with the role', async () => {
    await alicePage.reload();
    const members = alicePage.locator('#members');
    await Promise.all([
      alicePage.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/member/') && r.status() === 200),
      members.getByLabel(`Role of ${bob.username}`).selectOption('operator'),
    ]);
    // The table shows the role the service answers, once the members are read again.
    await alicePage.waitForFunction(
      (name) => (document.querySelector(`select[aria-label="Role of ${name}"]`) as HTMLSelectElement | null)?.value === 'operator',
      bob.username,
    );
    await check('organisation-members', alicePage);

    await bobPage.goto(`${svc.url}/console/devices`);
    await bobPage.getByRole('button', { name: 'Register a device' }).waitFor();
    await bobPage.goto(`${svc.url}/console/devices/${EUI}/commands`);
    await bobPage.locator('#send-command').waitFor();
  });

  it('shows the organisation’s audit log to its owner, and makes a key of it with a list of rights', async () => {
    await alicePage.reload();
    const audit = alicePage.locator('#audit');
    await audit.getByRole('button', { name: 'Filter' }).waitFor();
    await audit.getByText(`PATCH /org/{uid}/member/{account}`).first().waitFor();

    await open(alicePage, 'Tokens', 'API tokens');
    await alicePage.getByText(`Tokens of ${ORG}`).waitFor();
    const create = alicePage.locator('#create-token');
    await create.getByLabel('Name (optional)').fill('fleet reader');
    await create.getByLabel('Everything its type allows').uncheck();
    await create.getByRole('checkbox', { name: /^read:/ }).waitFor();
    await create.getByRole('button', { name: 'Create token' }).click();
    await alicePage.locator('#new-token').waitFor();
    const row = alicePage.locator('#tokens tr', { hasText: 'fleet reader' });
    await row.getByText('read', { exact: true }).waitFor();
    await check('organisation-tokens', alicePage);
    const value = ((await alicePage.locator('#new-token code[data-secret]').textContent()) ?? '').trim();
    expect(value).toMatch(/^[0-9a-f]{64}$/);
    // The key reads the organisation's devices and may change nothing.
    expect((await call<string[]>(svc.url, 'GET', '/user/device', { headers: { Authorization: `Bearer ${value}` }, expect: 200 })).data).toEqual([EUI]);
    expect((await call(svc.url, 'DELETE', `/user/device/${EUI}`, { headers: { Authorization: `Bearer ${value}` } })).status).toBe(403);
  });
});
