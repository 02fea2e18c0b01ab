import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface GatewayRow {
  gateway_id: string;
  network_ref: number | null;
  lat: number | null;
  lon: number | null;
  last_seen: Date;
  uplinks_24h: number;
  rssi_avg: number | null;
}

/** Gateways computed from the rx metadata stored with the uplinks of the account's devices. */
@Injectable()
export class GatewaysRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  list(accountId: number, networkRef: number | null): Promise<GatewayRow[]> {
    return this.ds.query(
      `SELECT g.gateway_id, g.network_ref,
              (array_agg(g.lat ORDER BY g.received_at DESC) FILTER (WHERE g.lat IS NOT NULL))[1] AS lat,
              (array_agg(g.lon ORDER BY g.received_at DESC) FILTER (WHERE g.lon IS NOT NULL))[1] AS lon,
              max(g.received_at) AS last_seen,
              (count(*) FILTER (WHERE g.received_at > now() - interval '24 hours'))::int AS uplinks_24h,
              avg(g.rssi) FILTER (WHERE g.received_at > now() - interval '24 hours') AS rssi_avg
       FROM uplink_gateways g
       JOIN devices d ON d.uid = g.device_id
       WHERE d.deleted_at IS NULL
         AND (d.owner_id = $1 OR EXISTS (SELECT 1 FROM device_shares s WHERE s.device_id = d.uid AND s.account_id = $1))
         AND ($2::int IS NULL OR g.network_ref = $2)
       GROUP BY g.gateway_id, g.network_ref
       ORDER BY g.gateway_id, g.network_ref`,
      [accountId, networkRef],
    );
  }
}
