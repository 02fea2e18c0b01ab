import { Injectable } from '@nestjs/common';
import { type GatewayWire, toUnix } from '@dts/domain';
import { DatamodelRepository, type GatewayRow, GatewaysRepository } from '@dts/persistence';
import type { AuthPrincipal } from '../../common/auth/auth-principal';
import { ApiException } from '../../common/http/api.exception';

const round1 = (n: number | null) => (n === null ? null : Math.round(Number(n) * 10) / 10);

const toGatewayWire = (row: GatewayRow): GatewayWire => ({
  gateway_id: row.gateway_id,
  network_ref: row.network_ref,
  lat: row.lat,
  lon: row.lon,
  last_seen_unix: toUnix(row.last_seen),
  uplinks_24h: row.uplinks_24h,
  rssi_avg: round1(row.rssi_avg),
});

@Injectable()
export class GatewaysService {
  constructor(
    private readonly gateways: GatewaysRepository,
    private readonly datamodel: DatamodelRepository,
  ) {}

  async list(principal: AuthPrincipal, networkRef: number | null): Promise<GatewayWire[]> {
    if (networkRef !== null && !(await this.datamodel.network(principal.accountId, networkRef))) throw ApiException.notFound('network', 'network_ref');
    return (await this.gateways.list(principal.accountId, networkRef)).map(toGatewayWire);
  }
}
