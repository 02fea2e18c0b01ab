import { cayenneLppDecoder } from './decoder';
import { encodeCayenneLpp } from './uplink-encoder';

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

  it('decodes GPS into lat/lon/alt and the record’s position, once', () => {
    const r = cayenneLppDecoder(hex('01 88 06 76 5F F2 96 0A 00 03 E8'), 1);
    // The reading is the device's position, under those names only: written as gps_1 too, every
    // view of the payload (the console's Decoded column, exports) showed the same reading twice.
    expect(r.decoded).toEqual({ lat: 42.3519, lon: -87.9094, alt: 10 });
    expect(r.measurements).toMatchObject({ lat: 42.3519, lon: -87.9094, alt: 10 });
  });

  it('keeps a second GPS channel as gps_<channel>, the first being the position', () => {
    const r = cayenneLppDecoder(hex('01 88 06 76 5F F2 96 0A 00 03 E8  02 88 07 FD 5C 00 BE A5 00 00 C8  03 74 01 85'), 1);
    expect(r.decoded).toEqual({ lat: 42.3519, lon: -87.9094, alt: 10, gps_2: { lat: 52.3612, lon: 4.8805, alt: 2 }, voltage_3: 3.89 });
    expect(r.measurements).toMatchObject({ lat: 42.3519, lon: -87.9094, alt: 10, battery_voltage: 3.89 });
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

describe('uplink encoder (checked by the decoder)', () => {
  it('encodes Cayenne LPP GPS, temperature, humidity and voltage as the public format describes', () => {
    const gps = encodeCayenneLpp([{ channel: 1, type: 'gps', lat: 42.3519, lon: -87.9094, alt: 10 }]);
    // The vector of the format description.
    expect(Buffer.from(gps).toString('hex')).toBe('018806765ff2960a0003e8');
    const r = cayenneLppDecoder(
      encodeCayenneLpp([
        { channel: 1, type: 'temperature', value: -4.1 },
        { channel: 2, type: 'humidity', value: 48.5 },
        { channel: 3, type: 'voltage', value: 3.5 },
        { channel: 4, type: 'barometer', value: 1015 },
      ]),
      1,
    );
    expect(r.decoded).toMatchObject({ temperature: -4.1, humidity: 48.5, voltage_3: 3.5, barometer_4: 1015 });
    expect(r.measurements).toMatchObject({ temperature: -4.1, humidity: 48.5, battery_voltage: 3.5 });
  });
});
