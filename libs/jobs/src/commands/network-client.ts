import { type Downlink, type DownlinkTarget, type Network, type NetworkDownlink, networkByKind, PermanentDownlinkError, type QueueRemoval } from '@dts/domain';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig, callNetwork, converse, type NetworkCredentials, outboundUrlProblem, TokenCryptoService } from '@dts/platform';

/** What the client needs of a command's network: the columns of its `networks` row a DispatchRow carries. */
export interface CommandNetworkRow {
  /** The network's name, for messages. */
  network: string | null;
  /** Its kind: the registry entry (networkByKind) says how downlinks reach it. */
  adapter: string | null;
  base_url: string | null;
  api_key_encrypted: Buffer | null;
  application_id: string | null;
  webhook_id: string | null;
}

/** A network reached through its API: its definition, where it is, and how to sign in. */
interface Reached {
  downlink: Extract<NetworkDownlink, { via: 'api' }>;
  target: DownlinkTarget;
  credentials: NetworkCredentials;
}

/**
 * A command's one way to its network, for both the api (cancelling, flushing) and the worker
 * (dispatching): the network by its kind in the registry, its base URL and key from its row, the
 * outbound-address check, the key decrypted, and then the network definition's calls made. It holds
 * no state and records nothing: what becomes of the commands is the caller's (the record moves
 * through CommandsRepository). It lives beside the dispatch processor in libs/jobs because both the
 * worker and the api (which already imports @dts/jobs) can import it from here, and it needs only
 * libs/domain and libs/platform.
 */
@Injectable()
export class NetworkClient {
  constructor(
    @Inject(TokenCryptoService) private readonly crypto: Pick<TokenCryptoService, 'decrypt'>,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'outboundAllowPrivate' | 'networkTimeoutMs'>,
  ) {}

  /** The registry's entry for a row's network, or null (none, or a kind this build does not know). */
  networkOf(row: Pick<CommandNetworkRow, 'adapter'>): Network | null {
    return networkByKind(row.adapter);
  }

  /**
   * Hands a downlink to its network as the network's definition says; resolves with the network's
   * id of it (what its events name it by). A failure a retry cannot mend is a PermanentDownlinkError.
   */
  async send(row: CommandNetworkRow, downlink: Downlink): Promise<string> {
    const network = this.networkOf(row);
    if (!network?.downlink)
      throw new PermanentDownlinkError(row.adapter === null ? 'the device has no network' : `network "${row.network}" takes no downlinks`);
    if (network.downlink.via === 'simulated') return network.downlink.accept(downlink);
    const reached = await this.reach(row, network.downlink);
    const call = reached.downlink.call(reached.target, downlink);
    return call.networkId(await callNetwork(reached.credentials, { method: 'POST', url: call.url, body: call.body }));
  }

  /**
   * Takes downlinks (by the network's ids) of one device back out of its network's queue
   * (docs/api.md §6). Rejects with a PermanentDownlinkError when the network cannot be asked at all
   * (no API, no address and key, a forbidden address, a bad key), with a plain Error when it may
   * answer later; the outcome's `renamed` and `lost` are the caller's to record.
   */
  async remove(row: CommandNetworkRow, eui: string, networkIds: readonly string[]): Promise<QueueRemoval> {
    const network = this.networkOf(row);
    if (network?.downlink?.via !== 'api') throw new PermanentDownlinkError(`network "${row.network}" keeps no queue of its own to take downlinks out of`);
    const reached = await this.reach(row, network.downlink);
    return converse(reached.credentials, reached.downlink.queue.remove(reached.target, eui, networkIds));
  }

  /** The glue every call to a network's API goes through: its address and key, checked and decrypted. */
  private async reach(row: CommandNetworkRow, downlink: Reached['downlink']): Promise<Reached> {
    if (!row.base_url || !row.api_key_encrypted)
      throw new PermanentDownlinkError(`network "${row.network}" has no API address and key: configure your own with POST /user/network`);
    // Checked before any call (scheme, credentials in the URL, where the host resolves); callNetwork
    // judges the addresses again as it connects, so that DNS cannot change between the two.
    const problem = await outboundUrlProblem(row.base_url, this.config.outboundAllowPrivate);
    if (problem) throw new PermanentDownlinkError(`the network's base_url ${problem}`);
    return {
      downlink,
      target: { baseUrl: row.base_url, applicationId: row.application_id, webhookId: row.webhook_id },
      credentials: {
        apiKey: this.crypto.decrypt(row.api_key_encrypted),
        allowPrivate: this.config.outboundAllowPrivate,
        timeoutMs: this.config.networkTimeoutMs,
      },
    };
  }
}
