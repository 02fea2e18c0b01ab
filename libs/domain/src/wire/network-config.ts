/** The adapters an account's own network can use (POST /user/network). */
export const NETWORK_ADAPTERS = ['chirpstack', 'ttn'] as const;
export type NetworkAdapter = (typeof NETWORK_ADAPTERS)[number];

/** An account's own network (GET/POST /user/network). The API key is never shown again. */
export interface NetworkConfigWire {
  uid: number;
  name: string;
  adapter: NetworkAdapter;
  base_url: string;
  application_id: string | null;
  webhook_id: string | null;
  created_unix: number;
}
