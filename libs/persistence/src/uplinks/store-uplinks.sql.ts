import { declaredColumn, fromRecordset, sqlList, UPLINK_WRITE_COLUMNS } from './uplink-columns';

/**
 * The ingestion statement: one round trip, its own transaction, for any number of uplinks and
 * devices. Parameters: $1 the uplinks (UplinkWrite plus `ord` and their offer to the device, as
 * JSON), $2 the device uids, $3 the gateways that heard them (JSON, by `ord`). Answers one row per
 * uplink that was new: `ord, uid, device_id`. The generated text is kept in
 * libs/persistence/queries/uplinks.store.sql, where a change to it shows in review.
 *
 * In order: the devices are locked (in one order, so deliveries cannot deadlock) before any uid is
 * drawn, so deliveries for one device commit in the order of their uids, and "every uplink of the
 * device up to uid N is committed" holds as soon as N is (the live feed relies on it); then the
 * uplinks (redeliveries dropped by their message id), the gateways that heard the new ones, the
 * devices' metadata from the new ones, and the devices' cache versions.
 */

/**
 * How far apart in time a redelivery of a message may be from the first delivery and still be
 * known as one (docs/api.md §5). A redelivery carrying the network's own reception time is the
 * same row and always refused (the unique index); this covers one whose time is the service's.
 */
export const REDELIVERY_WINDOW_DAYS = 7;

/** What each uplink offers its device (uplinkOffer in libs/domain device-metadata). */
const OFFER_COLUMNS = ['has_data boolean', 'temperature_dc double precision', 'has_position boolean', 'signal_percent double precision'];

/** `(array_agg … ORDER BY …)[1]`: the value of the batch's latest uplink that offers one (latestOffered). */
const latestOffered = (expr: string, offers: string) => `(array_agg(${expr} ORDER BY received_at DESC, ord DESC) FILTER (WHERE ${offers}))[1]`;
/** isNewer: an offered moment no earlier than the device's (any moment beats none). */
const isNewer = (offeredAt: string, deviceAt: string) => `v.${offeredAt} >= coalesce(d.${deviceAt}, '-infinity'::timestamptz)`;

/**
 * A device value with the moment it describes: the value offered, when there is one and it is newer,
 * else the device's own. `moves` names the offered value whose presence decides (a position moves
 * as one, on its latitude).
 */
function timedValue(column: string, offeredAt: string, deviceAt: string, moves = column): string {
  return `${column} = CASE WHEN v.${moves} IS NOT NULL AND ${isNewer(offeredAt, deviceAt)} THEN v.${column} ELSE d.${column} END`;
}
/** The moment beside a value, moved with it. */
function timedMoment(deviceAt: string, offeredAt: string, moves: string): string {
  return `${deviceAt} = CASE WHEN v.${moves} IS NOT NULL AND ${isNewer(offeredAt, deviceAt)} THEN v.${offeredAt} ELSE d.${deviceAt} END`;
}

/** What the batch offers each device (applyUplinks' view of it), one row per device. */
const OFFERS = `
           SELECT device_id,
                  min(received_at) AS activity_first,
                  max(received_at) AS activity_last,
                  min(received_at) FILTER (WHERE has_data) AS data_first,
                  max(received_at) FILTER (WHERE has_data) AS data_last,
                  ${latestOffered('battery_voltage', 'battery_voltage IS NOT NULL')} AS battery_voltage,
                  max(received_at) FILTER (WHERE battery_voltage IS NOT NULL) AS battery_voltage_at,
                  ${latestOffered('battery_percent', 'battery_percent IS NOT NULL')} AS battery_percent,
                  max(received_at) FILTER (WHERE battery_percent IS NOT NULL) AS battery_percent_at,
                  ${latestOffered('temperature_dc', 'temperature_dc IS NOT NULL')} AS temperature_dc,
                  max(received_at) FILTER (WHERE temperature_dc IS NOT NULL) AS temperature_at,
                  ${latestOffered('lat', 'has_position')} AS lat,
                  ${latestOffered('lon', 'has_position')} AS lon,
                  ${latestOffered('alt', 'has_position')} AS alt,
                  max(received_at) FILTER (WHERE has_position) AS position_at,
                  ${latestOffered('firmware_version', 'firmware_version IS NOT NULL')} AS firmware_version,
                  max(received_at) FILTER (WHERE firmware_version IS NOT NULL) AS firmware_at,
                  ${latestOffered('rssi', 'rssi IS NOT NULL')} AS signal_dbm,
                  ${latestOffered('signal_percent', 'rssi IS NOT NULL')} AS signal_percent,
                  max(received_at) FILTER (WHERE rssi IS NOT NULL) AS signal_at,
                  max(uid) AS newest_uid
           FROM fresh GROUP BY device_id`;

/** The device metadata rules of applyUplinks, column by column. */
const DEVICE_UPDATES = [
  'ts_activity_first = LEAST(d.ts_activity_first, v.activity_first)',
  'ts_activity_last = GREATEST(d.ts_activity_last, v.activity_last)',
  'ts_data_first = LEAST(d.ts_data_first, v.data_first)',
  'ts_data_last = GREATEST(d.ts_data_last, v.data_last)',
  // Voltage and percent share one moment; the voltage's moves it.
  timedValue('battery_voltage', 'battery_voltage_at', 'battery_at'),
  timedValue('battery_percent', 'battery_percent_at', 'battery_at'),
  timedMoment('battery_at', 'battery_voltage_at', 'battery_voltage'),
  timedValue('temperature_dc', 'temperature_at', 'temperature_at'),
  timedMoment('temperature_at', 'temperature_at', 'temperature_dc'),
  timedValue('lat', 'position_at', 'position_at'),
  timedValue('lon', 'position_at', 'position_at'),
  timedValue('alt', 'position_at', 'position_at', 'lat'),
  timedMoment('position_at', 'position_at', 'lat'),
  timedValue('firmware_version', 'firmware_at', 'firmware_at'),
  timedMoment('firmware_at', 'firmware_at', 'firmware_version'),
  // The last known signal: an uplink without radio data leaves it; dBm and percent move together.
  timedValue('signal_dbm', 'signal_at', 'signal_at'),
  timedValue('signal_percent', 'signal_at', 'signal_at', 'signal_dbm'),
  timedMoment('signal_at', 'signal_at', 'signal_dbm'),
  // The live feed's bound (UplinkReadsRepository.newestUid): uids of one device grow with each commit.
  'last_uplink_uid = GREATEST(d.last_uplink_uid, v.newest_uid)',
];

export const STORE_UPLINKS_SQL = `WITH locked AS (
         -- The devices still live, locked: a device deleted since its look-up (on another instance,
         -- before this process heard of it) takes no uplink, and a deletion in flight is waited for.
         SELECT uid FROM devices WHERE uid = ANY($2::int[]) AND deleted_at IS NULL ORDER BY uid FOR UPDATE
       ),
       input AS MATERIALIZED (
         -- The uncorrelated sub-select is a one-time filter, run before the first row: every device
         -- is locked before the first nextval.
         SELECT nextval('uplinks_uid_seq') AS uid, v.*
         FROM jsonb_to_recordset($1::jsonb) AS v(${sqlList(['ord int', ...UPLINK_WRITE_COLUMNS.map(declaredColumn), ...OFFER_COLUMNS])})
         WHERE (SELECT count(*) FROM locked) >= 0
       ),
       inserted AS (
         INSERT INTO uplinks (${sqlList(['uid', ...UPLINK_WRITE_COLUMNS], '                              ')})
         SELECT ${sqlList(['uid', ...UPLINK_WRITE_COLUMNS.map(fromRecordset)], '                ')}
         FROM input i
         -- A redelivery whose time is the service's (no time of the network's in it) is not the
         -- same row: it is found by its message id among the device's uplinks of those days.
         WHERE i.device_id IN (SELECT uid FROM locked) AND (i.message_id IS NULL OR NOT EXISTS (
           SELECT 1 FROM uplinks x
           WHERE x.device_id = i.device_id AND x.message_id = i.message_id
             AND x.received_at >= i.received_at - interval '${REDELIVERY_WINDOW_DAYS} days' AND x.received_at <= i.received_at + interval '${REDELIVERY_WINDOW_DAYS} days'))
         ON CONFLICT (device_id, message_id, received_at) WHERE message_id IS NOT NULL DO NOTHING
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
           ${DEVICE_UPDATES.join(',\n           ')}
         FROM (${OFFERS}
         ) v
         WHERE d.uid = v.device_id
       ),
       -- Every device that received data has a newer cache version: a cached rendering is stale now.
       invalidated AS (
         INSERT INTO data_cache (device_id) SELECT DISTINCT device_id FROM fresh
         ON CONFLICT (device_id) DO UPDATE SET version = data_cache.version + 1
       )
       -- Each new row with its uid; each uplink of a device gone with a null uid; redeliveries not at all.
       SELECT ord, uid::text AS uid, device_id FROM fresh
       UNION ALL
       SELECT ord, NULL, device_id FROM input WHERE device_id NOT IN (SELECT uid FROM locked)`;

/**
 * Live devices by EUI, with their decoders: a delivery's look-up, made only for the EUIs its
 * process does not hold (IngestTargetsCache). $1 the EUIs.
 */
export const LIVE_DEVICES_SQL = `SELECT d.uid, d.eui, d.owner_id, c.uid AS decoder_uid, c.name AS decoder_name, c.script, d.network_ref
   FROM devices d LEFT JOIN decoders c ON c.uid = d.decoder_ref
   WHERE d.eui = ANY($1) AND d.deleted_at IS NULL`;
