import type { AuditEventWire, OrganisationWire } from '@dts/domain';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { DataSource } from 'typeorm';
import { accountWithCredentials } from './support/accounts';
import { expectSuccess } from './support/envelope';
import { startTestService, type TestService } from './support/harness';

/*
 * Single sign-on (docs/api.md §3): a real OpenID provider (oidc-provider, the certified
 * implementation) runs in this process with its development login and consent pages; the test is
 * the browser, following every redirect and submitting the provider's forms with a cookie jar per
 * site. The service signs people in with the authorization code flow and PKCE, links a subject to
 * the account with its verified address or makes one, maps the role claim to memberships, and
 * refuses what a provider did not verify, a forged or replayed answer, and an unknown provider.
 */

const CLIENT = { id: 'dts-console', secret: 'dts-client-secret-0123456789' };
const ADMIN = { username: 'sso_admin', password: 'sso-admin-password-0123' };

interface Person {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
  dts_roles?: string[];
}

/** A cookie jar per host, as a browser keeps one per site. */
class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  async fetch(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const target = new URL(url);
    const jar = this.jars.get(target.host) ?? new Map<string, string>();
    this.jars.set(target.host, jar);
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.Cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const res = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const [name, ...value] = pair!.split('=');
      const expired = attributes.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      if (expired || value.join('=') === '') jar.delete(name!.trim());
      else jar.set(name!.trim(), value.join('='));
    }
    return res;
  }

  cookie(host: string, name: string): string | undefined {
    return this.jars.get(host)?.get(name);
  }
}

describe('single sign-on with OpenID Connect', () => {
  let svc: TestService;
  let idp: Server;
  let issuer: string;
  let servicePort: number;
  const people = new Map<string, Person>();

  /**
   * Signs `subject` in at the provider from the service's start, as a browser would: redirects
   * followed, the login and consent forms submitted. Answers the service's last answer (its
   * redirect to the console, or to the sign-in page with the reason) and the browser.
   */
  const signIn = async (subject: string, browser = new Browser(), start = '/auth/oidc/corp/start?next=/console/devices') => {
    let res = await browser.fetch(`${svc.url}${start}`);
    for (let hop = 0; hop < 20; hop++) {
      const location = res.headers.get('location');
      if (location) {
        const next = new URL(location, res.url || issuer);
        // Back at the service: its callback, then its own redirect, is the answer.
        if (next.port === String(servicePort) && next.pathname.startsWith('/auth/oidc/')) return { res: await browser.fetch(next.href), browser };
        res = await browser.fetch(next.href);
        continue;
      }
      const html = await res.text();
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form at the provider (${res.status}): ${html.slice(0, 300)}`);
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
      const form: Record<string, string> = prompt === 'login' ? { prompt, login: subject, password: 'any password' } : { prompt: prompt ?? 'consent' };
      res = await browser.fetch(new URL(action, issuer).href, { method: 'POST', form });
    }
    throw new Error('too many redirects');
  };
  const session = (browser: Browser) => browser.cookie(`127.0.0.1:${servicePort}`, svc.config.session.cookieName);

  beforeAll(async () => {
    // The service's port first: the provider must know the callback it may send people back to. Below
    // the kernel's ephemeral range, so that no listen(0) of the service's own (the embedded database's)
    // is handed the same port in between.
    servicePort = await freePortBelowEphemeral();
    idp = createServer();
    await new Promise<void>((resolve) => idp.listen(0, '127.0.0.1', resolve));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const provider = new Provider(issuer, {
      clients: [
        {
          client_id: CLIENT.id,
          client_secret: CLIENT.secret,
          redirect_uris: [`http://127.0.0.1:${servicePort}/auth/oidc/corp/callback`],
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name', 'dts_roles'] },
      // The claims in the ID token itself, which is what the service reads.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
      findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub, ...people.get(sub) }) }),
    });
    idp.on('request', provider.callback());
    svc = await startTestService({
      env: {
        PORT: String(servicePort),
        PUBLIC_BASE_URL: `http://127.0.0.1:${servicePort}`,
        OIDC_PROVIDERS: JSON.stringify([
          {
            id: 'corp',
            name: 'Corporate sign-in',
            issuer,
            client_id: CLIENT.id,
            client_secret: CLIENT.secret,
            role_claim: 'dts_roles',
            role_organisations: ['SSO-Fleet'],
            link_by_email: true,
          },
        ]),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await svc?.close();
    await new Promise((resolve) => idp?.close(resolve));
  });

  it('lists the configured providers for the sign-in page', async () => {
    expect(expectSuccess(await svc.http().get('/auth/oidc'))).toEqual([{ id: 'corp', name: 'Corporate sign-in' }]);
    expect(await svc.client().auth.oidcProviders()).toEqual([{ id: 'corp', name: 'Corporate sign-in' }]);
  });

  it('makes an account at the first sign-in of a verified address, signs in, and finds it again by the subject', async () => {
    people.set('u-1001', { email: 'Dana.Sso@example.org', email_verified: true, preferred_username: 'dana', name: 'Dana S.' });
    const { res, browser } = await signIn('u-1001');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/console/devices');
    const cookie = `${svc.config.session.cookieName}=${session(browser)}`;
    const me = expectSuccess<{ id: number; username: string; email: string; email_verified: boolean; fullname: string }>(
      await svc.http().get('/user').set('Cookie', cookie),
    );
    expect(me).toMatchObject({ username: 'dana', email: 'Dana.Sso@example.org', email_verified: true, fullname: 'Dana S.' });
    // The provider changes the address: the subject still finds the same account.
    people.set('u-1001', { ...people.get('u-1001'), email: 'dana.new@example.org' });
    const again = await signIn('u-1001');
    const cookie2 = `${svc.config.session.cookieName}=${session(again.browser)}`;
    expect(expectSuccess<{ id: number }>(await svc.http().get('/user').set('Cookie', cookie2)).id).toBe(me.id);
    // The sign-in is in the audit log, as a password's is.
    const admin = await svc.http().post('/auth/login').send(ADMIN);
    const adminCookie = (admin.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const records = expectSuccess<AuditEventWire[]>(await svc.http().get(`/admin/audit?account_id=${me.id}&action=/auth/oidc/`).set('Cookie', adminCookie));
    expect(records[0]).toMatchObject({ action: 'GET /auth/oidc/{provider}/callback', username: 'dana', status: 302 });
  });

  it('links the account that verified the address, and refuses one that has not (no takeover by a squatted address)', async () => {
    const existing = await accountWithCredentials(svc, 'linked');
    people.set('u-2002', { email: existing.account.email, email_verified: true, preferred_username: 'someone-else' });
    // Registered with that address but never verified it: not linked.
    const refused = await signIn('u-2002');
    expect(refused.res.headers.get('location')).toMatch(/^\/console\/sign-in\?sso_error=.*has\+not\+verified\+it/);
    expect(session(refused.browser)).toBeUndefined();
    // Once its owner verified it (here in the database; the mail's way is email-verification.e2e's): linked.
    await svc.app.get(DataSource).query('UPDATE accounts SET email_verified_at = now() WHERE id = $1', [existing.account.id]);
    const linked = await signIn('u-2002');
    const cookie = `${svc.config.session.cookieName}=${session(linked.browser)}`;
    expect(expectSuccess<{ id: number; username: string }>(await svc.http().get('/user').set('Cookie', cookie))).toMatchObject({
      id: existing.account.id,
      username: existing.account.username,
    });
  });

  it('refuses an address the provider has not verified, and a provider that is not configured', async () => {
    people.set('u-3003', { email: 'unverified@example.org', email_verified: false });
    const { res } = await signIn('u-3003');
    expect(res.headers.get('location')).toMatch(/^\/console\/sign-in\?sso_error=.*no\+verified/);
    // Recorded as the refusal it is, though the browser was sent on with a redirect.
    const admin = await svc.http().post('/auth/login').send(ADMIN);
    const adminCookie = (admin.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const refused = expectSuccess<AuditEventWire[]>(await svc.http().get('/admin/audit?action=/auth/oidc/&result=failure').set('Cookie', adminCookie));
    expect(refused[0]).toMatchObject({ action: 'GET /auth/oidc/{provider}/callback', status: 403, result: 'failure', account_id: null });
    const unknown = await fetch(`${svc.url}/auth/oidc/elsewhere/start`, { redirect: 'manual' });
    expect(unknown.status).toBe(404);
  });

  it('refuses an answer that was not started in this browser, or that the provider did not give', async () => {
    people.set('u-4004', { email: 'replay@example.org', email_verified: true });
    const browser = new Browser();
    let res = await browser.fetch(`${svc.url}/auth/oidc/corp/start`);
    // Another browser brings the provider's answer: it has no sign-in cookie of the service's.
    const { res: done, browser: first } = await signIn('u-4004');
    expect(done.status).toBe(302);
    const stranger = await fetch(`${svc.url}/auth/oidc/corp/callback?code=forged&state=forged`, { redirect: 'manual' });
    expect(stranger.headers.get('location')).toMatch(/^\/console\/sign-in\?sso_error=.*not\+started\+here/);
    // A forged code with the browser's own pending sign-in: the provider does not confirm it.
    res = await browser.fetch(`${svc.url}/auth/oidc/corp/callback?code=forged&state=forged`);
    expect(res.headers.get('location')).toMatch(/^\/console\/sign-in\?sso_error=/);
    expect(session(browser)).toBeUndefined();
    expect(session(first)).toBeDefined();
  });

  it('never links an administrator’s account, whatever the provider vouches for', async () => {
    const admin = await svc.http().post('/auth/login').send(ADMIN);
    const adminCookie = (admin.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    const me = expectSuccess<{ email: string; email_verified: boolean }>(await svc.http().get('/user').set('Cookie', adminCookie));
    expect(me.email_verified).toBe(true);
    people.set('u-7007', { email: me.email, email_verified: true });
    const { res, browser } = await signIn('u-7007');
    expect(res.headers.get('location')).toMatch(/^\/console\/sign-in\?sso_error=.*sign\+in\+with\+its\+password/);
    expect(session(browser)).toBeUndefined();
  });

  it('sends nobody to another site after signing in', async () => {
    people.set('u-5005', { email: 'next@example.org', email_verified: true });
    const { res } = await signIn('u-5005', new Browser(), `/auth/oidc/corp/start?next=${encodeURIComponent('https://evil.example/')}`);
    expect(res.headers.get('location')).toBe('/console/');
  });

  it('maps the role claim to memberships of existing organisations', async () => {
    const owner = await accountWithCredentials(svc, 'ssoowner');
    const org = expectSuccess<OrganisationWire>(await svc.http().post('/org').set('Cookie', owner.cookie).send({ name: 'sso-fleet' }), 201);
    const elsewhere = expectSuccess<OrganisationWire>(await svc.http().post('/org').set('Cookie', owner.cookie).send({ name: 'not-the-providers' }), 201);
    // Only the organisations the provider may give roles in, never ownership.
    people.set('u-6006', {
      email: 'member@example.org',
      email_verified: true,
      preferred_username: 'ssomember',
      dts_roles: ['sso-fleet:operator', 'sso-fleet:owner', `${elsewhere.name}:admin`, 'no-such-org:admin', 'bad'],
    });
    const { browser } = await signIn('u-6006');
    const cookie = `${svc.config.session.cookieName}=${session(browser)}`;
    expect(expectSuccess<OrganisationWire[]>(await svc.http().get('/org').set('Cookie', cookie))).toEqual([
      expect.objectContaining({ id: org.id, role: 'operator' }),
    ]);
    // The provider changes the role: the next sign-in follows it.
    people.set('u-6006', { ...people.get('u-6006'), dts_roles: ['sso-fleet:viewer'] });
    const again = await signIn('u-6006');
    const cookie2 = `${svc.config.session.cookieName}=${session(again.browser)}`;
    expect(expectSuccess<OrganisationWire[]>(await svc.http().get('/org').set('Cookie', cookie2))[0]!.role).toBe('viewer');
  });
});

/** A port that is free now, from 20000–32767 (below Linux's ephemeral ports, which listen(0) hands out). */
async function freePortBelowEphemeral(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below the ephemeral range');
}
