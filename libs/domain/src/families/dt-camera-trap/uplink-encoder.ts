import { ByteWriter } from '../bytes';

/*
 * The inverse of the decoder beside it (decoder.ts): what a real device sends, for demo data and
 * simulators. Values are rounded to the layout's resolution and clamped to its range.
 */

export interface CameraTrapStatus {
  batteryMv: number;
  batteryPercent: number;
  temperature: number;
  photos: number;
  storageFreeMb: number;
  sdOk: boolean;
  pirEnabled: boolean;
  nightMode: boolean;
}

/** DT Camera Trap port 3 status (10 bytes). */
export function encodeDtCameraTrapStatus(s: CameraTrapStatus): Uint8Array {
  return new ByteWriter()
    .u16(s.batteryMv)
    .u8(s.batteryPercent)
    .i16(s.temperature * 100)
    .u16(s.photos)
    .u16(s.storageFreeMb)
    .u8((s.sdOk ? 1 : 0) | (s.pirEnabled ? 2 : 0) | (s.nightMode ? 4 : 0))
    .done();
}
