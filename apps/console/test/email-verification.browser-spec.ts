import type { Browser, Page } from 'playwright-core';
import { type AxeViolation, launch, newPage, snapshot, watch } from './support/browser';
import { startMailbox, verificationLink } from './support/mailbox';
import { type Service, startService } from './support/service';

/*
 * E-mail verification in Chromium against the built service, mails going to a real SMTP server:
 * a person registers in the console, sees on the Account page that the address is not verified,
 * has the mail sent again, and opens the link from the mail — signed in, and in another browser
 * signed out; then changes the address, which stays pending until its own link is opened.
 * Screenshots and axe-core as in console.browser-spec.ts.
 */

const VERIFY = 'Verify your e-mail address';

describe('e-mail verification in the console', () => {
  let svc: Service;
  let mailbox: Awaited<ReturnType<typeof startMailbox>>;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  const scans: Record<string, AxeViolation[]> = {};
  const suffix = Math.random().toString(16).slice(2, 8);
  const person = { username: `vera_${suffix}`, email: `vera_${suffix}@example.org`, password: 'vera-password-0123' };

  const check = async (name: string, on: Page = page) => {
    scans[name] = await snapshot(on, name);
    expect({ page: name, violations: scans[name] }).toEqual({ page: name, violations: [] });
  };
  const profile = (on: Page = page) => on.locator('#profile');
  const openAccount = async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account', exact: true }).click();
    await page.getByRole('heading', { name: 'Account', level: 1 }).waitFor();
  };

  beforeAll(async () => {
    mailbox = await startMailbox();
    svc = await startService((url) => ({ SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`, PUBLIC_BASE_URL: url, RATE_LIMIT_PER_MINUTE: '1000000' }));
    browser = await launch();
    page = await newPage(browser);
    problems = watch(page);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
    await mailbox?.close();
  });
  afterEach(() => {
    expect(problems.splice(0)).toEqual([]);
  });

  it('shows a new account’s address as not verified, sends the link again, and the link (signed in) verifies it', async () => {
    await page.goto(`${svc.url}/console/register`);
    await page.getByLabel('Username').fill(person.username);
    await page.getByLabel('E-mail').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    const first = verificationLink(await mailbox.waitFor(person.email, VERIFY));

    await openAccount();
    await profile().getByText('Not verified').waitFor();
    await profile().getByText('No alert mail goes to it until you confirm it').waitFor();
    await check('account-unverified');
    await profile().getByRole('button', { name: 'Send the verification mail again' }).click();
    await profile().getByText(`A new verification link is on its way to ${person.email}`).waitFor();
    const second = verificationLink(await mailbox.waitFor(person.email, VERIFY, 2));
    expect(second).not.toBe(first);
    expect(second.startsWith(`${svc.url}/console/verify-email#token=`)).toBe(true);

    await page.goto(second);
    await page.getByRole('heading', { name: 'Verify your e-mail address', level: 1 }).waitFor();
    await page.getByText(`${person.email} is verified`).waitFor();
    await check('verify-email-signed-in');
    await page.getByRole('link', { name: 'To your account' }).click();
    await profile().getByText('Verified', { exact: true }).waitFor();
    expect(await profile().getByRole('button', { name: 'Send the verification mail again' }).count()).toBe(0);

    // The first link was replaced by the second: another browser, signed out, is told so.
    const elsewhere = await newPage(browser);
    const elsewhereProblems = watch(elsewhere);
    await elsewhere.goto(first);
    await elsewhere.getByRole('alert').filter({ hasText: 'unknown, expired or replaced' }).waitFor();
    await elsewhere.getByRole('link', { name: 'Sign in' }).waitFor();
    await elsewhere.context().close();
    expect(elsewhereProblems).toEqual([]);
  });

  it('changes the address: pending until the link mailed to the new one is opened, signed out, in another browser', async () => {
    const next = `vera_new_${suffix}@example.org`;
    const card = page.locator('#change-email');
    await card.getByLabel('New e-mail address').fill(next);
    await card.getByLabel('Password of the account').fill(person.password);
    await card.getByRole('button', { name: 'Change the address' }).click();
    await card.getByText(`A verification link has gone to ${next}`).waitFor();
    await profile().getByText(`Changing to ${next}`).waitFor();
    // Still the old address, verified.
    await profile().getByText(person.email).waitFor();
    await profile().getByText('Verified', { exact: true }).waitFor();
    await check('account-change-pending');

    const link = verificationLink(await mailbox.waitFor(next, VERIFY));
    const signedOut = await newPage(browser);
    const signedOutProblems = watch(signedOut);
    await signedOut.goto(link);
    await signedOut.getByText(`${next} is verified`).waitFor();
    await check('verify-email-signed-out', signedOut);
    await signedOut.context().close();
    expect(signedOutProblems).toEqual([]);

    await page.reload();
    await profile().getByText(next).waitFor();
    await profile().getByText('Verified', { exact: true }).waitFor();
    expect(await profile().getByText('Changing to').count()).toBe(0);
    await mailbox.waitFor(person.email, 'The e-mail address of your account changed');
  });
});
