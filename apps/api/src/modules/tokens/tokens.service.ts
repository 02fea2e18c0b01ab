import { TokenCryptoService } from '@dts/platform';
import { Injectable } from '@nestjs/common';
import { type ApiTokenWire, formatSqlTimestamp, MAX_TOKENS_PER_ACCOUNT, parseSqlTimestamp, tokenTypeOf, type KeyRight } from '@dts/domain';
import { TokensRepository } from '@dts/persistence';
import { type AuthPrincipal, isMasterCredential } from '../../common/auth/auth-principal';
import { CredentialRevocations } from '../../common/auth/credential-revocations';
import { ApiException } from '../../common/http/api.exception';
import type { CreateTokenDto } from './dto/create-token.dto';
import { toApiTokenWire } from './token.mapper';

@Injectable()
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly crypto: TokenCryptoService,
    private readonly revocations: CredentialRevocations,
  ) {}

  /**
   * An app token sees the app tokens only: a master token's value would hand it what it may not
   * do itself (create master tokens, change the password, delete the account).
   */
  async list(principal: AuthPrincipal): Promise<ApiTokenWire[]> {
    const master = isMasterCredential(principal);
    const rows = (await this.tokens.listActive(principal.accountId)).filter((t) => master || t.type === 'app');
    // In an organisation a key's value is its maker's to see: another member's key would act with
    // that member's role (an admin copying an owner's key). The others are listed without it.
    const shown = (t: (typeof rows)[number]) => principal.organisation === null || t.createdBy === principal.userId;
    return rows.map((t) => toApiTokenWire(t, shown(t) ? this.crypto.decrypt(t.valueEncrypted) : ''));
  }

  /** Returns the new token's uid; its value is listed by GET /user/token. */
  async create(principal: AuthPrincipal, dto: CreateTokenDto): Promise<number> {
    const type = tokenTypeOf(dto.type);
    if (type === 'master' && !isMasterCredential(principal)) {
      throw ApiException.of('FORBIDDEN', 'an app token cannot create a master token', 'type');
    }
    const until = this.childExpiry(principal, dto.until ? parseSqlTimestamp(dto.until) : null);
    const rights = this.childRights(principal, dto.rights ?? null);
    const value = this.crypto.generate();
    const created = await this.tokens.createWithinLimit(
      {
        accountId: principal.accountId,
        digest: this.crypto.digest(value),
        valueEncrypted: this.crypto.encrypt(value),
        type,
        name: dto.name ?? null,
        until,
        // An organisation's key acts with its maker's role and ends when they leave.
        createdBy: principal.organisation ? principal.userId : null,
        rights,
      },
      MAX_TOKENS_PER_ACCOUNT,
    );
    if (!created.ok) throw ApiException.of('TOKEN_LIMIT_REACHED', `an account holds at most ${MAX_TOKENS_PER_ACCOUNT} tokens`);
    return created.token.uid;
  }

  /**
   * A token never outlives the token that made it: without `until` it ends with its creator; an
   * `until` past the creator's is refused. A session's tokens are the account holder's own and
   * are not bound to the session (whose expiry rolls forward with use); a password reset ends them.
   */
  private childExpiry(principal: AuthPrincipal, requested: Date | null): Date | null {
    const cap = principal.via === 'token' ? principal.tokenUntil : null;
    if (cap === null) return requested;
    if (requested === null) return cap;
    if (requested.getTime() > cap.getTime()) {
      throw ApiException.validation('until', `a token may not outlive the token that creates it (until ${formatSqlTimestamp(cap)} at most)`);
    }
    return requested;
  }

  /** A key never has more rights than the key that makes it: without a list it gets the maker's list. */
  private childRights(principal: AuthPrincipal, requested: KeyRight[] | null): KeyRight[] | null {
    const cap = principal.rights;
    if (cap === null) return requested;
    if (requested === null) return cap;
    const beyond = requested.filter((right) => !cap.includes(right));
    if (beyond.length > 0) throw ApiException.of('RIGHT_REQUIRED', `a key cannot give rights it does not have: ${beyond.join(', ')}`, 'rights');
    return requested;
  }

  /** An app token may delete app tokens, not the master tokens above it (403, as for creating one). */
  async delete(principal: AuthPrincipal, uid: number): Promise<number> {
    const master = isMasterCredential(principal);
    if (await this.tokens.delete(principal.accountId, uid, master ? undefined : 'app')) {
      // Streams opened with the token end, on whichever instance holds them.
      await this.revocations.announce(principal.accountId);
      return uid;
    }
    if (!master && (await this.tokens.typeOf(principal.accountId, uid)) === 'master')
      throw ApiException.of('FORBIDDEN', 'an app token cannot delete a master token', 'uid');
    throw ApiException.notFound('token', 'uid');
  }
}
