import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type GatewayReception, type Measurements, signalPercent } from '@dts/domain';
import { DataSource, type EntityManager } from 'typeorm';
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

/** Device metadata derived from a batch: one row per device, applied in one UPDATE. */
interface DeviceUpdate {
  uid: number;
  activity_first: string;
  activity_last: string;
  data_first: string | null;
  data_last: string | null;
  battery_voltage: number | null;
  battery_voltage_at: string | null;
  battery_percent: number | null;
  battery_percent_at: string | null;
  temperature_dc: number | null;
  temperature_at: string | null;
  lat: number | null;
  lon: number | null;
  alt: number | null;
  position_at: string | null;
  firmware_version: string | null;
  firmware_at: string | null;
  signal_dbm: number | null;
  signal_percent: number | null;
}

function latest<T>(items: UplinkToStore[], pick: (u: UplinkToStore) => T | null): { value: T | null; at: string | null } {
  let best: UplinkToStore | null = null;
  let value: T | null = null;
  for (const u of items) {
    const v = pick(u);
    if (v !== null && v !== undefined && (best === null || u.receivedAt >= best.receivedAt)) {
      best = u;
      value = v;
    }
  }
  return { value, at: best ? best.receivedAt.toISOString() : null };
}

export function deviceUpdates(stored: UplinkToStore[]): DeviceUpdate[] {
  const byDevice = new Map<number, UplinkToStore[]>();
  for (const u of stored) byDevice.set(u.deviceUid, [...(byDevice.get(u.deviceUid) ?? []), u]);
  return [...byDevice].map(([uid, items]) => {
    const times = items.map((u) => u.receivedAt.getTime());
    const data = items.filter((u) => u.valid && Object.values(u.measurements).some((v) => v !== null)).map((u) => u.receivedAt.getTime());
    const newest = items.reduce((a, b) => (b.receivedAt >= a.receivedAt ? b : a));
    const bv = latest(items, (u) => u.measurements.battery_voltage);
    const bp = latest(items, (u) => u.measurements.battery_percent);
    const t = latest(items, (u) => (u.measurements.temperature === null ? null : Math.round(u.measurements.temperature * 10)));
    const pos = latest(items, (u) => (u.measurements.lat !== null && u.measurements.lon !== null ? { lat: u.measurements.lat, lon: u.measurements.lon, alt: u.measurements.alt } : null));
    const fw = latest(items, (u) => u.measurements.firmware_version);
    const iso = (ms: number) => new Date(ms).toISOString();
    return {
      uid,
      activity_first: iso(Math.min(...times)),
      activity_last: iso(Math.max(...times)),
      data_first: data.length ? iso(Math.min(...data)) : null,
      data_last: data.length ? iso(Math.max(...data)) : null,
      battery_voltage: bv.value,
      battery_voltage_at: bv.at,
      battery_percent: bp.value,
      battery_percent_at: bp.at,
      temperature_dc: t.value,
      temperature_at: t.at,
      lat: pos.value?.lat ?? null,
      lon: pos.value?.lon ?? null,
      alt: pos.value?.alt ?? null,
      position_at: pos.at,
      firmware_version: fw.value,
      firmware_at: fw.at,
      signal_dbm: newest.rssi,
      signal_percent: newest.rssi === null ? null : signalPercent(newest.rssi),
    };
  });
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
 * gateways that heard them, the devices' metadata and their cache versions, each step one
 * statement however many uplinks and devices there are.
 *
 * Deliveries that arrive while earlier ones are being written are written together, in one
 * transaction (group commit). A single-uplink webhook otherwise costs nine database round trips
 * and a commit of its own, and round trips, not SQL, bound the rate (docs/benchmarks.md). Each
 * caller still gets its answer only after the transaction holding its uplinks has committed, so a
 * 202 keeps meaning "stored"; a shared transaction that fails is retried delivery by delivery, so
 * that one bad delivery fails only its own request.
 */
@Injectable()
export class IngestRepository {
  private readonly pending: PendingDelivery[] = [];
  private writers = 0;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly live: LiveBus,
  ) {}

  /** Live devices by EUI; with `ownerId`, only that account's. */
  async targets(euis: string[], ownerId: number | null): Promise<Map<string, IngestTarget>> {
    if (euis.length === 0) return new Map();
    const rows: { uid: number; eui: string; owner_id: number; decoder_uid: number | null; decoder_name: string | null; script: string | null; network_ref: number | null }[] = await this.ds.query(
      `SELECT d.uid, d.eui, d.owner_id, c.uid AS decoder_uid, c.name AS decoder_name, c.script, d.network_ref
       FROM devices d LEFT JOIN decoders c ON c.uid = d.decoder_ref
       WHERE d.eui = ANY($1) AND d.deleted_at IS NULL AND ($2::int IS NULL OR d.owner_id = $2)`,
      [euis, ownerId],
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

  /** One transaction; returns, per uplink, whether it was new. */
  private async storeNow(uplinks: UplinkToStore[]): Promise<boolean[]> {
    const { fresh, newest } = await this.ds.transaction(async (m) => {
      // The devices first, in one order (no deadlock between deliveries), before any uid is drawn:
      // deliveries for one device then commit in the order of their uids, so "every uplink of the
      // device up to uid N is committed" holds as soon as N is, which the live feed relies on.
      await m.query('SELECT uid FROM devices WHERE uid = ANY($1::int[]) ORDER BY uid FOR UPDATE', [[...new Set(uplinks.map((u) => u.deviceUid))]]);
      const ids: { id: string }[] = await m.query(`SELECT nextval('uplinks_uid_seq')::text AS id FROM generate_series(1, $1)`, [uplinks.length]);
      const rows = uplinks.map((u, i) => ({
        uid: ids[i].id,
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
      }));
      const inserted: { uid: string }[] = await m.query(
        `INSERT INTO uplinks (uid, device_id, received_at, network_ref, message_id, port, fcnt, payload, sf, rssi, snr, geoloc_lat, geoloc_lon,
                              geoloc_alt, decoded, valid, decode_error, temperature, humidity, battery_voltage, battery_percent, lat, lon, alt,
                              firmware_version, ts_device, ts_gps, api_ref, simulated)
         SELECT v.uid, v.device_id, v.received_at, v.network_ref, v.message_id, v.port, v.fcnt, decode(v.payload, 'hex'), v.sf, v.rssi, v.snr,
                v.geoloc_lat, v.geoloc_lon, v.geoloc_alt, v.decoded, v.valid, v.decode_error, v.temperature, v.humidity, v.battery_voltage,
                v.battery_percent, v.lat, v.lon, v.alt, v.firmware_version, v.ts_device, v.ts_gps, v.api_ref, v.simulated
         FROM jsonb_to_recordset($1::jsonb) AS v(uid bigint, device_id int, received_at timestamptz, network_ref int, message_id text, port smallint,
              fcnt bigint, payload text, sf smallint, rssi double precision, snr double precision, geoloc_lat double precision,
              geoloc_lon double precision, geoloc_alt double precision, decoded jsonb, valid boolean, decode_error text,
              temperature double precision, humidity double precision, battery_voltage double precision, battery_percent double precision,
              lat double precision, lon double precision, alt double precision, firmware_version text, ts_device timestamptz,
              ts_gps timestamptz, api_ref int, simulated boolean)
         ON CONFLICT (device_id, message_id) WHERE message_id IS NOT NULL DO NOTHING
         RETURNING uid::text AS uid`,
        [JSON.stringify(rows)],
      );
      const insertedUids = new Set(inserted.map((r) => r.uid));
      const fresh = ids.map((id) => insertedUids.has(id.id));
      const stored = uplinks.filter((_, i) => fresh[i]);
      const storedIds = ids.filter((_, i) => fresh[i]);
      await this.storeGateways(m, stored, storedIds.map((x) => x.id));
      await this.updateDevices(m, stored);
      const newest = new Map<number, string>();
      stored.forEach((u, i) => newest.set(u.deviceUid, storedIds[i].id));
      return { fresh, newest };
    });
    // After the commit: a notice must not name rows that readers cannot see yet.
    await this.live.publish([...newest].map(([device, uid]): LiveNotice => ({ kind: 'uplinks', device, newest: uid })));
    return fresh;
  }

  private async storeGateways(m: EntityManager, stored: UplinkToStore[], uids: string[]): Promise<void> {
    const rows = stored.flatMap((u, i) => {
      const seen = new Set<string>();
      return u.gateways
        .filter((g) => !seen.has(g.gatewayId) && seen.add(g.gatewayId))
        .map((g) => ({ uplink_id: uids[i], device_id: u.deviceUid, gateway_id: g.gatewayId, network_ref: u.networkRef, received_at: u.receivedAt.toISOString(), rssi: g.rssi, snr: g.snr, lat: g.lat, lon: g.lon }));
    });
    if (rows.length === 0) return;
    await m.query(
      `INSERT INTO uplink_gateways (uplink_id, device_id, gateway_id, network_ref, received_at, rssi, snr, lat, lon)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS v(uplink_id bigint, device_id int, gateway_id text, network_ref int, received_at timestamptz,
              rssi double precision, snr double precision, lat double precision, lon double precision)`,
      [JSON.stringify(rows)],
    );
  }

  /** Activity and data times widen; a value replaces the stored one only when it is not older than it. */
  private async updateDevices(m: EntityManager, stored: UplinkToStore[]): Promise<void> {
    const updates = deviceUpdates(stored);
    if (updates.length === 0) return;
    // Each value is replaced only by a newer measurement of it; its time is kept beside it.
    const newer = (column: string, value: string, at: string, since: string) =>
      `${column} = CASE WHEN v.${value} IS NOT NULL AND v.${at} >= coalesce(d.${since}, '-infinity'::timestamptz) THEN v.${value} ELSE d.${column} END`;
    const moved = (since: string, at: string, value: string) =>
      `${since} = CASE WHEN v.${value} IS NOT NULL AND v.${at} >= coalesce(d.${since}, '-infinity'::timestamptz) THEN v.${at} ELSE d.${since} END`;
    await m.query(
      `UPDATE devices d SET
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
       FROM jsonb_to_recordset($1::jsonb) AS v(uid int, activity_first timestamptz, activity_last timestamptz, data_first timestamptz,
            data_last timestamptz, battery_voltage double precision, battery_voltage_at timestamptz, battery_percent double precision,
            battery_percent_at timestamptz, temperature_dc double precision, temperature_at timestamptz, lat double precision,
            lon double precision, alt double precision, position_at timestamptz, firmware_version text, firmware_at timestamptz,
            signal_dbm double precision, signal_percent double precision)
       WHERE d.uid = v.uid`,
      [JSON.stringify(updates)],
    );
    // Every device that received data has a newer cache version: a cached rendering is stale now.
    await m.query(
      `INSERT INTO data_cache (device_id) SELECT unnest($1::int[])
       ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1`,
      [updates.map((u) => u.uid)],
    );
  }
}
