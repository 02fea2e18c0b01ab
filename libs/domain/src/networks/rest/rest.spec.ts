import { uplinksOf } from '../network';
import { REST } from '.';
import { parseRestUplink } from './uplink';

const now = new Date('2026-05-01T12:00:10Z');

/** The one item a delivery of this body gives. */
const one = (body: unknown) => uplinksOf(REST.ingest!.read(body, {}, now))[0]!;

describe('REST items', () => {
  it('reads an item with hex or Base64 payload', () => {
    const u = parseRestUplink(
      {
        devEUI: '70-b3-d5-7e-d0-00-12-34',
        port: 1,
        payload_hex: '0367011005',
        time_stamp_unix: 1777636800,
        fcnt: 3,
        RSSI: -80,
        SNR: 5,
        SF: 7,
        network: 'Generic REST',
        gateways: [{ gateway_id: 'g1', rssi: -90 }],
      },
      now,
    );
    expect(u).toMatchObject({
      devEUI: '70B3D57ED0001234',
      port: 1,
      fcnt: 3,
      rssi: -80,
      snr: 5,
      sf: 7,
      messageId: 'fcnt:3@2026-05-01T12:00:00.000Z',
      networkName: 'Generic REST',
    });
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
    expect(one(item)).toMatchObject({ ok: false, problem: { code: 'VALIDATION_FAILED', field } });
  });
});
