import { TokenCryptoService } from '@dts/platform';
import { Injectable } from '@nestjs/common';
import { GROUP_ADMIN, TOKEN_PATTERN } from '@dts/domain';
import { AccountsRepository, TokensRepository } from '@dts/persistence';
import type { Request, Response } from 'express';
import { ApiException } from '../http/api.exception';
import type { AuthPrincipal } from './auth-principal';
import { presentedToken } from './credentials';
import { SessionService } from './session.service';

/** Turns a request's credentials into a principal: a token first, else the session cookie. */
@Injectable()
export class Authenticator {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly accounts: AccountsRepository,
    private readonly sessions: SessionService,
    private readonly crypto: TokenCryptoService,
  ) {}

  /** null when the request carries no credentials; throws when it carries bad ones. */
  async authenticate(req: Request, res: Response): Promise<AuthPrincipal | null> {
    const token = presentedToken(req);
    if (token !== null) return this.byToken(token);
    const cookie = this.sessions.readCookie(req);
    if (cookie !== null) return this.bySession(req, res, cookie);
    return null;
  }

  private async byToken(value: string): Promise<AuthPrincipal> {
    if (!TOKEN_PATTERN.test(value)) throw ApiException.of('INVALID_TOKEN', 'the API token is not valid', 'Authorization');
    const found = await this.tokens.findCredential(this.crypto.digest(value));
    if (!found || found.tokenEnabled !== 1 || found.accountActive !== 1) throw ApiException.of('INVALID_TOKEN', 'the API token is not valid', 'Authorization');
    if (found.tokenUntil && found.tokenUntil.getTime() <= Date.now()) throw ApiException.of('TOKEN_EXPIRED', 'the API token has expired', 'Authorization');
    return {
      accountId: found.accountId,
      username: found.username,
      isAdmin: found.groupid === GROUP_ADMIN,
      via: 'token',
      tokenType: found.tokenType,
      tokenUid: found.tokenUid,
      sessionDigest: null,
      sessionExpiresAt: null,
      sessionCreatedAt: null,
      sessionLastSeenAt: null,
    };
  }

  private async bySession(req: Request, res: Response, cookie: string): Promise<AuthPrincipal> {
    const resolved = await this.sessions.resolve(req, res, cookie);
    const account = resolved && (await this.accounts.findById(resolved.session.accountId));
    if (!resolved || !account || account.active !== 1) throw ApiException.of('AUTH_REQUIRED', 'the session has ended: log in again');
    return {
      accountId: account.id,
      username: account.username,
      isAdmin: account.groupid === GROUP_ADMIN,
      via: 'session',
      tokenType: null,
      tokenUid: null,
      sessionDigest: resolved.digest,
      sessionExpiresAt: resolved.session.expiresAt,
      sessionCreatedAt: resolved.session.createdAt,
      sessionLastSeenAt: resolved.session.lastSeenAt,
    };
  }
}
