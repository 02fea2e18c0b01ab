import { ByteWriter } from '../bytes';

/*
 * The inverse of the decoder beside it (decoder.ts): what a real device sends, for demo data and
 * simulators. Values are rounded to the layout's resolution and clamped to its range.
 */

/** One Cayenne LPP value: the types a demo device reports. */
export type LppValue =
  | { channel: number; type: 'temperature'; value: number }
  | { channel: number; type: 'humidity'; value: number }
  | { channel: number; type: 'voltage'; value: number }
  | { channel: number; type: 'barometer'; value: number }
  | { channel: number; type: 'gps'; lat: number; lon: number; alt: number };

/** A Cayenne LPP payload of those values, in order. */
export function encodeCayenneLpp(values: readonly LppValue[]): Uint8Array {
  const w = new ByteWriter();
  for (const v of values) {
    w.u8(v.channel);
    switch (v.type) {
      case 'temperature':
        w.u8(103).i16(v.value * 10);
        break;
      case 'humidity':
        w.u8(104).u8(Math.min(100, v.value) * 2);
        break;
      case 'voltage':
        w.u8(116).u16(v.value * 100);
        break;
      case 'barometer':
        w.u8(115).u16(v.value * 10);
        break;
      case 'gps':
        w.u8(136)
          .i24(v.lat * 1e4)
          .i24(v.lon * 1e4)
          .i24(v.alt * 100);
        break;
    }
  }
  return w.done();
}
