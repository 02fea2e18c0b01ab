import { Inject, Injectable } from '@nestjs/common';
import { toUnix } from '@dts/domain';
import { type AccountNetworkRow, NetworksRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, outboundUrlProblem, TokenCryptoService } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { CreateNetworkDto, NetworkConfigResponse } from './dto/network.dto';

const toWire = (r: AccountNetworkRow): NetworkConfigResponse => ({
  uid: r.uid,
  name: r.name,
  adapter: r.adapter,
  base_url: r.base_url,
  application_id: r.application_id,
  webhook_id: r.webhook_id,
  created_unix: toUnix(r.created_at),
});

/** An account's own networks: where its devices' downlinks go, with the key to get them there. */
@Injectable()
export class NetworksService {
  constructor(
    private readonly networks: NetworksRepository,
    private readonly crypto: TokenCryptoService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async list(principal: AuthPrincipal): Promise<NetworkConfigResponse[]> {
    return (await this.networks.list(principal.accountId)).map(toWire);
  }

  async create(principal: AuthPrincipal, dto: CreateNetworkDto): Promise<NetworkConfigResponse> {
    const problem = await outboundUrlProblem(dto.base_url, this.config.outboundAllowPrivate);
    if (problem) throw ApiException.validation('base_url', `base_url ${problem}`);
    const row = await this.networks.create(principal.accountId, {
      name: dto.name,
      adapter: dto.adapter,
      baseUrl: dto.base_url.replace(/\/+$/, ''),
      apiKeyEncrypted: this.crypto.encrypt(dto.api_key),
      applicationId: dto.application_id ?? null,
      webhookId: dto.webhook_id ?? null,
    });
    return toWire(row);
  }

  async delete(principal: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.networks.delete(principal.accountId, uid))) throw ApiException.notFound('network', 'uid');
    return { uid, deleted: true };
  }
}
