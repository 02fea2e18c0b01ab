import { bestSignal, fail, type GatewayReception, type NormalizedUplink } from '../uplink';
import { eui, isObj, obj, optInt, optNumber, optString, payloadFromBase64, time } from '../read';

/**
 * ChirpStack v4 HTTP integration, `up` event (protobuf JSON: members at their default — fCnt 0,
 * empty data — are left out). `deduplicationId` identifies the message across redeliveries.
 */
export function parseChirpstackUplink(body: unknown, now = new Date()): NormalizedUplink {
  const root = obj(body, 'body');
  const info = obj(root.deviceInfo, 'deviceInfo');
  const devEUI = eui(info.devEui, 'deviceInfo.devEui');
  const port = optInt(root.fPort, 'fPort', 0, 255) ?? 0;
  const fcnt = optInt(root.fCnt, 'fCnt', 0, 2 ** 32 - 1) ?? 0;
  const payload = payloadFromBase64(root.data, 'data');
  const receivedAt = time(root.time, 'time', now);
  const dedup = optString(root.deduplicationId, 'deduplicationId', 100);

  const rx = root.rxInfo === undefined ? [] : root.rxInfo;
  if (!Array.isArray(rx)) fail('rxInfo', 'must be an array');
  const gateways: GatewayReception[] = rx.slice(0, 64).map((g, i) => {
    const m = obj(g, `rxInfo[${i}]`);
    const location = obj(m.location, `rxInfo[${i}].location`);
    return {
      gatewayId: optString(m.gatewayId, `rxInfo[${i}].gatewayId`, 100) ?? 'unknown',
      rssi: optNumber(m.rssi, `rxInfo[${i}].rssi`, -200, 50),
      snr: optNumber(m.snr, `rxInfo[${i}].snr`, -50, 50),
      lat: optNumber(location.latitude, `rxInfo[${i}].location.latitude`, -90, 90),
      lon: optNumber(location.longitude, `rxInfo[${i}].location.longitude`, -180, 180),
    };
  });
  const modulation = obj(obj(root.txInfo, 'txInfo').modulation, 'txInfo.modulation');
  const sf = optInt(obj(modulation.lora, 'txInfo.modulation.lora').spreadingFactor, 'txInfo.modulation.lora.spreadingFactor', 5, 12);
  const location = isObj(root.location) ? root.location : null;
  const lat = location ? optNumber(location.latitude, 'location.latitude', -90, 90) : null;
  const lon = location ? optNumber(location.longitude, 'location.longitude', -180, 180) : null;

  return {
    devEUI,
    port,
    fcnt,
    payload,
    receivedAt,
    messageId: dedup ? `dedup:${dedup}` : `fcnt:${fcnt}@${receivedAt.toISOString()}`,
    sf,
    ...bestSignal(gateways),
    geoloc: lat !== null && lon !== null ? { lat, lon, alt: optNumber(location!.altitude, 'location.altitude') } : null,
    gateways,
    simulated: false,
    networkName: null,
  };
}
