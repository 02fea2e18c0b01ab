import { uplinksOf } from '../network';
import { CHIRPSTACK } from '.';
import { CHIRPSTACK_UPLINK_SAMPLE as CHIRPSTACK_UPLINK } from './samples';
import { parseChirpstackUplink } from './uplink';

const now = new Date('2026-05-01T12:00:10Z');

/** The one item a delivery of this body gives. */
const one = (body: unknown) => uplinksOf(CHIRPSTACK.ingest!.read(body, { event: 'up' }, now))[0]!;

describe('ChirpStack v4 up event', () => {
  it('reads every member we use', () => {
    const u = parseChirpstackUplink(CHIRPSTACK_UPLINK, now);
    expect(u).toMatchObject({
      devEUI: '0101010101010101',
      port: 1,
      fcnt: 10,
      sf: 7,
      rssi: -36,
      snr: 10.5,
      messageId: 'dedup:3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
      geoloc: null,
    });
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
    expect(one({ ...CHIRPSTACK_UPLINK, deviceInfo: {} })).toMatchObject({
      ok: false,
      problem: { field: 'deviceInfo.devEui' },
    });
  });
});
