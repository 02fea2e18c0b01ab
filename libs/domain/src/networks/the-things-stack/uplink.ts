import { bestSignal, fail, type GatewayReception, type NormalizedUplink } from '../uplink';
import { eui, isObj, obj, optInt, optNumber, optString, payloadFromBase64, time } from '../read';
import { uplinkCorrelation } from './events';

/**
 * The Packet Broker hop: TTS lists an uplink that reached it through Packet Broker (another
 * network's gateway) as a reception by a "gateway" `packetbroker`, which is not a gateway of anyone's.
 */
const PACKET_BROKER = 'packetbroker';

/**
 * The Things Stack v3 uplink webhook (`uplink_message`, or `uplink_normalized`, which carries the
 * same uplink with the payload normalized as well). Members the network leaves out when they are
 * zero or empty (f_port, f_cnt, frm_payload, rssi, snr) are read as such. Other members of the
 * message are the network's business and are ignored.
 */
export function parseTtnUplink(body: unknown, now = new Date(), key: 'uplink_message' | 'uplink_normalized' = 'uplink_message'): NormalizedUplink {
  const root = obj(body, 'body');
  const ids = obj(root.end_device_ids, 'end_device_ids');
  if (!isObj(root[key])) fail(key, 'is required');
  const up = root[key];
  const devEUI = eui(ids.dev_eui, 'end_device_ids.dev_eui');
  const port = optInt(up.f_port, `${key}.f_port`, 0, 255) ?? 0;
  const fcnt = optInt(up.f_cnt, `${key}.f_cnt`, 0, 2 ** 32 - 1) ?? 0;
  const payload = payloadFromBase64(up.frm_payload, `${key}.frm_payload`);
  const receivedAt = time(up.received_at ?? root.received_at, `${key}.received_at`, now);

  const rx = up.rx_metadata === undefined ? [] : up.rx_metadata;
  if (!Array.isArray(rx)) fail(`${key}.rx_metadata`, 'must be an array');
  const receptions: GatewayReception[] = rx.slice(0, 64).map((g, i) => {
    const m = obj(g, `${key}.rx_metadata[${i}]`);
    const gw = obj(m.gateway_ids, `${key}.rx_metadata[${i}].gateway_ids`);
    const location = obj(m.location, `${key}.rx_metadata[${i}].location`);
    return {
      gatewayId: optString(gw.gateway_id ?? gw.eui, `${key}.rx_metadata[${i}].gateway_ids.gateway_id`, 100) ?? 'unknown',
      rssi: optNumber(m.rssi ?? m.channel_rssi, `${key}.rx_metadata[${i}].rssi`, -200, 50),
      snr: optNumber(m.snr, `${key}.rx_metadata[${i}].snr`, -50, 50),
      lat: optNumber(location.latitude, `${key}.rx_metadata[${i}].location.latitude`, -90, 90),
      lon: optNumber(location.longitude, `${key}.rx_metadata[${i}].location.longitude`, -180, 180),
    };
  });
  const lora = obj(obj(obj(up.settings, `${key}.settings`).data_rate, `${key}.settings.data_rate`).lora, `${key}.settings.data_rate.lora`);
  const sf = optInt(lora.spreading_factor, `${key}.settings.data_rate.lora.spreading_factor`, 5, 12);

  // A position the network resolved (not the one decoded from the payload, nor one a user set).
  let geoloc: NormalizedUplink['geoloc'] = null;
  for (const [source, value] of Object.entries(obj(up.locations, `${key}.locations`))) {
    if (source === 'frm-payload' || source === 'user' || !isObj(value)) continue;
    const lat = optNumber(value.latitude, `${key}.locations.${source}.latitude`, -90, 90);
    const lon = optNumber(value.longitude, `${key}.locations.${source}.longitude`, -180, 180);
    if (lat !== null && lon !== null) {
      geoloc = { lat, lon, alt: optNumber(value.altitude, `${key}.locations.${source}.altitude`) };
      break;
    }
  }

  const correlation = uplinkCorrelation(root);
  return {
    devEUI,
    port,
    fcnt,
    payload,
    receivedAt,
    messageId: correlation ?? `fcnt:${fcnt}@${receivedAt.toISOString()}`,
    sf,
    // The hop's signal is a real gateway's (the forwarder's), so it counts for the signal; the hop is no gateway.
    ...bestSignal(receptions),
    geoloc,
    gateways: receptions.filter((g) => g.gatewayId !== PACKET_BROKER),
    simulated: root.simulated === true,
    networkName: null,
  };
}
