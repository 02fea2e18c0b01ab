import type { Browser, Page } from 'playwright-core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { checkAtEachSize, endsCleanly, launch, newPage, watch } from './support/browser';
import { type Service, startService } from './support/service';

/*
 * Single sign-on in Chromium against the built service: a real OpenID provider (oidc-provider)
 * runs in this process; the sign-in page offers it, the person signs in at the provider (its
 * development login and consent pages) and lands where they were going, signed in. A provider
 * that refuses to vouch for the address brings them back to the sign-in page, saying why.
 * Screenshots at 1366×768 and 390×844 with axe-core.
 */

describe('single sign-on in the console, in Chromium', () => {
  let svc: Service;
  let idp: Server;
  let browser: Browser;
  const problems: string[] = [];
  const people = new Map<string, Record<string, unknown>>();

  /** From the console's sign-in page through the provider's pages, as `subject`. */
  const signInWithProvider = async (page: Page, subject: string) => {
    await page.getByRole('link', { name: 'Sign in with Team directory' }).click();
    await page.locator('input[name="login"]').fill(subject);
    await page.locator('input[name="password"]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
  };

  beforeAll(async () => {
    idp = createServer();
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const client = { client_id: 'dts-console', client_secret: 'dts-console-secret-0123456789' };
    svc = await startService((url) => ({
      PUBLIC_BASE_URL: url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      OIDC_PROVIDERS: JSON.stringify([{ id: 'team', name: 'Team directory', issuer, ...client }]),
    }));
    // The provider knows the service's callback only now that the service has its address; the
    // service discovers the provider at the first sign-in.
    const provider = new Provider(issuer, {
      clients: [{ ...client, redirect_uris: [`${svc.url}/auth/oidc/team/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] },
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      cookies: { keys: ['console-sso-cookie-key-0123456789'] },
      findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub, ...people.get(sub) }) }),
    });
    idp.on('request', provider.callback());
    browser = await launch();
  }, 180_000);
  endsCleanly(() => ({ browser, svc, problems }));
  afterAll(() => new Promise((resolve) => idp?.close(resolve)));

  it('offers the provider on the sign-in page, signs in there and lands where the person was going', async () => {
    people.set('emp-1', { email: 'erin.sso@example.org', email_verified: true, preferred_username: 'erin_sso', name: 'Erin' });
    const page = await newPage(browser);
    problems.push(...watch(page));
    await page.goto(`${svc.url}/console/devices`);
    await page.getByRole('link', { name: 'Sign in with Team directory' }).waitFor();
    await checkAtEachSize(page, 'sign-in-sso');
    await signInWithProvider(page, 'emp-1');
    await page.getByRole('heading', { name: 'Devices', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/devices');
    await page.locator('.topbar .user', { hasText: 'erin_sso' }).waitFor();
    await page.context().close();
  });

  it('comes back to the sign-in page saying why when the provider does not vouch for the address', async () => {
    people.set('emp-2', { email: 'unverified.sso@example.org', email_verified: false });
    const page = await newPage(browser);
    problems.push(...watch(page));
    await page.goto(`${svc.url}/console/sign-in`);
    await signInWithProvider(page, 'emp-2');
    await page.getByRole('alert').filter({ hasText: 'gave no verified e-mail address' }).waitFor();
    await checkAtEachSize(page, 'sign-in-sso-refused');
    await page.context().close();
  });
});
