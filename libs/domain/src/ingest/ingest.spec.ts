import { parseChirpstackUplink } from './chirpstack';
import { parseItem } from './read';
import { parseRestUplink } from './rest';
import { CHIRPSTACK_UPLINK_SAMPLE as CHIRPSTACK_UPLINK, TTN_UPLINK_SAMPLE as TTN_UPLINK } from './samples';
import { parseTtnUplink } from './ttn';

const now = new Date('2026-05-01T12:00:10Z');

describe('The Things Stack v3 uplink', () => {
  it('reads every member we use', () => {
    const u = parseTtnUplink(TTN_UPLINK, now);
    expect(u).toMatchObject({
      devEUI: '70B3D57ED0001234', port: 2, fcnt: 17, messageId: 'as:up:01HX0000000000000000000001', sf: 9, rssi: -97, snr: 7.25,
      simulated: true, geoloc: { lat: 52.09, lon: 5.12, alt: null },
    });
    expect(Buffer.from(u.payload).toString('hex')).toBe('036701100567 00ff'.replace(/ /g, ''));
    expect(u.receivedAt.toISOString()).toBe('2026-05-01T12:00:00.120Z');
    expect(u.gateways).toEqual([
      { gatewayId: 'gw-north', rssi: -97, snr: 7.25, lat: 52.1, lon: 5.1 },
      { gatewayId: 'gw-south', rssi: -112, snr: -3.5, lat: null, lon: null },
    ]);
  });

  it('reads absent zero members as zero and an absent payload as empty', () => {
    const { f_cnt: _c, frm_payload: _p, ...up } = TTN_UPLINK.uplink_message;
    const u = parseTtnUplink({ ...TTN_UPLINK, correlation_ids: [], uplink_message: { ...up, f_port: undefined } }, now);
    expect(u).toMatchObject({ port: 0, fcnt: 0, messageId: 'fcnt:0@2026-05-01T12:00:00.120Z' });
    expect(u.payload).toHaveLength(0);
  });

  it.each([
    [{ ...TTN_UPLINK, uplink_message: undefined }, 'uplink_message'],
    [{ ...TTN_UPLINK, end_device_ids: { dev_eui: 'zz' } }, 'end_device_ids.dev_eui'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, frm_payload: '***' } }, 'uplink_message.frm_payload'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, frm_payload: Buffer.alloc(243).toString('base64') } }, 'uplink_message.frm_payload'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, f_port: 300 } }, 'uplink_message.f_port'],
    [{ ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, received_at: 'yesterday' } }, 'uplink_message.received_at'],
  ])('refuses a bad body naming %#', (body, field) => {
    const parsed = parseItem(body, (b) => parseTtnUplink(b, now));
    expect(parsed).toMatchObject({ ok: false, problem: { field } });
  });

  it('calls an oversized payload PAYLOAD_TOO_LARGE', () => {
    const body = { ...TTN_UPLINK, uplink_message: { ...TTN_UPLINK.uplink_message, frm_payload: Buffer.alloc(243).toString('base64') } };
    expect(parseItem(body, (b) => parseTtnUplink(b, now))).toMatchObject({ ok: false, devEUI: '70B3D57ED0001234', problem: { code: 'PAYLOAD_TOO_LARGE' } });
  });
});

describe('ChirpStack v4 up event', () => {
  it('reads every member we use', () => {
    const u = parseChirpstackUplink(CHIRPSTACK_UPLINK, now);
    expect(u).toMatchObject({ devEUI: '0101010101010101', port: 1, fcnt: 10, sf: 7, rssi: -36, snr: 10.5, messageId: 'dedup:3ac7e3c4-4401-4b8d-9386-a5c902f9202d', geoloc: null });
    expect(u.gateways).toEqual([{ gatewayId: '0016c001f153a14c', rssi: -36, snr: 10.5, lat: 52.2, lon: 5.2 }]);
    expect(Buffer.from(u.payload).toString('hex')).toBe('016700e5');
  });

  it('reads absent fCnt and data as their defaults', () => {
    const { fCnt: _f, data: _d, ...rest } = CHIRPSTACK_UPLINK;
    const u = parseChirpstackUplink(rest, now);
    expect(u.fcnt).toBe(0);
    expect(u.payload).toHaveLength(0);
  });

  it('refuses a missing device EUI', () => {
    expect(parseItem({ ...CHIRPSTACK_UPLINK, deviceInfo: {} }, (b) => parseChirpstackUplink(b, now))).toMatchObject({ ok: false, problem: { field: 'deviceInfo.devEui' } });
  });
});

describe('REST items', () => {
  it('reads an item with hex or Base64 payload', () => {
    const u = parseRestUplink({ devEUI: '70-b3-d5-7e-d0-00-12-34', port: 1, payload_hex: '0367011005', time_stamp_unix: 1777636800, fcnt: 3, RSSI: -80, SNR: 5, SF: 7, network: 'Generic REST', gateways: [{ gateway_id: 'g1', rssi: -90 }] }, now);
    expect(u).toMatchObject({ devEUI: '70B3D57ED0001234', port: 1, fcnt: 3, rssi: -80, snr: 5, sf: 7, messageId: 'fcnt:3@2026-05-01T12:00:00.000Z', networkName: 'Generic REST' });
    expect(parseRestUplink({ devEUI: '70b3d57ed0001234', port: 1, payload_raw: 'AQI=' }, now)).toMatchObject({ messageId: null, receivedAt: now });
  });

  it.each([
    [{ devEUI: '70b3d57ed0001234', port: 1 }, 'payload_raw'],
    [{ devEUI: '70b3d57ed0001234', port: 1, payload_raw: 'AQI=', payload_hex: '0102' }, 'payload_raw'],
    [{ devEUI: '70b3d57ed0001234', payload_hex: '01' }, 'port'],
    [{ devEUI: 'x', port: 1, payload_hex: '01' }, 'devEUI'],
    [{ devEUI: '70b3d57ed0001234', port: 1, payload_hex: '01', colour: 'red' }, 'colour'],
    [{ devEUI: '70b3d57ed0001234', port: 1, payload_hex: '0g' }, 'payload_hex'],
    [{ devEUI: '70b3d57ed0001234', port: 1, payload_hex: '01', time_stamp_unix: 9_999_999_999 }, 'time_stamp_unix'],
    [{ devEUI: '70b3d57ed0001234', port: 1, payload_hex: '01', geoloc_lat: 1 }, 'geoloc_lat'],
    [{ devEUI: '70b3d57ed0001234', port: 1, payload_hex: '01', gateways: [{ rssi: -1 }] }, 'gateways[0].gateway_id'],
  ])('refuses %j naming %s', (item, field) => {
    expect(parseItem(item, (b) => parseRestUplink(b, now))).toMatchObject({ ok: false, problem: { code: 'VALIDATION_FAILED', field } });
  });
});
