import { cayenneLppDecoder } from './cayenne-lpp';
import { dtCameraTrapDecoder } from './dt-camera-trap';
import { dtEnvironmentDecoder } from './dt-environment';
import { dtTrackerDecoder } from './dt-tracker';
import { decoderByName, implementedDecoders } from './registry';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

describe('Cayenne LPP (vectors of the public format description)', () => {
  it('decodes two temperatures', () => {
    const r = cayenneLppDecoder(hex('03 67 01 10 05 67 00 FF'), 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toEqual({ temperature_3: 27.2, temperature_5: 25.5, temperature: 27.2 });
    expect(r.measurements.temperature).toBe(27.2);
  });

  it('decodes a negative temperature and an accelerometer', () => {
    expect(cayenneLppDecoder(hex('01 67 FF D7'), 1).decoded.temperature_1).toBe(-4.1);
    expect(cayenneLppDecoder(hex('06 71 04 D2 FB 2E 00 00'), 1).decoded.accelerometer_6).toEqual({ x: 1.234, y: -1.234, z: 0 });
  });

  it('decodes GPS into lat/lon/alt and the record’s position', () => {
    const r = cayenneLppDecoder(hex('01 88 06 76 5F F2 96 0A 00 03 E8'), 1);
    expect(r.decoded).toMatchObject({ gps_1: { lat: 42.3519, lon: -87.9094, alt: 10 }, lat: 42.3519, lon: -87.9094, alt: 10 });
    expect(r.measurements).toMatchObject({ lat: 42.3519, lon: -87.9094, alt: 10 });
  });

  it('maps humidity, voltage and analog input, and keeps every other type', () => {
    const r = cayenneLppDecoder(hex('02 68 61  03 74 01 5E  04 02 01 2C  05 65 01 F4  07 73 27 A6  08 86 00 0A FF F6 00 64'), 1);
    expect(r.decoded).toMatchObject({ humidity_2: 48.5, humidity: 48.5, voltage_3: 3.5, analog_in_4: 3, illuminance_5: 500, barometer_7: 1015 });
    expect(r.decoded.gyrometer_8).toEqual({ x: 0.1, y: -0.1, z: 1 });
    expect(r.measurements).toMatchObject({ humidity: 48.5, battery_voltage: 3.5 });
  });

  it.each([
    ['', 'empty payload'],
    ['03 67 01', 'payload ends'],
    ['03 FE 00', 'unknown LPP type 254'],
  ])('rejects %p (%s) without throwing', (payload, reason) => {
    const r = cayenneLppDecoder(hex(payload), 1);
    expect(r.valid).toBe(false);
    expect(r.error).toContain(reason);
    expect(r.measurements.temperature).toBeNull();
  });
});

describe('DT Tracker', () => {
  // flags 0x17: datetime, status, gps, enable; 2026-05-01T12:00:00Z; 52.0907370, 5.1214201; 12 m;
  // ttf 35 s; dop 1.2; 3,700 mV; 3,300 mV; 87 %; firmware 2.4.513; report 42.
  const position = '17 69F495C0 1F0C6A6A 030D7779 000C 23 0C 0E74 0CE4 57 02 04 0201 002A';

  it('decodes a position report with every member of the spec', () => {
    const r = dtTrackerDecoder(hex(position), 1);
    expect(r.valid).toBe(true);
    expect(r.decoded).toEqual({
      valid_datetime: true, valid_status: true, valid_gps: true, valid_aux: false, enable: true,
      ts_unix: 1777636800, lat: 52.090737, lon: 5.1214201, alt: 12, ttf: 35, dop: 1.2,
      bat: 3700, bat_lora: 3300, bat_percent: 87, fw_maj: 2, fw_min: 4, fw_build: 513, firmware_version: '2.4.513', uid: 42, valid: true,
    });
    expect(r.measurements).toEqual({ temperature: null, humidity: null, battery_voltage: 3.7, battery_percent: 87, lat: 52.090737, lon: 5.1214201, alt: 12, firmware_version: '2.4.513' });
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

  it.each([[position.slice(0, -4), 1], ['02 0E74', 2], [position, 9]])('rejects %p on port %p', (payload, port) => {
    expect(dtTrackerDecoder(hex(payload), port).valid).toBe(false);
  });
});

describe('DT Environment', () => {
  it('decodes a report', () => {
    // 21.53 °C, 45.5 %, 1013.2 hPa, 320 lx, 612 ppm, 3,000 mV, 64 %
    const r = dtEnvironmentDecoder(hex('0869 5B 2794 0140 0264 0BB8 40'), 1);
    expect(r).toMatchObject({ valid: true, decoded: { temperature: 21.53, humidity: 45.5, pressure: 1013.2, illuminance: 320, co2: 612, bat: 3000, bat_percent: 64 } });
    expect(r.measurements).toMatchObject({ temperature: 21.53, humidity: 45.5, battery_voltage: 3, battery_percent: 64 });
  });

  it('reads the no-reading markers as null, and rejects a humidity over 100 %', () => {
    expect(dtEnvironmentDecoder(hex('7FFF FF 2794 0140 0264 0BB8 40'), 1).measurements).toMatchObject({ temperature: null, humidity: null });
    expect(dtEnvironmentDecoder(hex('0869 CA 2794 0140 0264 0BB8 40'), 1).valid).toBe(false);
  });
});

describe('DT Camera Trap', () => {
  it('decodes a status', () => {
    const r = dtCameraTrapDecoder(hex('0E10 50 FF38 0123 1F40 03'), 3);
    expect(r.decoded).toEqual({ bat: 3600, bat_percent: 80, temperature: -2, photos: 291, storage_free_mb: 8000, sd_ok: true, pir_enabled: true, night_mode: false });
    expect(r.measurements).toMatchObject({ temperature: -2, battery_voltage: 3.6, battery_percent: 80 });
  });
});

describe('every decoder', () => {
  it('never throws, whatever the bytes and port', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const name of implementedDecoders()) {
      const decode = decoderByName(name)!;
      for (let i = 0; i < 2000; i++) {
        const bytes = Uint8Array.from({ length: Math.floor(random() * 40) }, () => Math.floor(random() * 256));
        const result = decode(bytes, Math.floor(random() * 5));
        expect(typeof result.valid).toBe('boolean');
        if (!result.valid) expect(typeof result.error).toBe('string');
      }
    }
  });
});
