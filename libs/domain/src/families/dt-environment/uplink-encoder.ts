import { ByteWriter } from '../bytes';

/*
 * The inverse of the decoder beside it (decoder.ts): what a real device sends, for demo data and
 * simulators. Values are rounded to the layout's resolution and clamped to its range.
 */

export interface EnvironmentReport {
  temperature: number;
  humidity: number;
  pressure: number;
  illuminance: number;
  co2: number;
  batteryMv: number;
  batteryPercent: number;
}

/** DT Environment port 1 report (12 bytes). */
export function encodeDtEnvironment(r: EnvironmentReport): Uint8Array {
  return (
    new ByteWriter()
      // 0x7FFF means "no reading": the warmest value sent is one step below.
      .i16(Math.min(0x7ffe, r.temperature * 100))
      .u8(Math.min(100, r.humidity) * 2)
      .u16(r.pressure * 10)
      .u16(r.illuminance)
      .u16(r.co2)
      .u16(r.batteryMv)
      .u8(r.batteryPercent)
      .done()
  );
}
