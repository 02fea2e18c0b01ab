import type { Eui } from '../eui';

/** One reception of an uplink by a gateway. */
export interface GatewayReception {
  gatewayId: string;
  rssi: number | null;
  snr: number | null;
  lat: number | null;
  lon: number | null;
}

/** An uplink in one shape, whichever network delivered it. */
export interface NormalizedUplink {
  devEUI: Eui;
  port: number;
  fcnt: number | null;
  payload: Uint8Array;
  receivedAt: Date;
  /** The network's id of this message, for dropping redeliveries; derived from fcnt and time when absent. */
  messageId: string | null;
  sf: number | null;
  /** Best RSSI and SNR over the gateways. */
  rssi: number | null;
  snr: number | null;
  geoloc: { lat: number; lon: number; alt: number | null } | null;
  gateways: GatewayReception[];
  simulated: boolean;
  /** The network's name when the body says it (REST), else the route's network. */
  networkName: string | null;
}

/** Why one item of a delivery was not stored. */
export interface ItemProblem {
  code: 'VALIDATION_FAILED' | 'PAYLOAD_TOO_LARGE' | 'NOT_FOUND';
  message: string;
  field?: string;
}

export type ParsedItem = { ok: true; uplink: NormalizedUplink } | { ok: false; devEUI: string | null; problem: ItemProblem };

export const MAX_INGEST_ITEMS = 1000;
/** Uplinks older than this or later than a day ahead are refused: a clock or parsing fault. */
export const EARLIEST_UPLINK = Date.UTC(2000, 0, 1);

export class ItemError extends Error {
  constructor(readonly problem: ItemProblem) {
    super(problem.message);
  }
}

export function fail(field: string, message: string, code: ItemProblem['code'] = 'VALIDATION_FAILED'): never {
  throw new ItemError({ code, message: `${field} ${message}`, field });
}

/** The best (highest RSSI) reception, and its SNR. */
export function bestSignal(gateways: GatewayReception[]): { rssi: number | null; snr: number | null } {
  let best: GatewayReception | null = null;
  for (const g of gateways) if (g.rssi !== null && (best === null || g.rssi > (best.rssi ?? -Infinity))) best = g;
  return { rssi: best?.rssi ?? null, snr: best?.snr ?? gateways.find((g) => g.snr !== null)?.snr ?? null };
}
