import { TokenCryptoService } from '@dts/platform';
import { Injectable } from '@nestjs/common';
import { type ApiTokenWire, MAX_TOKENS_PER_ACCOUNT, parseSqlTimestamp, tokenTypeOf } from '@dts/domain';
import { TokensRepository } from '@dts/persistence';
import { type AuthPrincipal, isMasterCredential } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { CreateTokenDto } from './dto/create-token.dto';
import { toApiTokenWire } from './token.mapper';

@Injectable()
export class TokensService {
  constructor(
    private readonly tokens: TokensRepository,
    private readonly crypto: TokenCryptoService,
  ) {}

  /**
   * An app token sees the app tokens only: a master token's value would hand it what it may not
   * do itself (create master tokens, change the password, delete the account).
   */
  async list(principal: AuthPrincipal): Promise<ApiTokenWire[]> {
    const master = isMasterCredential(principal);
    const rows = (await this.tokens.listActive(principal.accountId)).filter((t) => master || t.type === 'app');
    return rows.map((t) => toApiTokenWire(t, this.crypto.decrypt(t.valueEncrypted)));
  }

  /** Returns the new token's uid; its value is listed by GET /user/token. */
  async create(principal: AuthPrincipal, dto: CreateTokenDto): Promise<number> {
    const type = tokenTypeOf(dto.type);
    if (type === 'master' && !isMasterCredential(principal)) {
      throw ApiException.of('FORBIDDEN', 'an app token cannot create a master token', 'type');
    }
    const value = this.crypto.generate();
    const created = await this.tokens.createWithinLimit(
      {
        accountId: principal.accountId,
        digest: this.crypto.digest(value),
        valueEncrypted: this.crypto.encrypt(value),
        type,
        name: dto.name ?? null,
        until: dto.until ? parseSqlTimestamp(dto.until) : null,
      },
      MAX_TOKENS_PER_ACCOUNT,
    );
    if (!created.ok) throw ApiException.of('TOKEN_LIMIT_REACHED', `an account holds at most ${MAX_TOKENS_PER_ACCOUNT} tokens`);
    return created.token.uid;
  }

  /** An app token may delete app tokens, not the master tokens above it (403, as for creating one). */
  async delete(principal: AuthPrincipal, uid: number): Promise<number> {
    const master = isMasterCredential(principal);
    if (await this.tokens.delete(principal.accountId, uid, master ? undefined : 'app')) return uid;
    if (!master && (await this.tokens.typeOf(principal.accountId, uid)) === 'master') throw ApiException.of('FORBIDDEN', 'an app token cannot delete a master token', 'uid');
    throw ApiException.notFound('token', 'uid');
  }
}
