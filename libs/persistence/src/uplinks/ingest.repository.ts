import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type GatewayReception, type Measurements, uplinkOffer } from '@dts/domain';
import { DataSource } from 'typeorm';
import { LiveBus } from '../live/live-bus';
import type { LiveNotice } from '../live/live-notices';
import { statement, Statements } from '../sql/statements';
import { isMissingPartition, TimePartitionsRepository } from '../timeseries/time-partitions.repository';
import { CoalescedLookup } from './coalesced-lookup';
import { GroupCommit } from './group-commit';
import { IngestTargetsCache } from './ingest-targets.cache';
import { LIVE_DEVICES_SQL, STORE_UPLINKS_SQL } from './store-uplinks.sql';
import type { UplinkWrite } from './uplink-columns';

/** A live device an uplink may be stored for, with what decoding and attribution need. */
export interface IngestTarget {
  uid: number;
  eui: string;
  ownerId: number;
  decoder: { uid: number; name: string; script: string | null } | null;
  networkRef: number | null;
}

export interface UplinkToStore {
  deviceUid: number;
  receivedAt: Date;
  networkRef: number | null;
  messageId: string | null;
  port: number;
  fcnt: number | null;
  payload: Uint8Array;
  sf: number | null;
  rssi: number | null;
  snr: number | null;
  geoloc: { lat: number; lon: number; alt: number | null } | null;
  decoded: Record<string, unknown>;
  valid: boolean;
  /** The decoder's errors and warnings (payloadProblems in libs/domain); null for none. */
  errors: string[] | null;
  warnings: string[] | null;
  measurements: Measurements;
  tsDevice: Date | null;
  tsGps: Date | null;
  apiRef: number | null;
  simulated: boolean;
  gateways: GatewayReception[];
}

/**
 * What became of an uplink handed to store(): written; a redelivery of one already stored (found by
 * its message id); or not written because its device was deleted after the look-up that let it in
 * (on another instance, a moment before this process heard of it: IngestTargetsCache).
 */
export type StoreOutcome = 'stored' | 'redelivery' | 'gone';

/** Live devices by EUI (store-uplinks.sql.ts), for the EUIs the cache does not hold. */
const LIVE_DEVICES = statement('ingest_live_devices', LIVE_DEVICES_SQL);
/** Prepared: a single-uplink webhook would otherwise have PostgreSQL parse and plan its ~100 lines each time. */
const STORE_UPLINKS = statement('ingest_store_uplinks', STORE_UPLINKS_SQL);

/** Uplinks written in one transaction at most, however many deliveries are waiting. */
export const MAX_UPLINKS_PER_TRANSACTION = 5_000;
/** Transactions of ingestion in flight at once per process: one commits while the next is built. */
const CONCURRENT_TRANSACTIONS = 2;

/** The uplink row as the statement's JSON carries it. */
function toWrite(u: UplinkToStore): UplinkWrite {
  return {
    device_id: u.deviceUid,
    received_at: u.receivedAt.toISOString(),
    network_ref: u.networkRef,
    message_id: u.messageId,
    port: u.port,
    fcnt: u.fcnt,
    payload: Buffer.from(u.payload).toString('hex'),
    sf: u.sf,
    rssi: u.rssi,
    snr: u.snr,
    geoloc_lat: u.geoloc?.lat ?? null,
    geoloc_lon: u.geoloc?.lon ?? null,
    geoloc_alt: u.geoloc?.alt ?? null,
    decoded: u.decoded,
    valid: u.valid,
    payload_errors: u.errors,
    payload_warnings: u.warnings,
    ...u.measurements,
    ts_device: u.tsDevice?.toISOString() ?? null,
    ts_gps: u.tsGps?.toISOString() ?? null,
    api_ref: u.apiRef,
    simulated: u.simulated,
  };
}

/**
 * Stores deliveries of uplinks: the uplinks (redeliveries dropped by their message id), the
 * gateways that heard them, the devices' metadata and their cache versions, all in one statement
 * (store-uplinks.sql.ts) however many uplinks and devices there are, deliveries that arrive
 * together written together (group-commit.ts).
 */
@Injectable()
export class IngestRepository implements OnApplicationShutdown {
  private readonly commits = new GroupCommit<UplinkToStore, StoreOutcome>(
    (uplinks) => this.storeNow(uplinks),
    MAX_UPLINKS_PER_TRANSACTION,
    CONCURRENT_TRANSACTIONS,
  );
  private readonly lookups = new CoalescedLookup<string, IngestTarget>((euis) => this.liveDevices(euis));

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly live: LiveBus,
    private readonly statements: Statements,
    private readonly cache: IngestTargetsCache<IngestTarget>,
    private readonly partitions: TimePartitionsRepository,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.cache.close();
  }

  /**
   * Live devices by EUI; with `ownerId`, only that account's. Kept per process until the database
   * says one changed (IngestTargetsCache); concurrent look-ups share a query.
   */
  async targets(euis: string[], ownerId: number | null): Promise<Map<string, IngestTarget>> {
    const found = await this.cache.get(euis, (missing) => this.lookups.find(missing));
    return new Map(
      euis.flatMap((eui) => {
        const target = found.get(eui);
        return target && (ownerId === null || target.ownerId === ownerId) ? [[eui, target] as const] : [];
      }),
    );
  }

  private async liveDevices(euis: string[]): Promise<Map<string, IngestTarget>> {
    const rows: {
      uid: number;
      eui: string;
      owner_id: number;
      decoder_uid: number | null;
      decoder_name: string | null;
      script: string | null;
      network_ref: number | null;
    }[] = await this.statements.rows(LIVE_DEVICES, [euis]);
    return new Map(
      rows.map((r) => [
        r.eui,
        {
          uid: r.uid,
          eui: r.eui,
          ownerId: r.owner_id,
          networkRef: r.network_ref,
          decoder: r.decoder_uid === null ? null : { uid: r.decoder_uid, name: r.decoder_name ?? '', script: r.script },
        },
      ]),
    );
  }

  /** Network uid by name, among the global networks and the account's own. */
  async networkByName(name: string, accountId: number): Promise<number | null> {
    const rows: { uid: number }[] = await this.ds.query(
      'SELECT uid FROM networks WHERE lower(name) = lower($1) AND (account_id IS NULL OR account_id = $2) ORDER BY account_id NULLS LAST LIMIT 1',
      [name, accountId],
    );
    return rows[0]?.uid ?? null;
  }

  /** Resolves, once committed, with each uplink's outcome, in order. */
  store(uplinks: UplinkToStore[]): Promise<StoreOutcome[]> {
    return this.commits.submit(uplinks);
  }

  /** One statement, so one round trip and its own transaction; returns each uplink's outcome. */
  private async storeNow(uplinks: UplinkToStore[]): Promise<StoreOutcome[]> {
    const rows = uplinks.map((u, ord) => {
      const offer = uplinkOffer(u);
      const offered = { has_data: offer.hasData, temperature_dc: offer.temperatureDc, has_position: offer.hasPosition, signal_percent: offer.signalPercent };
      return { ord, ...toWrite(u), ...offered };
    });
    const gateways = uplinks.flatMap((u, ord) => {
      const seen = new Set<string>();
      return u.gateways
        .filter((g) => !seen.has(g.gatewayId) && seen.add(g.gatewayId))
        .map((g) => ({ ord, gateway_id: g.gatewayId, rssi: g.rssi, snr: g.snr, lat: g.lat, lon: g.lon }));
    });
    const params = [JSON.stringify(rows), [...new Set(uplinks.map((u) => u.deviceUid))], JSON.stringify(gateways)];
    type Stored = { ord: number; uid: string | null; device_id: number };
    let stored: Stored[];
    try {
      stored = await this.statements.rows<Stored>(STORE_UPLINKS, params);
    } catch (error) {
      // A time past the partitions made ahead (the worker down for a while, a clock moved on):
      // the partitions up to the batch's newest uplink are made now, and the batch written.
      if (!isMissingPartition(error)) throw error;
      await this.partitions.ensure(new Date(Math.max(...uplinks.map((u) => u.receivedAt.getTime()))));
      stored = await this.statements.rows<Stored>(STORE_UPLINKS, params);
    }
    const outcomes = uplinks.map((): StoreOutcome => 'redelivery');
    const newest = new Map<number, string>();
    for (const row of stored.sort((a, b) => a.ord - b.ord)) {
      if (row.uid === null) {
        outcomes[row.ord] = 'gone';
        continue;
      }
      outcomes[row.ord] = 'stored';
      newest.set(row.device_id, row.uid);
    }
    // After the commit: a notice must not name rows that readers cannot see yet.
    await this.live.publish([...newest].map(([device, uid]): LiveNotice => ({ kind: 'uplinks', device, newest: uid })));
    return outcomes;
  }
}
