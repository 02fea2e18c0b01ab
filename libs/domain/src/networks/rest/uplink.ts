import { bestSignal, fail, type GatewayReception, type NormalizedUplink } from '../uplink';
import { checkTime, eui, obj, optInt, optNumber, optString, payloadFromBase64, payloadFromHex } from '../read';

const MEMBERS = new Set([
  'devEUI',
  'port',
  'payload_raw',
  'payload_hex',
  'time_stamp_unix',
  'network',
  'SF',
  'RSSI',
  'SNR',
  'geoloc_lat',
  'geoloc_lon',
  'geoloc_alt',
  'fcnt',
  'gateways',
]);
const GATEWAY_MEMBERS = new Set(['gateway_id', 'rssi', 'snr', 'lat', 'lon']);

/**
 * The service's own uplink format (POST /ingest/rest). Being ours, it is strict: an unknown member
 * refuses the item, naming it.
 */
export function parseRestUplink(raw: unknown, now = new Date()): NormalizedUplink {
  const item = obj(raw, 'item');
  for (const key of Object.keys(item)) if (!MEMBERS.has(key)) fail(key, 'is not an accepted member');
  const devEUI = eui(item.devEUI, 'devEUI');
  const port = optInt(item.port, 'port', 0, 255);
  if (port === null) fail('port', 'is required');
  if ((item.payload_raw === undefined) === (item.payload_hex === undefined)) fail('payload_raw', 'or payload_hex: exactly one is required');
  const payload = item.payload_hex !== undefined ? payloadFromHex(item.payload_hex, 'payload_hex') : payloadFromBase64(item.payload_raw, 'payload_raw');
  const ts = optInt(item.time_stamp_unix, 'time_stamp_unix', 0, 2 ** 40);
  const receivedAt = ts === null ? now : checkTime(new Date(ts * 1000), 'time_stamp_unix', now);
  const fcnt = optInt(item.fcnt, 'fcnt', 0, 2 ** 32 - 1);

  const list = item.gateways === undefined ? [] : item.gateways;
  if (!Array.isArray(list) || list.length > 64) fail('gateways', 'must be an array of at most 64 receptions');
  const gateways: GatewayReception[] = list.map((g, i) => {
    const m = obj(g, `gateways[${i}]`);
    for (const key of Object.keys(m)) if (!GATEWAY_MEMBERS.has(key)) fail(`gateways[${i}].${key}`, 'is not an accepted member');
    const gatewayId = optString(m.gateway_id, `gateways[${i}].gateway_id`, 100);
    if (!gatewayId) fail(`gateways[${i}].gateway_id`, 'is required');
    return {
      gatewayId,
      rssi: optNumber(m.rssi, `gateways[${i}].rssi`, -200, 50),
      snr: optNumber(m.snr, `gateways[${i}].snr`, -50, 50),
      lat: optNumber(m.lat, `gateways[${i}].lat`, -90, 90),
      lon: optNumber(m.lon, `gateways[${i}].lon`, -180, 180),
    };
  });
  const best = bestSignal(gateways);
  const lat = optNumber(item.geoloc_lat, 'geoloc_lat', -90, 90);
  const lon = optNumber(item.geoloc_lon, 'geoloc_lon', -180, 180);
  if ((lat === null) !== (lon === null)) fail('geoloc_lat', 'and geoloc_lon go together');

  return {
    devEUI,
    port,
    fcnt,
    payload,
    receivedAt,
    // Without a network id, the same frame counter at the same second is the same message.
    messageId: fcnt !== null && ts !== null ? `fcnt:${fcnt}@${receivedAt.toISOString()}` : null,
    sf: optInt(item.SF, 'SF', 5, 12),
    rssi: optNumber(item.RSSI, 'RSSI', -200, 50) ?? best.rssi,
    snr: optNumber(item.SNR, 'SNR', -50, 50) ?? best.snr,
    geoloc: lat !== null && lon !== null ? { lat, lon, alt: optNumber(item.geoloc_alt, 'geoloc_alt', -1000, 100_000) } : null,
    gateways,
    simulated: false,
    networkName: optString(item.network, 'network', 100),
  };
}
