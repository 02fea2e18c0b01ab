import { dtTrackerDecoder } from './decoder';
import { encodeDtTrackerPosition } from './uplink-encoder';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

describe('DT Tracker', () => {
  // flags 0x17: datetime, status, gps, enable; 2026-05-01T12:00:00Z; 52.0907370, 5.1214201; 12 m;
  // ttf 35 s; dop 1.2; 3,700 mV; 3,300 mV; 87 %; firmware 2.4.513; report 42.
  const position = '17 69F495C0 1F0C6A6A 030D7779 000C 23 0C 0E74 0CE4 57 02 04 0201 002A';

  it('decodes a position report with every member docs/api.md lists', () => {
    const r = dtTrackerDecoder(hex(position), 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toEqual({
      valid_datetime: true,
      valid_status: true,
      valid_gps: true,
      valid_aux: false,
      enable: true,
      ts_unix: 1777636800,
      lat: 52.090737,
      lon: 5.1214201,
      alt: 12,
      ttf: 35,
      dop: 1.2,
      bat: 3700,
      bat_lora: 3300,
      bat_percent: 87,
      fw_maj: 2,
      fw_min: 4,
      fw_build: 513,
      firmware_version: '2.4.513',
      uid: 42,
      valid: true,
    });
    expect(r.measurements).toEqual({
      temperature: null,
      humidity: null,
      battery_voltage: 3.7,
      battery_percent: 87,
      lat: 52.090737,
      lon: 5.1214201,
      alt: 12,
      firmware_version: '2.4.513',
    });
  });

  it('keeps a report without a fix but does not use its position', () => {
    const r = dtTrackerDecoder(hex(`13${position.slice(2)}`), 1);
    expect(r.valid).toBe(false);
    expect(r.error).toBe('no valid GPS fix');
    expect(r.measurements.lat).toBeNull();
    expect(r.measurements.battery_voltage).toBe(3.7);
  });

  it('decodes a heartbeat on port 2', () => {
    const r = dtTrackerDecoder(hex('02 0E74 0CE4 57 02 04 0201'), 2);
    expect(r).toMatchObject({ valid: true, decoded: { valid_status: true, bat: 3700, firmware_version: '2.4.513' }, measurements: { battery_percent: 87 } });
  });

  it.each([
    [position.slice(0, -4), 1],
    ['02 0E74', 2],
    [position, 9],
  ])('rejects %p on port %p', (payload, port) => {
    expect(dtTrackerDecoder(hex(payload), port).valid).toBe(false);
  });
});

describe('uplink encoder (checked by the decoder)', () => {
  it('encodes a DT Tracker position report that decodes to the same values', () => {
    const bytes = encodeDtTrackerPosition({
      tsUnix: 1_777_000_000,
      lat: 52.3592123,
      lon: -4.8686456,
      alt: -3,
      ttf: 12,
      dop: 1.3,
      batteryMv: 4012,
      batteryPercent: 73,
      uid: 65,
    });
    expect(bytes).toHaveLength(28);
    const r = dtTrackerDecoder(bytes, 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toMatchObject({
      ts_unix: 1_777_000_000,
      lat: 52.3592123,
      lon: -4.8686456,
      alt: -3,
      ttf: 12,
      dop: 1.3,
      bat: 4012,
      bat_lora: 3712,
      bat_percent: 73,
      uid: 65,
      firmware_version: '1.4.212',
    });
    expect(r.measurements).toMatchObject({ lat: 52.3592123, lon: -4.8686456, battery_voltage: 4.012 });
  });
});
