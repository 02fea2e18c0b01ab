/** The kinds of network an account may add (POST /user/network): its own ChirpStack or The Things Stack, or an HTTP JSON sender. */
export const NETWORK_ADAPTERS = ['chirpstack', 'ttn', 'http-json'] as const;
export type NetworkAdapter = (typeof NETWORK_ADAPTERS)[number];

/**
 * Where an HTTP JSON network's items keep each member (docs/api.md §16): a dot path (`data.rx[0].rssi`)
 * or a JSON Pointer (`/data/rx/0/rssi`); null where the sender has no such member.
 */
export interface HttpJsonMappingWire {
  devEUI: string;
  port: string;
  payload: string;
  payload_encoding: 'hex' | 'base64';
  /** Unix seconds (a number) or an RFC 3339 time (text); the time of arrival without one. */
  time: string | null;
  rssi: string | null;
  snr: string | null;
  /** The sender's id of the message: a redelivery with the same one is stored once. */
  message_id: string | null;
  fcnt: string | null;
  /** Where the array of items is, when the body is not the item or the array itself. */
  items: string | null;
}

/** An account's own network (GET/POST /user/network). The API key is never shown again. */
export interface NetworkConfigWire {
  uid: number;
  name: string;
  adapter: NetworkAdapter;
  /** ChirpStack and The Things Stack: their API; null for an HTTP JSON network. */
  base_url: string | null;
  application_id: string | null;
  webhook_id: string | null;
  /** HTTP JSON: its mapping, and its ingest route is POST /ingest/http/{uid}; null for the others. */
  mapping: HttpJsonMappingWire | null;
  created_unix: number;
}
