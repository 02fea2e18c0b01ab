import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type GatewayReception, type Measurements, signalPercent } from '@dts/domain';
import { DataSource } from 'typeorm';
import { LiveBus, type LiveNotice } from '../live/live-bus';

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
  decodeError: string | null;
  measurements: Measurements;
  tsDevice: Date | null;
  tsGps: Date | null;
  apiRef: number | null;
  simulated: boolean;
  gateways: GatewayReception[];
}

/** Uplinks written in one transaction at most, however many deliveries are waiting. */
export const MAX_UPLINKS_PER_TRANSACTION = 5_000;
/** Transactions of ingestion in flight at once per process: one commits while the next is built. */
const CONCURRENT_TRANSACTIONS = 2;

/** A delivery waiting for its transaction: its caller learns how many of its uplinks were new. */
interface PendingDelivery {
  uplinks: UplinkToStore[];
  resolve: (accepted: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Stores deliveries of uplinks: the uplinks (redeliveries dropped by their message id), the
 * gateways that heard them, the devices' metadata and their cache versions, all in one statement
 * however many uplinks and devices there are (storeNow).
 *
 * Deliveries that arrive while earlier ones are being written are written together, in one
 * transaction (group commit). A single-uplink webhook otherwise costs a transaction and a commit of
 * its own, and round trips, not SQL, bound the rate (docs/benchmarks.md). Each
 * caller still gets its answer only after the transaction holding its uplinks has committed, so a
 * 202 keeps meaning "stored"; a shared transaction that fails is retried delivery by delivery, so
 * that one bad delivery fails only its own request.
 */
@Injectable()
export class IngestRepository {
  private readonly pending: PendingDelivery[] = [];
  private writers = 0;
  private readonly lookups: { euis: string[]; resolve: (found: Map<string, IngestTarget>) => void; reject: (error: unknown) => void }[] = [];
  private lookingUp = false;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly live: LiveBus,
  ) {}

  /**
   * Live devices by EUI; with `ownerId`, only that account's. Look-ups asked for while one is
   * running are answered by the next query together (one round trip for every webhook waiting,
   * as store() does for writes); an idle service runs each at once.
   */
  targets(euis: string[], ownerId: number | null): Promise<Map<string, IngestTarget>> {
    if (euis.length === 0) return Promise.resolve(new Map());
    return new Promise((resolve, reject) => {
      this.lookups.push({
        euis,
        resolve: (found) => resolve(new Map(euis.flatMap((eui) => {
          const target = found.get(eui);
          return target && (ownerId === null || target.ownerId === ownerId) ? [[eui, target] as const] : [];
        }))),
        reject,
      });
      if (!this.lookingUp) void this.lookUp();
    });
  }

  private async lookUp(): Promise<void> {
    this.lookingUp = true;
    try {
      while (this.lookups.length > 0) {
        const waiting = this.lookups.splice(0);
        try {
          const found = await this.liveDevices([...new Set(waiting.flatMap((w) => w.euis))]);
          for (const w of waiting) w.resolve(found);
        } catch (error) {
          for (const w of waiting) w.reject(error);
        }
      }
    } finally {
      this.lookingUp = false;
    }
  }

  private async liveDevices(euis: string[]): Promise<Map<string, IngestTarget>> {
    const rows: { uid: number; eui: string; owner_id: number; decoder_uid: number | null; decoder_name: string | null; script: string | null; network_ref: number | null }[] = await this.ds.query(
      `SELECT d.uid, d.eui, d.owner_id, c.uid AS decoder_uid, c.name AS decoder_name, c.script, d.network_ref
       FROM devices d LEFT JOIN decoders c ON c.uid = d.decoder_ref
       WHERE d.eui = ANY($1) AND d.deleted_at IS NULL`,
      [euis],
    );
    return new Map(
      rows.map((r) => [
        r.eui,
        { uid: r.uid, eui: r.eui, ownerId: r.owner_id, networkRef: r.network_ref, decoder: r.decoder_uid === null ? null : { uid: r.decoder_uid, name: r.decoder_name!, script: r.script } },
      ]),
    );
  }

  /** Network uid by name, among the global networks and the account's own. */
  async networkByName(name: string, accountId: number): Promise<number | null> {
    const rows: { uid: number }[] = await this.ds.query('SELECT uid FROM networks WHERE lower(name) = lower($1) AND (account_id IS NULL OR account_id = $2) ORDER BY account_id NULLS LAST LIMIT 1', [name, accountId]);
    return rows[0]?.uid ?? null;
  }

  /** Resolves, once committed, with how many uplinks were new (the rest were redeliveries). */
  store(uplinks: UplinkToStore[]): Promise<number> {
    if (uplinks.length === 0) return Promise.resolve(0);
    return new Promise((resolve, reject) => {
      this.pending.push({ uplinks, resolve, reject });
      if (this.writers < CONCURRENT_TRANSACTIONS) void this.write();
    });
  }

  /** Writes waiting deliveries, as many as fit in one transaction at a time, until none wait. */
  private async write(): Promise<void> {
    this.writers++;
    try {
      while (this.pending.length > 0) {
        const batch = [this.pending.shift()!];
        let size = batch[0].uplinks.length;
        while (this.pending.length > 0 && size + this.pending[0].uplinks.length <= MAX_UPLINKS_PER_TRANSACTION) {
          size += this.pending[0].uplinks.length;
          batch.push(this.pending.shift()!);
        }
        await this.writeBatch(batch);
      }
    } finally {
      this.writers--;
    }
  }

  private async writeBatch(batch: PendingDelivery[]): Promise<void> {
    try {
      const fresh = await this.storeNow(batch.flatMap((d) => d.uplinks));
      let offset = 0;
      for (const delivery of batch) {
        const end = offset + delivery.uplinks.length;
        delivery.resolve(fresh.slice(offset, end).filter(Boolean).length);
        offset = end;
      }
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // Which delivery failed it is unknown: each on its own now, so that only that one fails.
      for (const delivery of batch) await this.writeBatch([delivery]);
    }
  }

  /**
   * One statement, so one round trip and its own transaction; returns, per uplink, whether it was
   * new. In order: the devices are locked (one order, no deadlock between deliveries) before any
   * uid is drawn, so deliveries for one device commit in the order of their uids and "every uplink
   * of the device up to uid N is committed" holds as soon as N is, which the live feed relies on;
   * then the uplinks (redeliveries dropped by their message id), the gateways that heard the new
   * ones, the devices' metadata from the new ones, and the devices' cache versions.
   */
  private async storeNow(uplinks: UplinkToStore[]): Promise<boolean[]> {
    const rows = uplinks.map((u, i) => ({
      ord: i,
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
      decode_error: u.decodeError,
      ...u.measurements,
      ts_device: u.tsDevice?.toISOString() ?? null,
      ts_gps: u.tsGps?.toISOString() ?? null,
      api_ref: u.apiRef,
      simulated: u.simulated,
      // What the device's metadata takes from the uplink, worked out here where the rules live.
      has_data: u.valid && Object.values(u.measurements).some((v) => v !== null),
      temperature_dc: u.measurements.temperature === null ? null : Math.round(u.measurements.temperature * 10),
      has_position: u.measurements.lat !== null && u.measurements.lon !== null,
      signal_percent: u.rssi === null ? null : signalPercent(u.rssi),
    }));
    const gateways = uplinks.flatMap((u, i) => {
      const seen = new Set<string>();
      return u.gateways.filter((g) => !seen.has(g.gatewayId) && seen.add(g.gatewayId)).map((g) => ({ ord: i, gateway_id: g.gatewayId, rssi: g.rssi, snr: g.snr, lat: g.lat, lon: g.lon }));
    });
    // The newest value of a column among a device's new uplinks that have one (the later of two at
    // the same time wins); its time goes beside it, so a late uplink never moves a value backwards.
    const latest = (expr: string, filter: string) => `(array_agg(${expr} ORDER BY received_at DESC, ord DESC) FILTER (WHERE ${filter}))[1]`;
    const newer = (column: string, value: string, at: string, since: string) =>
      `${column} = CASE WHEN v.${value} IS NOT NULL AND v.${at} >= coalesce(d.${since}, '-infinity'::timestamptz) THEN v.${value} ELSE d.${column} END`;
    const moved = (since: string, at: string, value: string) =>
      `${since} = CASE WHEN v.${value} IS NOT NULL AND v.${at} >= coalesce(d.${since}, '-infinity'::timestamptz) THEN v.${at} ELSE d.${since} END`;
    const stored: { ord: number; uid: string; device_id: number }[] = await this.ds.query(
      `WITH locked AS (
         SELECT uid FROM devices WHERE uid = ANY($2::int[]) ORDER BY uid FOR UPDATE
       ),
       input AS MATERIALIZED (
         -- The uncorrelated sub-select is a one-time filter, run before the first row: every device
         -- is locked before the first nextval.
         SELECT nextval('uplinks_uid_seq') AS uid, v.*
         FROM jsonb_to_recordset($1::jsonb) AS v(ord int, device_id int, received_at timestamptz, network_ref int, message_id text,
              port smallint, fcnt bigint, payload text, sf smallint, rssi double precision, snr double precision,
              geoloc_lat double precision, geoloc_lon double precision, geoloc_alt double precision, decoded jsonb, valid boolean,
              decode_error text, temperature double precision, humidity double precision, battery_voltage double precision,
              battery_percent double precision, lat double precision, lon double precision, alt double precision, firmware_version text,
              ts_device timestamptz, ts_gps timestamptz, api_ref int, simulated boolean, has_data boolean, temperature_dc double precision,
              has_position boolean, signal_percent double precision)
         WHERE (SELECT count(*) FROM locked) >= 0
       ),
       inserted AS (
         INSERT INTO uplinks (uid, device_id, received_at, network_ref, message_id, port, fcnt, payload, sf, rssi, snr, geoloc_lat, geoloc_lon,
                              geoloc_alt, decoded, valid, decode_error, temperature, humidity, battery_voltage, battery_percent, lat, lon, alt,
                              firmware_version, ts_device, ts_gps, api_ref, simulated)
         SELECT uid, device_id, received_at, network_ref, message_id, port, fcnt, decode(payload, 'hex'), sf, rssi, snr, geoloc_lat, geoloc_lon,
                geoloc_alt, decoded, valid, decode_error, temperature, humidity, battery_voltage, battery_percent, lat, lon, alt,
                firmware_version, ts_device, ts_gps, api_ref, simulated
         FROM input
         ON CONFLICT (device_id, message_id) WHERE message_id IS NOT NULL DO NOTHING
         RETURNING uid
       ),
       fresh AS (
         SELECT i.* FROM input i JOIN inserted USING (uid)
       ),
       heard AS (
         INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, network_ref, received_at, rssi, snr, lat, lon)
         SELECT f.uid, f.device_id, g.gateway_id, f.network_ref, f.received_at, g.rssi, g.snr, g.lat, g.lon
         FROM jsonb_to_recordset($3::jsonb) AS g(ord int, gateway_id text, rssi double precision, snr double precision, lat double precision,
              lon double precision)
         JOIN fresh f ON f.ord = g.ord
       ),
       updated AS (
         UPDATE devices d SET
           ts_activity_first = LEAST(d.ts_activity_first, v.activity_first),
           ts_activity_last = GREATEST(d.ts_activity_last, v.activity_last),
           ts_data_first = LEAST(d.ts_data_first, v.data_first),
           ts_data_last = GREATEST(d.ts_data_last, v.data_last),
           ${newer('battery_voltage', 'battery_voltage', 'battery_voltage_at', 'battery_at')},
           ${newer('battery_percent', 'battery_percent', 'battery_percent_at', 'battery_at')},
           ${moved('battery_at', 'battery_voltage_at', 'battery_voltage')},
           ${newer('temperature_dc', 'temperature_dc', 'temperature_at', 'temperature_at')},
           ${moved('temperature_at', 'temperature_at', 'temperature_dc')},
           ${newer('lat', 'lat', 'position_at', 'position_at')},
           ${newer('lon', 'lon', 'position_at', 'position_at')},
           alt = CASE WHEN v.lat IS NOT NULL AND v.position_at >= coalesce(d.position_at, '-infinity'::timestamptz) THEN v.alt ELSE d.alt END,
           ${moved('position_at', 'position_at', 'lat')},
           ${newer('firmware_version', 'firmware_version', 'firmware_at', 'firmware_at')},
           ${moved('firmware_at', 'firmware_at', 'firmware_version')},
           signal_dbm = CASE WHEN v.activity_last >= coalesce(d.ts_activity_last, '-infinity'::timestamptz) THEN v.signal_dbm ELSE d.signal_dbm END,
           signal_percent = CASE WHEN v.activity_last >= coalesce(d.ts_activity_last, '-infinity'::timestamptz) THEN v.signal_percent ELSE d.signal_percent END
         FROM (
           SELECT device_id,
                  min(received_at) AS activity_first,
                  max(received_at) AS activity_last,
                  min(received_at) FILTER (WHERE has_data) AS data_first,
                  max(received_at) FILTER (WHERE has_data) AS data_last,
                  ${latest('battery_voltage', 'battery_voltage IS NOT NULL')} AS battery_voltage,
                  max(received_at) FILTER (WHERE battery_voltage IS NOT NULL) AS battery_voltage_at,
                  ${latest('battery_percent', 'battery_percent IS NOT NULL')} AS battery_percent,
                  max(received_at) FILTER (WHERE battery_percent IS NOT NULL) AS battery_percent_at,
                  ${latest('temperature_dc', 'temperature_dc IS NOT NULL')} AS temperature_dc,
                  max(received_at) FILTER (WHERE temperature_dc IS NOT NULL) AS temperature_at,
                  ${latest('lat', 'has_position')} AS lat,
                  ${latest('lon', 'has_position')} AS lon,
                  ${latest('alt', 'has_position')} AS alt,
                  max(received_at) FILTER (WHERE has_position) AS position_at,
                  ${latest('firmware_version', 'firmware_version IS NOT NULL')} AS firmware_version,
                  max(received_at) FILTER (WHERE firmware_version IS NOT NULL) AS firmware_at,
                  ${latest('rssi', 'true')} AS signal_dbm,
                  ${latest('signal_percent', 'true')} AS signal_percent
           FROM fresh GROUP BY device_id
         ) v
         WHERE d.uid = v.device_id
       ),
       -- Every device that received data has a newer cache version: a cached rendering is stale now.
       invalidated AS (
         INSERT INTO data_cache (device_id) SELECT DISTINCT device_id FROM fresh
         ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1
       )
       SELECT ord, uid::text AS uid, device_id FROM fresh`,
      [JSON.stringify(rows), [...new Set(uplinks.map((u) => u.deviceUid))], JSON.stringify(gateways)],
    );
    const fresh = uplinks.map(() => false);
    const newest = new Map<number, string>();
    for (const row of stored.sort((a, b) => a.ord - b.ord)) {
      fresh[row.ord] = true;
      newest.set(row.device_id, row.uid);
    }
    // After the commit: a notice must not name rows that readers cannot see yet.
    await this.live.publish([...newest].map(([device, uid]): LiveNotice => ({ kind: 'uplinks', device, newest: uid })));
    return fresh;
  }
}
