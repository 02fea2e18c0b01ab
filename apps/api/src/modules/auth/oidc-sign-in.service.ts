import { Inject, Injectable, Logger } from '@nestjs/common';
import { formatDate, GROUP_ADMIN, ORG_ROLES, type OrgRole, USERNAME_PATTERN } from '@dts/domain';
import { AccountsRepository, OidcIdentitiesRepository, OrganisationsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, type OidcProviderSettings, TokenCryptoService } from '@dts/platform';
import type * as Oidc from 'openid-client';
import { CredentialRevocations } from '../../common/auth/credential-revocations';
import { PasswordHasher } from '../../common/auth/password-hasher.service';
import type { SessionClient } from '../../common/auth/session-store';
import type { SessionCookie } from '../../common/auth/session.service';
import { ApiException } from '../../common/http/api.exception';
import { AuthService } from './auth.service';

/** openid-client, loaded at the first sign-in through a provider: not at start-up (docs/benchmarks.md, figure 15). */
const loadOidc = () => import('openid-client');

/** What travels in the sign-in's own cookie between the start and the provider's answer (sealed: AES-GCM). */
interface PendingSignIn {
  provider: string;
  state: string;
  nonce: string;
  verifier: string;
  next: string;
  /** Unix ms after which the answer is not taken. */
  until: number;
}

/** How long a person has at the provider between the start and the answer. */
export const OIDC_SIGN_IN_TTL_MS = 10 * 60_000;

/** Where the console goes after a sign-in that named nowhere, or somewhere that is not the console's. */
const HOME = '/console/';

/** A path of the console only: a sign-in never sends anyone to another site (an open redirect). */
export function safeNext(next: string | undefined): string {
  return typeof next === 'string' && /^\/console(\/[A-Za-z0-9._~!$&'()*+,;=:@%/?-]*)?$/.test(next) && !next.startsWith('//') ? next : HOME;
}

/**
 * Sign-in with OpenID Connect providers (docs/api.md §3, "Single sign-on"): the authorization code
 * flow with PKCE, state and nonce, through openid-client. The first sign-in of a provider's subject
 * links it to the account with the same verified address, or makes an account; later ones find it
 * by the link. A provider's role claim (`<organisation>:<role>` entries) sets memberships.
 */
@Injectable()
export class OidcSignInService {
  private readonly logger = new Logger('OidcSignIn');
  /** Each provider's discovered configuration, fetched once (again after a failure). */
  private readonly discovered = new Map<string, Promise<Oidc.Configuration>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly crypto: TokenCryptoService,
    private readonly accounts: AccountsRepository,
    private readonly identities: OidcIdentitiesRepository,
    private readonly organisations: OrganisationsRepository,
    private readonly hasher: PasswordHasher,
    private readonly auth: AuthService,
    private readonly revocations: CredentialRevocations,
  ) {}

  /** The providers the sign-in page offers. */
  providers(): { id: string; name: string }[] {
    return this.config.oidcProviders.map(({ id, name }) => ({ id, name }));
  }

  /** Where to send the browser, and the sealed state its cookie keeps until the answer. */
  async start(providerId: string, next: string | undefined): Promise<{ location: string; sealed: string }> {
    const provider = this.provider(providerId);
    const configuration = await this.configuration(provider);
    const oidc = await loadOidc();
    const pending: PendingSignIn = {
      provider: provider.id,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier: oidc.randomPKCECodeVerifier(),
      next: safeNext(next),
      until: Date.now() + OIDC_SIGN_IN_TTL_MS,
    };
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.callbackUrl(provider),
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { location: url.href, sealed: this.crypto.encrypt(JSON.stringify(pending)).toString('base64url') };
  }

  /**
   * The provider's answer (the callback's full URL) to a session: checked against the sealed state
   * (state, nonce, PKCE verifier, provider, time), the ID token verified by openid-client.
   */
  async finish(
    providerId: string,
    callback: URL,
    sealed: string | null,
    presented: string | null,
    client: SessionClient,
  ): Promise<{ cookie: SessionCookie; account: { id: number; username: string }; next: string }> {
    const provider = this.provider(providerId);
    const pending = this.unseal(sealed);
    if (!pending || pending.provider !== provider.id || pending.until < Date.now()) {
      throw ApiException.of('FORBIDDEN', 'this sign-in was not started here, or took too long: start again');
    }
    const configuration = await this.configuration(provider);
    const oidc = await loadOidc();
    let claims: Oidc.IDToken;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, callback, {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch (error) {
      this.logger.warn(`sign-in with ${provider.id} refused: ${(error as Error).message}`);
      throw ApiException.of('FORBIDDEN', `${provider.name} did not confirm the sign-in: start again`);
    }
    const account = await this.accountFor(provider, claims);
    if (account.active !== 1) throw ApiException.of('ACCOUNT_DISABLED', 'this account is disabled: ask an administrator of the service');
    await this.grantRoles(provider, claims, account.id);
    const cookie = await this.auth.startSession(account.id, presented, client);
    return { cookie, account: { id: account.id, username: account.username }, next: pending.next };
  }

  /** The account the subject is linked to; else the one with its verified address, linked; else a new one. */
  private async accountFor(provider: OidcProviderSettings, claims: Oidc.IDToken) {
    const linked = await this.identities.accountOf(provider.id, claims.sub);
    if (linked !== null) return (await this.accounts.findById(linked))!;
    const email = typeof claims.email === 'string' ? claims.email.trim() : '';
    // An address the provider has not verified proves nothing about who signs in.
    if (!email || claims.email_verified !== true) {
      throw ApiException.of('FORBIDDEN', `${provider.name} gave no verified e-mail address: an account is linked by one`);
    }
    const existing = await this.accounts.findByLogin(email);
    if (existing && existing.emailKey === email.toLowerCase()) {
      // A provider vouching for an address takes over the account that has it: only where the
      // operator said it may, only for an address its account proved, and never an administrator's.
      if (!provider.linkByEmail || existing.groupid === GROUP_ADMIN) {
        throw ApiException.of('FORBIDDEN', 'an account with this address exists: sign in with its password');
      }
      if (existing.emailVerifiedAt === null) {
        throw ApiException.of('FORBIDDEN', 'an account with this address exists but has not verified it: sign in with its password and verify it first');
      }
      return (await this.accounts.findById(await this.identities.link(provider.id, claims.sub, existing.id)))!;
    }
    const created = await this.newAccount(email, claims);
    return (await this.accounts.findById(await this.identities.link(provider.id, claims.sub, created)))!;
  }

  /** A new account for the address, named after the provider's username (or the address), made unique. */
  private async newAccount(email: string, claims: Oidc.IDToken): Promise<number> {
    const wanted = typeof claims.preferred_username === 'string' ? claims.preferred_username : email.split('@')[0]!;
    const base = wanted
      .replace(/[^A-Za-z0-9._-]/g, '')
      .slice(0, 56)
      .padEnd(3, '0');
    // No password anyone knows: a reset mail (to the verified address) gives one.
    const passwordHash = await this.hasher.hash(this.crypto.generate());
    for (let n = 0; n < 20; n++) {
      const username = n === 0 ? base : `${base}-${n + 1}`;
      if (!USERNAME_PATTERN.test(username)) continue;
      const created = await this.accounts.create({
        username,
        email,
        fullname: typeof claims.name === 'string' ? claims.name.slice(0, 200) : '',
        passwordHash,
        groupid: 2,
        maxDevices: this.config.accounts.maxDevices,
        expiresOn: formatDate(new Date(Date.now() + this.config.accounts.expirationDays * 86_400_000)),
        emailVerified: true,
      });
      if (created.ok) return created.account.id;
      if (created.conflict === 'email') throw ApiException.of('FORBIDDEN', 'an account with this address exists: sign in with its password first');
    }
    throw ApiException.of('USERNAME_TAKEN', 'no free username for this account: ask an administrator');
  }

  /**
   * `<organisation>:<role>` entries of the provider's role claim become memberships: only in the
   * organisations the provider's `role_organisations` lists, never as owner (ownership is given by
   * an owner), and only of organisations that exist. Each change reaches every instance's cached
   * credentials at once, as a change by an admin does.
   */
  private async grantRoles(provider: OidcProviderSettings, claims: Oidc.IDToken, accountId: number): Promise<void> {
    if (provider.roleClaim === null) return;
    const value = claims[provider.roleClaim];
    const entries = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
    for (const entry of entries.slice(0, 100)) {
      if (typeof entry !== 'string') continue;
      const split = entry.lastIndexOf(':');
      const [name, role] = [entry.slice(0, split), entry.slice(split + 1)];
      if (split < 1 || !ORG_ROLES.includes(role as OrgRole) || role === 'owner' || !provider.roleOrganisations.includes(name.toLowerCase())) {
        this.logger.warn(`role claim ${entry} of ${provider.id} is not one it may give`);
        continue;
      }
      const organisation = await this.organisations.grantByName(name, accountId, role as OrgRole);
      if (organisation === null) this.logger.warn(`role claim ${entry} of ${provider.id} not applied`);
      else await this.revocations.announce(organisation);
    }
  }

  private provider(id: string): OidcProviderSettings {
    const found = this.config.oidcProviders.find((p) => p.id === id);
    if (!found) throw ApiException.notFound('sign-in provider', 'provider');
    return found;
  }

  private callbackUrl(provider: OidcProviderSettings): string {
    return `${this.config.publicBaseUrl}/auth/oidc/${provider.id}/callback`;
  }

  /** The redirect URI registered at the provider (PUBLIC_BASE_URL's), for the callback to rebuild the answer's URL on. */
  callbackUrlOf(providerId: string): string {
    return this.callbackUrl(this.provider(providerId));
  }

  private configuration(provider: OidcProviderSettings): Promise<Oidc.Configuration> {
    let found = this.discovered.get(provider.id);
    if (!found) {
      const insecure = provider.issuer.startsWith('http://');
      found = loadOidc().then((oidc) =>
        oidc.discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret.reveal(), undefined, {
          // Plain HTTP only for a provider on this machine (the configuration refuses it elsewhere).
          execute: insecure ? [oidc.allowInsecureRequests] : [],
        }),
      );
      found.catch(() => this.discovered.delete(provider.id));
      this.discovered.set(provider.id, found);
    }
    return found.catch((error: unknown) => {
      this.logger.warn(`discovery of ${provider.id} failed: ${(error as Error).message}`);
      throw ApiException.of('UNAVAILABLE', `${provider.name} cannot be reached: try again later`);
    });
  }

  private unseal(sealed: string | null): PendingSignIn | null {
    if (!sealed) return null;
    try {
      return JSON.parse(this.crypto.decrypt(Buffer.from(sealed, 'base64url'))) as PendingSignIn;
    } catch {
      return null;
    }
  }
}
