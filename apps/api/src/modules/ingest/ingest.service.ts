import { Injectable, Logger } from '@nestjs/common';
import {
  type DecodeResult,
  type Delivery,
  DeliveryError,
  type IngestRejectionWire,
  type IngestResultWire,
  type Network,
  type NetworkIngest,
  type NormalizedUplink,
  type ParsedItem,
  payloadProblems,
  REST,
  type SimulateUplinkRequest,
  SIMULATED,
} from '@dts/domain';
import { CommandsRepository, IngestRepository, type IngestTarget, NetworksRepository, type UplinkToStore } from '@dts/persistence';
import { type DecoderRef, DecodingService, MetricsService } from '@dts/platform';
import type { IngestCaller } from '../../common/auth/ingest-caller';
import { ApiException } from '../../common/http/api.exception';
import { DeviceEventsService } from './device-events.service';
import { DownlinkEventsService } from './downlink-events.service';

/** The network row a route names, for routes that name one. */
interface AccountRoute {
  networkRef: number;
  /** Whose devices it reaches: an account network's owner, or (global) the caller's. */
  ownerId: number | null;
  settings: unknown;
}

/** Where a delivery came from: the route's network, and who may be written to. */
interface Source {
  /** The network's uid, recorded on each uplink unless the item names another network (REST). */
  networkRef: number;
  /** The metrics' `network` label. */
  label: string;
  /** An account's API token may write to that account's devices only; the platform secret to any. */
  ownerId: number | null;
  apiRef: number | null;
}

/** A decoder as a metrics label: a built-in one by name; an account's codec by uid, never by its (free-text) name. */
const decoderLabel = (decoder: DecoderRef) => (decoder.script === null ? decoder.name : `codec:${decoder.uid}`);

@Injectable()
export class IngestService {
  private readonly logger = new Logger(IngestService.name);

  constructor(
    private readonly ingest: IngestRepository,
    private readonly decoding: DecodingService,
    private readonly metrics: MetricsService,
    private readonly events: DownlinkEventsService,
    private readonly networks: NetworksRepository,
    private readonly deviceEvents: DeviceEventsService,
    private readonly commands: CommandsRepository,
  ) {}

  /**
   * One delivery to a network's ingest route: its uplinks stored, or its downlink event applied.
   * `via` is the network row the route names, when it names one (HTTP JSON): its uid is recorded,
   * its mapping read, and an account's network reaches that account's devices only.
   */
  async deliver(
    network: Network,
    caller: IngestCaller,
    body: unknown,
    query: Readonly<Record<string, unknown>> = {},
    via?: AccountRoute,
  ): Promise<IngestResultWire> {
    if (!network.ingest) throw new Error(`network ${network.kind} has no ingest route`);
    const delivery = this.read(network.ingest, body, query, via?.settings);
    if ('event' in delivery) return this.events.apply(caller, delivery.event);
    if ('notice' in delivery) return this.deviceEvents.notice(delivery.notice);
    const ownerId = via?.ownerId ?? caller.accountId;
    if ('device' in delivery) return this.deviceEvents.apply(delivery.device, ownerId);
    return this.run(delivery.uplinks, { networkRef: via?.networkRef ?? network.uid, label: network.ingest.path, ownerId, apiRef: caller.tokenUid });
  }

  /**
   * A route by uid (`POST /ingest/<path>/{uid}`, HTTP JSON's): the global network of that kind or
   * an account's own. Another account's network, or one of another kind, is 404: no existence
   * oracle (docs/api.md §1).
   */
  async deliverByUid(
    network: Network,
    uid: number,
    caller: IngestCaller,
    body: unknown,
    query: Readonly<Record<string, unknown>> = {},
  ): Promise<IngestResultWire> {
    const row = await this.networks.forIngest(uid);
    const mine = row !== null && (row.account_id === null || caller.accountId === null || row.account_id === caller.accountId);
    if (!row || row.adapter !== network.kind || !mine) throw ApiException.notFound('network', 'uid');
    return this.deliver(network, caller, body, query, { networkRef: row.uid, ownerId: row.account_id ?? caller.accountId, settings: row.ingest_mapping });
  }

  /**
   * An uplink simulated from the console (POST /user/device/uplink/{eui}/simulate) for a device of
   * `ownerId`: the REST network's item, read by its own parser and stored by the same run as every
   * delivery (decoding, storage, live feed, rules, integrations). It is recorded under the simulated
   * network (uid 1) with `simulated` set, so that the table tells it from a device's own uplinks. A
   * refused item is a 400 naming its member: the caller is a person at a form, not a network that
   * needs a 202 to keep its webhook alive.
   */
  async simulate(ownerId: number, eui: string, body: SimulateUplinkRequest): Promise<IngestResultWire> {
    const delivery = this.read(REST.ingest!, { ...body, devEUI: eui }, {}, undefined);
    const item = 'uplinks' in delivery ? delivery.uplinks[0] : undefined;
    if (!item) throw new Error('the REST network read no item');
    if (!item.ok) throw ApiException.validation(item.problem.field ?? 'body', item.problem.message);
    const result = await this.run([{ ok: true, uplink: { ...item.uplink, simulated: true } }], {
      networkRef: SIMULATED.uid,
      label: 'simulated',
      ownerId,
      apiRef: null,
    });
    // Checked before (DeviceAccessService): only a device deleted meanwhile lands here.
    if (result.rejected.length > 0) throw ApiException.notFound('device', 'eui');
    return result;
  }

  private read(ingest: NetworkIngest, body: unknown, query: Readonly<Record<string, unknown>>, settings: unknown): Delivery {
    try {
      return ingest.read(body, query, new Date(), settings);
    } catch (error) {
      if (error instanceof DeliveryError) throw ApiException.validation(error.field, error.message);
      throw error;
    }
  }

  private async run(parsed: ParsedItem[], source: Source): Promise<IngestResultWire> {
    const rejected: IngestRejectionWire[] = [];
    const euis = [...new Set(parsed.flatMap((p) => (p.ok ? [p.uplink.devEUI] : [])))];
    const targets = await this.ingest.targets(euis, source.ownerId);
    const accepted: { index: number; uplink: NormalizedUplink; target: IngestTarget; networkRef: number }[] = [];
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
      accepted.push({ index, uplink: item.uplink, target, networkRef });
    }
    // Codecs run off the event loop within the owners' CPU budgets (DecodingService); in a batch of
    // several accounts' devices (the platform secret), each account's codec time is its own.
    const decoded = await this.decoding.decodeMany(
      accepted.map(({ uplink, target }) => ({ accountId: target.ownerId, decoder: target.decoder, payload: uplink.payload, port: uplink.port })),
    );
    const toStore = accepted.map(({ uplink, target, networkRef }, i) => this.prepare(uplink, target, networkRef, source, decoded[i]!));
    const outcomes = await this.ingest.store(toStore);
    const stored = outcomes.filter((o) => o === 'stored').length;
    // Deleted since the look-up let it in (on another instance, a moment before this one heard):
    // the same answer as a device that does not exist, in the delivery's order.
    const gone = accepted.filter((_, i) => outcomes[i] === 'gone');
    if (gone.length > 0) {
      for (const { index, uplink } of gone) rejected.push({ index, devEUI: uplink.devEUI, code: 'NOT_FOUND', message: 'no such device' });
      rejected.sort((a, b) => a.index - b.index);
    }
    // The simulated network delivers its queued downlinks at the devices' uplinks (class A), after
    // the uplinks are stored and without holding their answer, as a network reports a downlink's
    // fate in events of its own: measured, awaiting it cost a single-item delivery +0.7 ms at p50 on
    // PostgreSQL and +0.9 ms embedded, for the default network of every new device. A step lost
    // (the process ending) is made at the device's next uplink.
    if (stored > 0) {
      const simulated = [...new Set(accepted.filter((a) => a.target.networkRef === SIMULATED.uid).map((a) => a.target.uid))];
      if (simulated.length > 0) void this.commands.simulatedUplinks(simulated).catch((error: Error) => this.logger.warn(`simulated network: ${error.message}`));
    }
    const result = { accepted: stored, duplicates: outcomes.filter((o) => o === 'redelivery').length, rejected };
    this.metrics.uplinks(source.label, result);
    return result;
  }

  private networkRef(uplink: NormalizedUplink, target: IngestTarget, source: Source, known: Map<string, Promise<number | null>>): Promise<number | null> {
    if (!uplink.networkName) return Promise.resolve(source.networkRef);
    const key = `${target.ownerId}:${uplink.networkName.toLowerCase()}`;
    if (!known.has(key)) known.set(key, this.ingest.networkByName(uplink.networkName, target.ownerId));
    return known.get(key)!;
  }

  private prepare(uplink: NormalizedUplink, target: IngestTarget, networkRef: number, source: Source, result: DecodeResult): UplinkToStore {
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
      ...payloadProblems(result),
      measurements: result.measurements,
      tsDevice: tsUnix,
      tsGps: result.decoded.valid_gps === true ? tsUnix : null,
      apiRef: source.apiRef,
      simulated: uplink.simulated,
      gateways: uplink.gateways,
    };
  }
}
