import type { FeedbackCategory } from './system';
import type { GeoJsonPolygon } from './fence';
import type { NetworkAdapter } from './network-config';
import type { TokenRequestType } from './token';

/**
 * Request bodies and queries as a client sends them (CONTRACT §3–§8). The api validates them with
 * its own DTOs; these are the shapes a typed client offers, so they list exactly the accepted members.
 */
export interface RegisterRequest {
  username: string;
  email: string;
  password: string;
  fullname?: string;
}

/** `username` may also be the account's e-mail. */
export interface LoginRequest {
  username: string;
  password: string;
}

export type RestoreRequest = { email: string } | { token: string; password: string };

export interface PasswordChangeRequest {
  current_password: string;
  new_password: string;
}

export interface CreateTokenRequest {
  type: TokenRequestType;
  name?: string | null;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) in the future, or null for no expiry. */
  until?: string | null;
}

export interface DeviceRegisterRequest {
  label?: string;
  type_ref?: number | null;
  decoder_ref?: number | null;
  network_ref?: number | null;
  icon_ref?: number | null;
  folder?: string | null;
  tags?: unknown;
}

/** The writable members of the device metadata (CONTRACT §4); `null` clears one. */
export interface DeviceMetaUpdateRequest {
  label?: string;
  folder?: string | null;
  tags?: unknown;
  installation_lat?: number | null;
  installation_lon?: number | null;
  lat?: number | null;
  lon?: number | null;
  alt?: number | null;
  battery_percent?: number | null;
  battery_voltage?: number | null;
  temperature_dc?: number | null;
  signal_percent?: number | null;
  signal_dbm?: number | null;
  firmware_version?: string | null;
  type_ref?: number | null;
  decoder_ref?: number | null;
  network_ref?: number | null;
  icon_ref?: number | null;
  user_ref?: number | null;
  /** Hands the device over to another account (owner only). */
  owner_ref?: number;
}

/** `from`/`to` are unix seconds, inclusive. */
export interface HistoryQuery {
  from?: number;
  to?: number;
  limit?: number;
  order?: 'asc' | 'desc';
}

/** One uplink of POST /ingest/rest: exactly one of payload_raw (Base64) and payload_hex. */
export interface RestUplinkRequest {
  devEUI: string;
  port: number;
  payload_raw?: string;
  payload_hex?: string;
  time_stamp_unix?: number;
  network?: string;
  SF?: number;
  RSSI?: number;
  SNR?: number;
  geoloc_lat?: number;
  geoloc_lon?: number;
  geoloc_alt?: number;
  fcnt?: number;
  gateways?: { gateway_id: string; rssi?: number; snr?: number; lat?: number; lon?: number }[];
}

/** A raw downlink (exactly one payload encoding) or a named one the device's encoder knows. */
export type CreateCommandRequest =
  | { port: number; confirmed?: boolean; payload_hex: string }
  | { port: number; confirmed?: boolean; payload_base64: string }
  | { port: number; confirmed?: boolean; payload_ASCII: string }
  | { command: string; params?: Record<string, unknown>; confirmed?: boolean };

export interface CreateFenceRequest {
  name: string;
  geometry: GeoJsonPolygon;
}

export interface CreateCodecRequest {
  name: string;
  description?: string;
  script: string;
}

export interface CreateNetworkRequest {
  name: string;
  adapter: NetworkAdapter;
  base_url: string;
  api_key: string;
  application_id?: string;
  webhook_id?: string;
}

export interface FeedbackRequest {
  message: string;
  category?: FeedbackCategory;
  email?: string;
}

/** Form members of an image upload besides the file (multipart). */
export interface ImageUploadForm {
  ts_photo_unix?: number;
  ts_tx_unix?: number;
  lat?: number;
  lon?: number;
  vendor_id?: string;
  filename?: string;
}

/** One detection of POST …/annotations in our own list form (boxes normalised [x, y, w, h]). */
export interface AnnotationRequest {
  bbox: [number, number, number, number];
  score: number;
  label: string;
  taxonomy?: { id: string; class: string; order: string; family: string; genus: string; species: string };
}
