import { dtEnvironmentDecoder } from './decoder';
import { encodeDtEnvironment } from './uplink-encoder';

const hex = (h: string) => Uint8Array.from(Buffer.from(h.replace(/\s+/g, ''), 'hex'));

describe('DT Environment', () => {
  it('decodes a report', () => {
    // 21.53 °C, 45.5 %, 1013.2 hPa, 320 lx, 612 ppm, 3,000 mV, 64 %
    const r = dtEnvironmentDecoder(hex('0869 5B 2794 0140 0264 0BB8 40'), 1);
    expect(r).toMatchObject({
      valid: true,
      decoded: { temperature: 21.53, humidity: 45.5, pressure: 1013.2, illuminance: 320, co2: 612, bat: 3000, bat_percent: 64 },
    });
    expect(r.measurements).toMatchObject({ temperature: 21.53, humidity: 45.5, battery_voltage: 3, battery_percent: 64 });
  });

  it('reads the no-reading markers as null, and rejects a humidity over 100 %', () => {
    expect(dtEnvironmentDecoder(hex('7FFF FF 2794 0140 0264 0BB8 40'), 1).measurements).toMatchObject({ temperature: null, humidity: null });
    expect(dtEnvironmentDecoder(hex('0869 CA 2794 0140 0264 0BB8 40'), 1).valid).toBe(false);
  });
});

describe('uplink encoder (checked by the decoder)', () => {
  it('encodes a DT Environment report, negative temperature included', () => {
    const r = dtEnvironmentDecoder(
      encodeDtEnvironment({ temperature: -3.27, humidity: 81.5, pressure: 1009.4, illuminance: 12_345, co2: 431, batteryMv: 3590, batteryPercent: 13 }),
      1,
    );
    expect(r.valid).toBe(true);
    expect(r.decoded).toEqual({ temperature: -3.27, humidity: 81.5, pressure: 1009.4, illuminance: 12_345, co2: 431, bat: 3590, bat_percent: 13 });
  });

  it('clamps values to what the layout can carry', () => {
    const r = dtEnvironmentDecoder(
      encodeDtEnvironment({ temperature: 400, humidity: 130, pressure: 1000, illuminance: 100_000, co2: -5, batteryMv: 3000, batteryPercent: 150 }),
      1,
    );
    expect(r.decoded).toMatchObject({ temperature: 327.66, humidity: 100, illuminance: 65_535, co2: 0, bat_percent: 150 });
  });
});
