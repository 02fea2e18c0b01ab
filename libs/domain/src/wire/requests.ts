import type { KeyRight } from './token';
import type { AnyJson } from './json';
import type { UplinkIssues } from './uplink';
import type { FeedbackCategory } from './system';
import type { GeoJsonPolygon } from './fence';
import type { HttpJsonMappingWire, NetworkAdapter } from './network-config';
import type { TokenRequestType } from './token';

/**
 * Request bodies and queries as a client sends them (docs/api.md §3–§8). The api validates them with
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

/** Ask for a reset link by mail. */
export interface RestoreByEmailRequest {
  email: string;
}

/** Set a new password with the mailed reset token. */
export interface RestoreByTokenRequest {
  token: string;
  password: string;
}

export type RestoreRequest = RestoreByEmailRequest | RestoreByTokenRequest;

export interface PasswordChangeRequest {
  current_password: string;
  new_password: string;
}

/** POST /auth/verify: the token from the verification mail. */
export interface EmailVerifyRequest {
  token: string;
}

/**
 * PATCH /user (session or master token): a new e-mail address, which takes effect once verified
 * (`email_pending` until then); the current address again withdraws a pending change.
 */
export interface AccountUpdateRequest {
  email: string;
  current_password: string;
}

export interface CreateTokenRequest {
  type: TokenRequestType;
  name?: string | null;
  /** `YYYY-MM-DD HH:MM:SS` (UTC) in the future, or null for no expiry. */
  until?: string | null;
  /** What the key may do; absent or null: everything its type allows (a key made by a key with rights: that key's). */
  rights?: KeyRight[] | null;
}

export interface DeviceRegisterRequest {
  label?: string;
  type_ref?: number | null;
  decoder_ref?: number | null;
  network_ref?: number | null;
  icon_ref?: number | null;
  folder?: string | null;
  tags?: AnyJson;
}

/** The writable members of the device metadata (docs/api.md §4); `null` clears one. */
export interface DeviceMetaUpdateRequest {
  label?: string;
  folder?: string | null;
  tags?: AnyJson;
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
  /**
   * Days the device's raw uplinks are kept, no longer than its account's retention in force; null:
   * the account's (owner only; an addition to the spec's members, docs/api.md §4).
   */
  uplink_retention_days?: number | null;
}

/** `from`/`to` are unix seconds, inclusive. */
export interface HistoryQuery {
  from?: number;
  to?: number;
  limit?: number;
  order?: 'asc' | 'desc';
  /** The organisation to act in, for a download link that cannot send X-Organisation (docs/api.md §20). */
  organisation?: string;
}

/** GET /user/device/table/{eui}'s query: the history's, and only the uplinks whose decoding said something (or nothing). */
export interface TableQuery extends HistoryQuery {
  issues?: UplinkIssues;
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
  gateways?: RestGatewayRequest[];
}

/**
 * An uplink simulated from the console (POST /user/device/uplink/{eui}/simulate): a REST item's
 * members without the EUI (the path's) and without what only a network knows.
 */
export interface SimulateUplinkRequest {
  port: number;
  /** Base64; exactly one of payload_raw and payload_hex. */
  payload_raw?: string;
  payload_hex?: string;
  RSSI?: number;
  SNR?: number;
}

/** A gateway that heard a REST uplink. */
export interface RestGatewayRequest {
  gateway_id: string;
  rssi?: number;
  snr?: number;
  lat?: number;
  lon?: number;
}

/** Ask the device to acknowledge: true/false, or 1/0 as commands show it. */
export type CommandConfirmed = boolean | 0 | 1;

/** A raw downlink in hex. */
export interface HexCommandRequest {
  port: number;
  confirmed?: CommandConfirmed;
  payload_hex: string;
}

/** A raw downlink in Base64. */
export interface Base64CommandRequest {
  port: number;
  confirmed?: CommandConfirmed;
  payload_base64: string;
}

/** A raw downlink as printable ASCII, `\xNN` for any other byte. */
export interface AsciiCommandRequest {
  port: number;
  confirmed?: CommandConfirmed;
  payload_ASCII: string;
}

/**
 * A command by name (GET …/available). For a device family, one of its commands and its
 * parameters; for a device whose decoder is a codec, `command` is a label kept with the command and
 * `params` is passed to the codec's encodeDownlink as `data`, exactly as sent.
 */
export interface NamedCommandRequest {
  command: string;
  params?: Record<string, unknown>;
  confirmed?: CommandConfirmed;
}

/** A raw downlink (exactly one payload encoding) or a named one the device's encoder knows. */
export type CreateCommandRequest = HexCommandRequest | Base64CommandRequest | AsciiCommandRequest | NamedCommandRequest;

export interface CreateFenceRequest {
  name: string;
  geometry: GeoJsonPolygon;
}

export interface CreateCodecRequest {
  name: string;
  description?: string;
  script: string;
}

/** PATCH /user/codec/{uid}: the members to change. */
export interface UpdateCodecRequest {
  name?: string;
  description?: string;
  script?: string;
}

/**
 * POST /user/codec/import: a codec in The Things Network device repository's layout — its codec
 * YAML (`uplinkDecoder`, `downlinkEncoder`, `downlinkDecoder`, each naming its script by
 * `fileName`, with `examples`) and the scripts it names, by those names.
 */
export interface ImportCodecRequest {
  name: string;
  description?: string;
  yaml: string;
  files: Record<string, string>;
}

/** POST /user/codec/try: a draft script on given bytes, and/or a stored codec's examples. */
export interface TryCodecRequest {
  script: string;
  fPort?: number;
  payload_hex?: string;
  payload_base64?: string;
  /** A codec of the account whose examples to run with this script. */
  examples_of?: number;
}

/** ChirpStack and The Things Stack take base_url and api_key (and the TTS ids); HTTP JSON takes a mapping. */
export interface CreateNetworkRequest {
  name: string;
  adapter: NetworkAdapter;
  base_url?: string;
  api_key?: string;
  application_id?: string;
  webhook_id?: string;
  mapping?: Partial<HttpJsonMappingWire>;
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
  taxonomy?: { id: string; class: string; order: string; family: string; genus: string; species: string } | null;
  /** Who made it: "person" for a person's box, a detector's name; left out or null when unsaid. */
  source?: string | null;
}

/** The image-level prediction of POST …/annotations in our own object form. */
export interface ImagePredictionRequest {
  label: string;
  score: number;
  taxonomy?: { id: string; class: string; order: string; family: string; genus: string; species: string } | null;
  source?: string | null;
}

/** POST …/annotations in our own object form: the boxes and the image-level prediction (null: none), replacing what was there. */
export interface AnnotationsRequest {
  annotations: AnnotationRequest[];
  prediction?: ImagePredictionRequest | null;
}
