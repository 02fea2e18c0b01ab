import { Inject, Injectable } from '@nestjs/common';
import { type HttpJsonMappingWire, ACCOUNT_NETWORK_KINDS, type Network, networkByKind, readHttpJsonMapping, toUnix } from '@dts/domain';
import { type AccountNetworkRow, NetworksRepository } from '@dts/persistence';
import { APP_CONFIG, type AppConfig, outboundUrlProblem, TokenCryptoService } from '@dts/platform';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';
import type { CreateNetworkDto, NetworkConfigResponse } from './dto/network.dto';

/** A stored mapping (jsonb keeps its own key order) in the order of docs/api.md §16. */
function inMappingOrder(stored: HttpJsonMappingWire): HttpJsonMappingWire {
  const mapping = readHttpJsonMapping(stored);
  return 'field' in mapping ? stored : mapping;
}

const toWire = (r: AccountNetworkRow): NetworkConfigResponse => ({
  uid: r.uid,
  name: r.name,
  adapter: r.adapter,
  base_url: r.base_url,
  application_id: r.application_id,
  webhook_id: r.webhook_id,
  mapping: r.ingest_mapping === null ? null : inMappingOrder(r.ingest_mapping),
  created_unix: toUnix(r.created_at),
});

const kindsVia = (via: 'api' | 'mapping') => ACCOUNT_NETWORK_KINDS.filter((k) => networkByKind(k)?.account?.via === via).join(' or ');
const apiKinds = () => kindsVia('api');
const mappingKinds = () => kindsVia('mapping');

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

  /** Takes what the network's kind says an account gives for it (its registry entry's `account`). */
  async create(principal: AuthPrincipal, dto: CreateNetworkDto): Promise<NetworkConfigResponse> {
    const network = networkByKind(dto.adapter);
    // The DTO admits only kinds an account may add.
    if (!network?.account) throw ApiException.validation('adapter', `adapter ${dto.adapter} cannot be added`);
    if (network.account.via === 'mapping') return this.createWithMapping(principal, dto, network);
    if (dto.mapping !== undefined) throw ApiException.validation('mapping', `mapping goes with ${mappingKinds()} networks`);
    // The DTO requires both for these adapters.
    const baseUrl = dto.base_url ?? '';
    const problem = await outboundUrlProblem(baseUrl, this.config.outboundAllowPrivate);
    if (problem) throw ApiException.validation('base_url', `base_url ${problem}`);
    const trimmed = baseUrl.replace(/\/+$/, '');
    const row = await this.networks.create(principal.accountId, {
      name: dto.name,
      adapter: dto.adapter,
      description: `${network.name} at ${trimmed}`,
      baseUrl: trimmed,
      apiKeyEncrypted: this.crypto.encrypt(dto.api_key ?? ''),
      applicationId: dto.application_id ?? null,
      webhookId: dto.webhook_id ?? null,
      ingestMapping: null,
    });
    return toWire(row);
  }

  /** A sender of uplinks (HTTP JSON): no API address or key; its mapping checked member by member. */
  private async createWithMapping(principal: AuthPrincipal, dto: CreateNetworkDto, network: Network): Promise<NetworkConfigResponse> {
    for (const field of ['base_url', 'api_key', 'application_id', 'webhook_id'] as const) {
      if (dto[field] !== undefined) throw ApiException.validation(field, `${field} goes with ${apiKinds()} networks, not ${network.kind}`);
    }
    const mapping = readHttpJsonMapping(dto.mapping);
    if ('field' in mapping) throw ApiException.validation(mapping.field, mapping.message);
    const row = await this.networks.create(principal.accountId, {
      name: dto.name,
      adapter: dto.adapter,
      description: `${network.name} uplinks through this network’s mapping`,
      baseUrl: null,
      apiKeyEncrypted: null,
      applicationId: null,
      webhookId: null,
      ingestMapping: mapping,
    });
    return toWire(row);
  }

  async delete(principal: AuthPrincipal, uid: number): Promise<{ uid: number; deleted: true }> {
    if (!(await this.networks.delete(principal.accountId, uid))) throw ApiException.notFound('network', 'uid');
    return { uid, deleted: true };
  }
}
