import { ByteReader, scaled } from '../bytes';
import { type Decoder, invalid, NO_MEASUREMENTS } from '../decoder';

/**
 * DT-CAM-1 camera trap status, port 3 (10 bytes, big-endian):
 * | bytes | member          | encoding                                  |
 * |-------|-----------------|-------------------------------------------|
 * | 0–1   | bat             | uint16, mV                                |
 * | 2     | bat_percent     | uint8, %                                  |
 * | 3–4   | temperature     | int16, 0.01 °C                            |
 * | 5–6   | photos          | uint16, photos taken since start          |
 * | 7–8   | storage_free_mb | uint16, MiB free on the card              |
 * | 9     | flags           | bit0 sd_ok, bit1 pir_enabled, bit2 night_mode |
 */
export const dtCameraTrapDecoder: Decoder = (bytes, port) => {
  const r = new ByteReader(bytes);
  try {
    if (port !== 3) throw new RangeError(`port ${port} is not the camera status port (3)`);
    if (bytes.length !== 10) throw new RangeError(`a camera status has 10 bytes, not ${bytes.length}`);
    const bat = r.u16();
    const bat_percent = r.u8();
    const temperature = scaled(r.i16(), 0.01, 2);
    const photos = r.u16();
    const storage_free_mb = r.u16();
    const f = r.u8();
    const decoded = { bat, bat_percent, temperature, photos, storage_free_mb, sd_ok: Boolean(f & 1), pir_enabled: Boolean(f & 2), night_mode: Boolean(f & 4) };
    return {
      decoded,
      valid: true,
      error: null,
      measurements: { ...NO_MEASUREMENTS, temperature, battery_voltage: scaled(bat, 0.001, 3), battery_percent: bat_percent },
    };
  } catch (error) {
    return invalid({}, (error as Error).message);
  }
};
