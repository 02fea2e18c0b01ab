import { Injectable } from '@nestjs/common';
import {
  type IngestRejectionWire,
  type IngestResultWire,
  MAX_INGEST_ITEMS,
  type NormalizedUplink,
  parseChirpstackUplink,
  parseItem,
  type ParsedItem,
  parseRestUplink,
  parseTtnUplink,
} from '@dts/domain';
import { IngestRepository, type IngestTarget, type UplinkToStore } from '@dts/persistence';
import { type DecoderRef, DecodingService, MetricsService } from '@dts/platform';
import type { Request } from 'express';
import { ApiException } from '../../common/http/api.exception';

/**
 * Who delivers: the request's credentials as the auth guard set them. Only these two members are
 * read, so the demo seeder can deliver as its account the way a network would.
 */
export type IngestCaller = Pick<Request, 'ingestSecret' | 'auth'>;

/** Where a delivery came from: the route's network, and who may be written to. */
interface Source {
  /** Network uid of the route (The Things Stack 2, ChirpStack 3, generic REST 4). */
  networkRef: number;
  /** An account's API token may write to that account's devices only; the platform secret to any. */
  ownerId: number | null;
  apiRef: number | null;
}

export const NETWORK_TTN = 2;
export const NETWORK_CHIRPSTACK = 3;
export const NETWORK_REST = 4;

/** The metrics' `network` label of each ingestion route. */
const NETWORK_LABELS: Record<number, string> = { [NETWORK_TTN]: 'ttn', [NETWORK_CHIRPSTACK]: 'chirpstack', [NETWORK_REST]: 'rest' };

/** A decoder as a metrics label: a built-in one by name; an account's codec by uid, never by its (free-text) name. */
const decoderLabel = (decoder: DecoderRef) => (decoder.script === null ? decoder.name : `codec:${decoder.uid}`);

@Injectable()
export class IngestService {
  constructor(
    private readonly ingest: IngestRepository,
    private readonly decoding: DecodingService,
    private readonly metrics: MetricsService,
  ) {}

  ttn(req: IngestCaller, body: unknown): Promise<IngestResultWire> {
    return this.run([parseItem(body, (b) => parseTtnUplink(b))], this.source(req, NETWORK_TTN));
  }

  chirpstack(req: IngestCaller, body: unknown): Promise<IngestResultWire> {
    return this.run([parseItem(body, (b) => parseChirpstackUplink(b))], this.source(req, NETWORK_CHIRPSTACK));
  }

  rest(req: IngestCaller, body: unknown): Promise<IngestResultWire> {
    const items = Array.isArray(body) ? body : [body];
    if (items.length === 0) throw ApiException.validation('body', 'send one uplink object or an array of 1 to 1,000');
    if (items.length > MAX_INGEST_ITEMS) throw ApiException.validation('body', `at most ${MAX_INGEST_ITEMS} uplinks per request`);
    return this.run(
      items.map((item) => parseItem(item, (b) => parseRestUplink(b))),
      this.source(req, NETWORK_REST),
    );
  }

  private source(req: IngestCaller, networkRef: number): Source {
    if (req.ingestSecret) return { networkRef, ownerId: null, apiRef: null };
    return { networkRef, ownerId: req.auth!.accountId, apiRef: req.auth!.tokenUid };
  }

  private async run(parsed: ParsedItem[], source: Source): Promise<IngestResultWire> {
    const rejected: IngestRejectionWire[] = [];
    const euis = [...new Set(parsed.flatMap((p) => (p.ok ? [p.uplink.devEUI] : [])))];
    const targets = await this.ingest.targets(euis, source.ownerId);
    const toStore: UplinkToStore[] = [];
    // A batch names the same few networks over and over: one look-up each, not one per item.
    const networks = new Map<string, Promise<number | null>>();
    for (const [index, item] of parsed.entries()) {
      if (!item.ok) {
        rejected.push({ index, devEUI: item.devEUI, ...item.problem });
        continue;
      }
      const target = targets.get(item.uplink.devEUI);
      if (!target) {
        // The same answer for a device that does not exist and one of another account.
        rejected.push({ index, devEUI: item.uplink.devEUI, code: 'NOT_FOUND', message: 'no such device' });
        continue;
      }
      const networkRef = await this.networkRef(item.uplink, target, source, networks);
      if (networkRef === null) {
        rejected.push({ index, devEUI: item.uplink.devEUI, code: 'VALIDATION_FAILED', message: `network "${item.uplink.networkName}" does not exist` });
        continue;
      }
      toStore.push(this.prepare(item.uplink, target, networkRef, source));
    }
    const accepted = await this.ingest.store(toStore);
    const result = { accepted, duplicates: toStore.length - accepted, rejected };
    this.metrics.uplinks(NETWORK_LABELS[source.networkRef] ?? String(source.networkRef), result);
    return result;
  }

  private networkRef(uplink: NormalizedUplink, target: IngestTarget, source: Source, known: Map<string, Promise<number | null>>): Promise<number | null> {
    if (!uplink.networkName) return Promise.resolve(source.networkRef);
    const key = `${target.ownerId}:${uplink.networkName.toLowerCase()}`;
    if (!known.has(key)) known.set(key, this.ingest.networkByName(uplink.networkName, target.ownerId));
    return known.get(key)!;
  }

  private prepare(uplink: NormalizedUplink, target: IngestTarget, networkRef: number, source: Source): UplinkToStore {
    const result = this.decoding.decode(target.decoder, uplink.payload, uplink.port);
    if (!result.valid && target.decoder) this.metrics.decoderFailed(decoderLabel(target.decoder));
    const tsUnix = typeof result.decoded.ts_unix === 'number' ? new Date(result.decoded.ts_unix * 1000) : null;
    return {
      deviceUid: target.uid,
      receivedAt: uplink.receivedAt,
      networkRef,
      messageId: uplink.messageId,
      port: uplink.port,
      fcnt: uplink.fcnt,
      payload: uplink.payload,
      sf: uplink.sf,
      rssi: uplink.rssi,
      snr: uplink.snr,
      geoloc: uplink.geoloc,
      decoded: result.decoded,
      valid: result.valid,
      decodeError: result.error,
      measurements: result.measurements,
      tsDevice: tsUnix,
      tsGps: result.decoded.valid_gps === true ? tsUnix : null,
      apiRef: source.apiRef,
      simulated: uplink.simulated,
      gateways: uplink.gateways,
    };
  }
}
