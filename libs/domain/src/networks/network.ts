import type { Eui } from '../eui';
import type { CommandStatus } from '../wire/command';
import type { ParsedItem } from './uplink';

/**
 * What one network means to the service, in one place per network (`networks/<name>/`): how its
 * ingest route reads a delivery (uplinks, or events about our downlinks) and how a downlink is
 * handed to it. The api runs the first, the worker makes the HTTP call of the second; neither knows
 * a network by name: its ingest route (with its OpenAPI text), what an account gives to add one of its
 * own, and its global row are all read from here. To add a network: a folder with its `Network`, a
 * line in `registry.ts`, and a migration seeding its global `networks` row (docs/architecture.md,
 * "Adding a network").
 */
export interface Network {
  /** The `networks.adapter` value of this network's rows (global and accounts' own). Stored: never rename. */
  readonly kind: string;
  /** The global `networks` row a migration seeds for it: uplinks arriving on its route are recorded with this uid. */
  readonly uid: number;
  readonly name: string;
  /** Its route under /ingest (also its metrics label); null when it has none. */
  readonly ingest: NetworkIngest | null;
  /** How downlinks reach it; null when it takes none. */
  readonly downlink: NetworkDownlink | null;
  /** What an account gives to add a network of this kind of its own (POST /user/network); null when it cannot. */
  readonly account: AccountNetworkKind | null;
  /** The global row's columns besides uid, name and kind, as its migration seeds them. */
  readonly seed: NetworkSeed;
}

/** The members of POST /user/network a network of this kind takes (docs/api.md §16). */
export interface AccountNetworkKind {
  /**
   * 'api': downlinks through its API, so `base_url` and `api_key` are required (and `requires`);
   * 'mapping': uplinks only, read through the `mapping` it is given, and nothing of an API.
   */
  readonly via: 'api' | 'mapping';
  /** Members it requires besides those of `via`. */
  readonly requires: readonly ('application_id' | 'webhook_id')[];
}

/** The columns of a network's global `networks` row that the registry does not already name. */
export interface NetworkSeed {
  readonly description: string;
  readonly interface: 'REST' | 'REST_DIRECT';
  /** Its `network_types` row (1 LoRaWAN, 7 other). */
  readonly typeRef: number;
  readonly lorawanNetId: string | null;
}

/** The OpenAPI text of an ingest route: plain data, turned into the api's decorators there. */
export interface IngestDoc {
  readonly summary: string;
  readonly description: string;
  /** The request body as OpenAPI's `@ApiBody` takes it (`schema`, and `required`/`description` when given). */
  readonly body: { readonly schema: Readonly<Record<string, unknown>>; readonly required?: boolean; readonly description?: string };
  /** A query member the route requires, with its values. */
  readonly query?: { readonly name: string; readonly values: readonly string[] };
}

export interface NetworkIngest {
  /** `POST /ingest/<path>` (`/ingest/<path>/{uid}` with `byUid`); also the handler's name and the metrics label. */
  readonly path: string;
  /**
   * The route names one network of this kind by uid (`POST /ingest/<path>/{uid}`): the global one, or
   * an account's own, whose `settings` (its stored mapping) `read` is given. Another account's network,
   * or one of another kind, is 404.
   */
  readonly byUid?: boolean;
  /**
   * Besides JSON it takes a binary encoding (application/octet-stream), handed to `read` as a
   * Uint8Array (ChirpStack's Protobuf marshaler).
   */
  readonly binary?: boolean;
  readonly doc: IngestDoc;
  /**
   * Reads one delivery. A body the network could have sent but that fails the service's checks is
   * refused per item (in `uplinks`); a request refused as a whole throws DeliveryError.
   */
  read(body: unknown, query: Readonly<Record<string, unknown>>, now: Date, settings?: unknown): Delivery;
}

/**
 * One delivery to an ingest route: uplinks, an event about a downlink the service queued, news
 * about a device that is not an uplink (a join, a status, a solved position), or a message the
 * service acknowledges without storing anything. A network's well-formed message is never refused:
 * the networks disable an endpoint that keeps failing, and with it the uplinks.
 */
export type Delivery = { uplinks: ParsedItem[] } | { event: DownlinkEvent } | { device: DeviceEvent } | { notice: Notice };

/** A network's word on one of our downlinks; a status never moves back (docs/api.md §6). */
export interface DownlinkEvent {
  /**
   * How the event names the command: by our uid (carried in the network's correlation ids) or by the
   * network's id of the queued item; null when it names none of ours (a downlink another
   * application queued), which is answered as an unknown command.
   */
  command: { uid: number } | { networkId: string } | null;
  status: CommandStatus;
  reason: string | null;
}

/** What a message that is not an uplink tells about its device (docs/api.md §5). */
export type DeviceEvent = {
  /** The network's name of the message (TTS's member, ChirpStack's `event`), for the answer. */
  type: string;
  devEUI: Eui;
  /** The moment the message describes. */
  at: Date;
} & (
  | /** The device joined: its activity times span the moment. */ { kind: 'activity' }
  | /** The device reported its status: battery level (percent, null when it cannot tell) and link margin (dB). */ {
      kind: 'status';
      batteryPercent: number | null;
      marginDb: number | null;
    }
  | /**
     * The network solved the device's position from an uplink: that uplink's network position
     * (its message id, as the uplink parser derives it; null when the message does not say, then
     * the device's latest uplink).
     */ { kind: 'position'; messageId: string | null; position: { lat: number; lon: number; alt: number | null } }
);

/** A well-formed message the service takes note of without storing anything. */
export interface Notice {
  type: string;
  devEUI: Eui | null;
  /** What was done, for the answer (`event.action`). */
  action: string;
  /** A problem the network reports about the device (ChirpStack `log`), to be written to the service's log. */
  log?: { level: 'info' | 'warn' | 'error'; message: string };
}

/** A whole request refused (400 VALIDATION_FAILED naming `field`). */
export class DeliveryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** One downlink as the worker hands it over. */
export interface Downlink {
  commandUid: number;
  eui: string;
  port: number;
  confirmed: boolean;
  payload: Uint8Array;
}

/** Where an account's network is reached (its `networks` row); the API key is the worker's business. */
export interface DownlinkTarget {
  baseUrl: string;
  applicationId: string | null;
  webhookId: string | null;
}

/** The JSON POST that queues a downlink, and how the network's answer names it. */
export interface DownlinkCall {
  url: string;
  body: unknown;
  /** The network's id of the queued downlink (what its events name it by), from its parsed answer. */
  networkId(answer: unknown): string;
}

export type NetworkDownlink =
  /**
   * The built-in simulated network: takes every downlink into a queue of its own (the service's
   * commands, Scheduled) without a call, and behaves like a class A device's network: the queue's
   * oldest downlink goes out at the device's next uplink (Sent), and a confirmed one is acknowledged
   * by the uplink after that (Acknowledged). `accept` names the queued downlink.
   */
  | { readonly via: 'simulated'; accept(downlink: Downlink): string }
  /**
   * An HTTP API at the account network's base_url, called with its API key as a bearer token: `call`
   * queues a downlink, `queue` takes queued ones back out.
   */
  | { readonly via: 'api'; call(target: DownlinkTarget, downlink: Downlink): DownlinkCall; queue: NetworkQueue };

/** One HTTP call a network's definition asks for; the caller makes it with the network's API key. */
export interface NetworkCall {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  /** JSON; none for GET and DELETE. */
  body?: unknown;
}

/**
 * Taking downlinks back out of a network's queue (docs/api.md §6), as a conversation: the
 * definition yields each call to make and is handed the call's parsed JSON answer ({} for none), or
 * the call's failure thrown into it; it returns what became of each downlink. The api and the worker
 * make the calls (libs/platform outbound/network-call.ts); the network's rules stay here.
 */
export interface NetworkQueue {
  remove(target: DownlinkTarget, eui: string, networkIds: readonly string[]): Generator<NetworkCall, QueueRemoval, unknown>;
}

/** What became of each downlink asked for (by the network's id), and of the others in the queue. */
export interface QueueRemoval {
  /** Taken out of the queue: it will not reach the device. */
  removed: string[];
  /** Not waiting in the queue (any more): handed to the device already, or dropped by the network. */
  gone: string[];
  /** Waiting, but not to be taken out now, with why. */
  refused: { id: string; reason: string }[];
  /** Other downlinks the network names anew (ChirpStack's queue is flushed and refilled: new ids). */
  renamed: { from: string; to: string }[];
  /** Other downlinks that were in the queue and could not be put back, with why. */
  lost: { id: string; reason: string }[];
}

/** An empty outcome to fill. */
export const noRemoval = (): QueueRemoval => ({ removed: [], gone: [], refused: [], renamed: [], lost: [] });

/** A failure that a retry cannot mend (bad key, unknown device, bad request): the command fails now. */
export class PermanentDownlinkError extends Error {}

/** Trims the trailing slashes of a base URL, so that paths join with exactly one. */
export const trimBaseUrl = (url: string) => url.replace(/\/+$/, '');

/** The uplinks of a delivery (none for an event). */
export const uplinksOf = (delivery: Delivery): ParsedItem[] => ('uplinks' in delivery ? delivery.uplinks : []);
