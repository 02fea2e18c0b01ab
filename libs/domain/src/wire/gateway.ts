/** A gateway that heard the caller's devices (GET /user/gateways), from the networks' rx metadata. */
export interface GatewayWire {
  gateway_id: string;
  network_ref: number | null;
  lat: number | null;
  lon: number | null;
  last_seen_unix: number;
  uplinks_24h: number;
  /** Mean RSSI of the last 24 hours' receptions; null when none. */
  rssi_avg: number | null;
}
