import { TokenCryptoService } from '@dts/platform';
import { Injectable } from '@nestjs/common';
import { GROUP_ADMIN, TOKEN_PATTERN } from '@dts/domain';
import { AccountsRepository, OrganisationsRepository, TokensRepository } from '@dts/persistence';
import { ApiException } from '../http/api.exception';
import type { AuthPrincipal } from './auth-principal';
import { CredentialCache } from './credential-cache';
import { SessionStore } from './session-store';
import { type SessionCookie, SessionService } from './session.service';

/** The credentials a request carries, as the HTTP layer read them (credentials.ts, SessionCookies). */
export interface PresentedCredentials {
  token: string | null;
  cookie: string | null;
}

/** Who calls; `renewedCookie`: the session cookie to set again when the session's expiry rolled forward. */
export interface Authentication {
  principal: AuthPrincipal;
  renewedCookie: SessionCookie | null;
}

/** Turns a request's credentials into a principal: a token first, else the session cookie. */
@Injectable()
export class Authenticator {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionService,
    private readonly crypto: TokenCryptoService,
    private readonly store: SessionStore,
    private readonly cache: CredentialCache,
    private readonly organisations: OrganisationsRepository,
  ) {}

  /** null when the request carries no credentials; throws when it carries bad ones. */
  async authenticate(credentials: PresentedCredentials): Promise<Authentication | null> {
    if (credentials.token !== null) return { principal: await this.byToken(credentials.token), renewedCookie: null };
    if (credentials.cookie !== null) return this.bySession(credentials.cookie);
    return null;
  }

  /**
   * Whether the credential a principal was established with still holds: for what outlives its
   * request (a live stream, an export), re-checked when the account's credentials change.
   */
  async stillValid(principal: AuthPrincipal): Promise<boolean> {
    if (principal.via === 'token' && principal.tokenUid !== null) return this.tokens.isLive(principal.tokenUid);
    if (principal.via === 'session' && principal.sessionDigest) {
      const session = await this.store.get(principal.sessionDigest);
      if (!session || session.expiresAt.getTime() <= Date.now()) return false;
      if ((await this.accounts.findById(principal.userId))?.active !== 1) return false;
      // Acting in an organisation: still a member of it.
      return principal.organisation === null || (await this.organisations.membership(String(principal.organisation.id), principal.userId)) !== null;
    }
    return true;
  }

  private async byToken(value: string): Promise<AuthPrincipal> {
    if (!TOKEN_PATTERN.test(value)) throw ApiException.of('INVALID_TOKEN', 'the API token is not valid', 'Authorization');
    const digest = this.crypto.digest(value);
    const found = await this.cache.token(digest, () => this.tokens.findCredential(digest));
    // An organisation's key stops with its maker: disabled, or no longer a member (role null).
    if (!found || found.tokenEnabled !== 1 || found.accountActive !== 1 || found.creatorActive !== 1 || found.role === null) {
      throw ApiException.of('INVALID_TOKEN', 'the API token is not valid', 'Authorization');
    }
    if (found.tokenUntil && found.tokenUntil.getTime() <= Date.now()) throw ApiException.of('TOKEN_EXPIRED', 'the API token has expired', 'Authorization');
    return {
      accountId: found.accountId,
      username: found.username,
      userId: found.createdBy ?? found.accountId,
      organisation: found.organisation ? { id: found.accountId, name: found.username } : null,
      role: found.role,
      isAdmin: found.groupid === GROUP_ADMIN,
      via: 'token',
      tokenType: found.tokenType,
      tokenUid: found.tokenUid,
      tokenUntil: found.tokenUntil,
      rights: found.rights,
      sessionDigest: null,
      sessionExpiresAt: null,
      sessionCreatedAt: null,
      sessionLastSeenAt: null,
    };
  }

  private async bySession(cookie: string): Promise<Authentication> {
    const resolved = await this.sessions.resolve(cookie);
    const account = resolved && (await this.accounts.findById(resolved.session.accountId));
    if (!resolved || !account || account.active !== 1) throw ApiException.of('AUTH_REQUIRED', 'the session has ended: log in again');
    const principal: AuthPrincipal = {
      accountId: account.id,
      username: account.username,
      userId: account.id,
      organisation: null,
      role: 'owner',
      isAdmin: account.groupid === GROUP_ADMIN,
      via: 'session',
      tokenType: null,
      tokenUid: null,
      tokenUntil: null,
      rights: null,
      sessionDigest: resolved.digest,
      sessionExpiresAt: resolved.session.expiresAt,
      sessionCreatedAt: resolved.session.createdAt,
      sessionLastSeenAt: resolved.session.lastSeenAt,
    };
    return { principal, renewedCookie: resolved.renewed };
  }
}
