import { Injectable } from '@nestjs/common';
import {
  MAX_INGEST_ITEMS,
  type NormalizedUplink,
  parseChirpstackUplink,
  parseItem,
  type ParsedItem,
  parseRestUplink,
  parseTtnUplink,
} from '@dts/domain';
import { IngestRepository, type IngestTarget, type UplinkToStore } from '@dts/persistence';
import { DecodingService } from '@dts/platform';
import type { Request } from 'express';
import { ApiException } from '../../common/http/api.exception';

export interface IngestRejection {
  index: number;
  devEUI: string | null;
  code: string;
  message: string;
}

export interface IngestResult {
  accepted: number;
  duplicates: number;
  rejected: IngestRejection[];
}

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

@Injectable()
export class IngestService {
  constructor(
    private readonly ingest: IngestRepository,
    private readonly decoding: DecodingService,
  ) {}

  ttn(req: Request, body: unknown): Promise<IngestResult> {
    return this.run([parseItem(body, (b) => parseTtnUplink(b))], this.source(req, NETWORK_TTN));
  }

  chirpstack(req: Request, body: unknown): Promise<IngestResult> {
    return this.run([parseItem(body, (b) => parseChirpstackUplink(b))], this.source(req, NETWORK_CHIRPSTACK));
  }

  rest(req: Request, body: unknown): Promise<IngestResult> {
    const items = Array.isArray(body) ? body : [body];
    if (items.length === 0) throw ApiException.validation('body', 'send one uplink object or an array of 1 to 1,000');
    if (items.length > MAX_INGEST_ITEMS) throw ApiException.validation('body', `at most ${MAX_INGEST_ITEMS} uplinks per request`);
    return this.run(
      items.map((item) => parseItem(item, (b) => parseRestUplink(b))),
      this.source(req, NETWORK_REST),
    );
  }

  private source(req: Request, networkRef: number): Source {
    if (req.ingestSecret) return { networkRef, ownerId: null, apiRef: null };
    return { networkRef, ownerId: req.auth!.accountId, apiRef: req.auth!.tokenUid };
  }

  private async run(parsed: ParsedItem[], source: Source): Promise<IngestResult> {
    const rejected: IngestRejection[] = [];
    const euis = [...new Set(parsed.flatMap((p) => (p.ok ? [p.uplink.devEUI] : [])))];
    const targets = await this.ingest.targets(euis, source.ownerId);
    const toStore: UplinkToStore[] = [];
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
      const networkRef = await this.networkRef(item.uplink, target, source);
      if (networkRef === null) {
        rejected.push({ index, devEUI: item.uplink.devEUI, code: 'VALIDATION_FAILED', message: `network "${item.uplink.networkName}" does not exist` });
        continue;
      }
      toStore.push(this.prepare(item.uplink, target, networkRef, source));
    }
    const accepted = await this.ingest.store(toStore);
    return { accepted, duplicates: toStore.length - accepted, rejected };
  }

  private async networkRef(uplink: NormalizedUplink, target: IngestTarget, source: Source): Promise<number | null> {
    if (!uplink.networkName) return source.networkRef;
    return this.ingest.networkByName(uplink.networkName, target.ownerId);
  }

  private prepare(uplink: NormalizedUplink, target: IngestTarget, networkRef: number, source: Source): UplinkToStore {
    const result = this.decoding.decode(target.decoder, uplink.payload, uplink.port);
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
