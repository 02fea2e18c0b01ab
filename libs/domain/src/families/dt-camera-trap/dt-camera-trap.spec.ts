import { dtCameraTrapDecoder } from './decoder';
import { encodeDtCameraTrapStatus } from './uplink-encoder';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

describe('DT Camera Trap', () => {
  it('decodes a status', () => {
    const r = dtCameraTrapDecoder(hex('0E10 50 FF38 0123 1F40 03'), 3);
    expect(r.decoded).toEqual({
      bat: 3600,
      bat_percent: 80,
      temperature: -2,
      photos: 291,
      storage_free_mb: 8000,
      sd_ok: true,
      pir_enabled: true,
      night_mode: false,
    });
    expect(r.measurements).toMatchObject({ temperature: -2, battery_voltage: 3.6, battery_percent: 80 });
  });
});

describe('uplink encoder (checked by the decoder)', () => {
  it('encodes a DT Camera Trap status', () => {
    const r = dtCameraTrapDecoder(
      encodeDtCameraTrapStatus({
        batteryMv: 6100,
        batteryPercent: 81,
        temperature: 9.5,
        photos: 215,
        storageFreeMb: 27_755,
        sdOk: true,
        pirEnabled: true,
        nightMode: false,
      }),
      3,
    );
    expect(r.decoded).toEqual({
      bat: 6100,
      bat_percent: 81,
      temperature: 9.5,
      photos: 215,
      storage_free_mb: 27_755,
      sd_ok: true,
      pir_enabled: true,
      night_mode: false,
    });
  });
});
