import { Inject, Injectable } from '@nestjs/common';
import type { AccountWire } from '@dts/domain';
import { AccountsRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import { toAccountWire } from './user.mapper';

@Injectable()
export class UserService {
  constructor(
    private readonly accounts: AccountsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async me(principal: AuthPrincipal): Promise<AccountWire> {
    const account = await this.accounts.findById(principal.accountId);
    if (!account) throw ApiException.notFound('account');
    return toAccountWire(account, this.config.timeseries.uplinkRetentionDays);
  }
}
