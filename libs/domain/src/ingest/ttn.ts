import { bestSignal, fail, type GatewayReception, type NormalizedUplink } from './normalized-uplink';
import { eui, isObj, obj, optInt, optNumber, optString, payloadFromBase64, time } from './read';

/**
 * The Things Stack v3 uplink webhook (`uplink_message`). Members the network leaves out when they
 * are zero or empty (f_port, f_cnt, frm_payload, rssi, snr) are read as such. Other members of the
 * message are the network's business and are ignored.
 */
export function parseTtnUplink(body: unknown, now = new Date()): NormalizedUplink {
  const root = obj(body, 'body');
  const ids = obj(root.end_device_ids, 'end_device_ids');
  if (!isObj(root.uplink_message)) fail('uplink_message', 'is required (only uplink messages are ingested here)');
  const up = root.uplink_message;
  const devEUI = eui(ids.dev_eui, 'end_device_ids.dev_eui');
  const port = optInt(up.f_port, 'uplink_message.f_port', 0, 255) ?? 0;
  const fcnt = optInt(up.f_cnt, 'uplink_message.f_cnt', 0, 2 ** 32 - 1) ?? 0;
  const payload = payloadFromBase64(up.frm_payload, 'uplink_message.frm_payload');
  const receivedAt = time(up.received_at ?? root.received_at, 'uplink_message.received_at', now);

  const rx = up.rx_metadata === undefined ? [] : up.rx_metadata;
  if (!Array.isArray(rx)) fail('uplink_message.rx_metadata', 'must be an array');
  const gateways: GatewayReception[] = rx.slice(0, 64).map((g, i) => {
    const m = obj(g, `uplink_message.rx_metadata[${i}]`);
    const gw = obj(m.gateway_ids, `uplink_message.rx_metadata[${i}].gateway_ids`);
    const location = obj(m.location, `uplink_message.rx_metadata[${i}].location`);
    return {
      gatewayId: optString(gw.gateway_id ?? gw.eui, `uplink_message.rx_metadata[${i}].gateway_ids.gateway_id`, 100) ?? 'unknown',
      rssi: optNumber(m.rssi ?? m.channel_rssi, `uplink_message.rx_metadata[${i}].rssi`, -200, 50),
      snr: optNumber(m.snr, `uplink_message.rx_metadata[${i}].snr`, -50, 50),
      lat: optNumber(location.latitude, `uplink_message.rx_metadata[${i}].location.latitude`, -90, 90),
      lon: optNumber(location.longitude, `uplink_message.rx_metadata[${i}].location.longitude`, -180, 180),
    };
  });
  const lora = obj(obj(obj(up.settings, 'uplink_message.settings').data_rate, 'uplink_message.settings.data_rate').lora, 'uplink_message.settings.data_rate.lora');
  const sf = optInt(lora.spreading_factor, 'uplink_message.settings.data_rate.lora.spreading_factor', 5, 12);

  // A position the network resolved (not the one decoded from the payload, nor one a user set).
  let geoloc: NormalizedUplink['geoloc'] = null;
  for (const [key, value] of Object.entries(obj(up.locations, 'uplink_message.locations'))) {
    if (key === 'frm-payload' || key === 'user' || !isObj(value)) continue;
    const lat = optNumber(value.latitude, `uplink_message.locations.${key}.latitude`, -90, 90);
    const lon = optNumber(value.longitude, `uplink_message.locations.${key}.longitude`, -180, 180);
    if (lat !== null && lon !== null) {
      geoloc = { lat, lon, alt: optNumber(value.altitude, `uplink_message.locations.${key}.altitude`) };
      break;
    }
  }

  const correlation = Array.isArray(root.correlation_ids) ? root.correlation_ids.find((c): c is string => typeof c === 'string' && c.startsWith('as:up:')) : undefined;
  return {
    devEUI,
    port,
    fcnt,
    payload,
    receivedAt,
    messageId: correlation ?? `fcnt:${fcnt}@${receivedAt.toISOString()}`,
    sf,
    ...bestSignal(gateways),
    geoloc,
    gateways,
    simulated: root.simulated === true,
    networkName: null,
  };
}
