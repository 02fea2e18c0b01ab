import { ByteWriter } from '../bytes';

/*
 * The inverse of the decoder beside it (decoder.ts): what a real device sends, for demo data and
 * simulators. Values are rounded to the layout's resolution and clamped to its range.
 */

export interface TrackerPosition {
  tsUnix: number;
  lat: number;
  lon: number;
  alt: number;
  /** Seconds to fix. */
  ttf: number;
  dop: number;
  batteryMv: number;
  batteryPercent: number;
  /** Report counter. */
  uid: number;
  firmware?: [number, number, number];
}

/** DT Tracker port 1 position report (28 bytes), with a valid time and fix. */
export function encodeDtTrackerPosition(p: TrackerPosition): Uint8Array {
  const [maj, min, build] = p.firmware ?? [1, 4, 212];
  const flags = 0x01 | 0x02 | 0x04 | 0x10;
  return new ByteWriter()
    .u8(flags)
    .u32(p.tsUnix)
    .i32(p.lat * 1e7)
    .i32(p.lon * 1e7)
    .i16(p.alt)
    .u8(p.ttf)
    .u8(p.dop * 10)
    .u16(p.batteryMv)
    .u16(p.batteryMv - 300)
    .u8(p.batteryPercent)
    .u8(maj)
    .u8(min)
    .u16(build)
    .u16(p.uid)
    .done();
}
